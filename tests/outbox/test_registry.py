"""The apps register their own kinds of outbox row: each has a handler (the site refuses to
start otherwise), a new one needs no migration, and a row of a kind nobody registered fails
clearly without stopping the sweep."""

from datetime import timedelta

import pytest
from django.core.checks import run_checks
from django.core.management import call_command
from django.utils import timezone

from outbox import delivery, registry
from outbox.admin import label_of
from outbox.checks import every_kind_has_a_handler
from outbox.delivery import schedule
from outbox.models import Outbox
from outbox.purge import key_cannot_recur_after


@pytest.fixture
def own_registry(monkeypatch):
    """Kinds and handlers registered by the test are forgotten after it."""
    monkeypatch.setattr(registry, "_kinds", dict(registry._kinds))
    monkeypatch.setattr(registry, "_handlers", dict(registry._handlers))


def test_every_kind_of_row_has_a_handler():
    assert registry.kinds_without_handler() == []
    for kind in registry.kinds():
        assert callable(registry.handler_for(kind.name))


def test_each_app_registers_the_kinds_it_writes_and_the_retired_ones_are_gone():
    assert {kind.name for kind in registry.kinds()} == {
        # games/outbox_kinds.py
        "invitation",
        "your_turn",
        "reminder",
        "game_over",
        "digest",
        "bot_move",
        "analysis",
        # accounts, moderation, mailplay
        "account_email",
        "suspended",
        "inbound_email",
        "mail_answer",
        # rematches
        "rematch_invitation",
        # deals
        "deal_bot_table",
    }
    assert registry.registered("login_link") is None
    assert registry.registered("password_reset") is None
    # The column holds no list of kinds to migrate.
    assert Outbox._meta.get_field("kind").choices is None


def test_only_the_analysis_has_a_queue_of_its_own():
    assert {kind.name: kind.queue for kind in registry.kinds() if kind.queue} == {
        "analysis": "analysis",
        "deal_bot_table": "deals",  # and the deals' bot tables
    }


def test_the_purge_policies_of_the_keyed_kinds_are_registered_with_them():
    assert key_cannot_recur_after() == {
        "analysis": timedelta(0),
        "game_over": timedelta(0),
        "digest": timedelta(days=2),
        "rematch_invitation": timedelta(0),
        "deal_bot_table": timedelta(0),
    }


def test_the_system_check_fails_for_a_kind_without_a_handler(monkeypatch):
    assert every_kind_has_a_handler(None) == []
    handlers = dict(registry._handlers)
    del handlers["your_turn"]
    monkeypatch.setattr(registry, "_handlers", handlers)

    (error,) = every_kind_has_a_handler(None)
    assert error.id == "outbox.E001"
    assert "'your_turn'" in error.msg
    assert error in run_checks()  # manage.py check (and every start) reports it


def test_a_handler_for_an_unknown_kind_is_refused_at_registration():
    with pytest.raises(ValueError, match="not a kind of outbox row"):
        registry.handler("carrier_pigeon")


@pytest.mark.usefixtures("own_registry")
@pytest.mark.parametrize(
    "name",
    ["Carrier pigeon", "carrier-pigeon", "", "k" * 21],  # the column holds 20
)
def test_a_kind_whose_name_the_column_cannot_hold_is_refused(name):
    with pytest.raises(ValueError, match="cannot name a kind"):
        registry.register(name, "a pigeon")
    assert registry.registered(name) is None


@pytest.mark.usefixtures("own_registry")
def test_a_kind_registered_twice_must_be_the_same_kind():
    assert registry.register("your_turn", "your-turn email") == "your_turn"  # the same: fine
    with pytest.raises(ValueError, match="registered already"):
        registry.register("your_turn", "your-turn email", queue="analysis")
    assert registry.registered("your_turn").queue == ""


@pytest.mark.django_db
def test_a_row_of_a_kind_nobody_carries_out_is_never_written(monkeypatch):
    monkeypatch.setattr(registry, "_handlers", {})
    with pytest.raises(registry.UnknownKind, match="'digest'"):
        schedule("digest", {"user": 1})
    assert not Outbox.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("own_registry")
def test_an_app_adds_a_kind_which_is_written_enqueued_on_its_queue_and_carried_out(
    monkeypatch, django_capture_on_commit_callbacks, capsys
):
    """What an app does to add a kind: register it, and its handler. No migration."""
    pigeon = registry.register("carrier_pigeon", "a message by pigeon", queue="birds")
    carried = []

    @registry.handler(pigeon)
    def fly(row: Outbox) -> None:
        carried.append(row.payload["to"])

    sent = []
    send = delivery.run_row.apply_async

    def record_and_send(args, **options):
        sent.append((args, options["queue"]))
        return send(args, **options)  # run here: the tests' Celery is eager

    monkeypatch.setattr(delivery.run_row, "apply_async", record_and_send)
    with django_capture_on_commit_callbacks(execute=True):
        row = schedule(pigeon, {"to": "bob"})
        assert sent == []  # only once the transaction commits

    default_queue = delivery.run_row.app.conf.task_default_queue
    assert sent == [((row.pk,), f"{default_queue}-birds")]
    assert carried == ["bob"]
    row.refresh_from_db()
    assert (row.kind, row.done_at is not None, row.last_error) == ("carrier_pigeon", True, "")
    assert every_kind_has_a_handler(None) == []
    assert label_of(pigeon) == "a message by pigeon"

    # No migration: makemigrations --check exits with an error when one is missing.
    call_command("makemigrations", "--check", "--dry-run", verbosity=1)
    assert "No changes detected" in capsys.readouterr().out


def test_each_row_goes_to_its_kind_s_queue_named_after_the_default_one():
    """The analysis's queue follows the default queue, so that a test's or a bench's
    workers (a default queue of their own) get an analysis queue of their own too."""
    app = delivery.run_row.app
    before = app.conf.task_default_queue
    try:
        for default in ("celery", "test-1234"):
            app.conf.task_default_queue = default
            assert delivery.queue_for("analysis") == f"{default}-analysis"
            assert delivery.queue_for("bot_move") == default
            assert delivery.queue_for("your_turn") == default
            assert delivery.queue_for("login_link") == default  # unknown: fails in a worker
    finally:
        app.conf.task_default_queue = before


@pytest.mark.django_db
def test_a_row_of_an_unknown_kind_fails_clearly_and_the_sweep_goes_on(monkeypatch, caplog):
    """A row of a retired kind (login_link, password_reset: before allauth) left in the
    database, or of a kind a newer release wrote during a deploy: the sweep hands it to a
    worker like any other, which records why it cannot run it and retries later (a worker
    of the newer release may), then gives up."""
    now = timezone.now()
    retired = Outbox.objects.create(kind="login_link", payload={"user": 1}, due_at=now)
    other = Outbox.objects.create(kind="suspended", payload={"user": 1}, due_at=now)
    ran = []
    monkeypatch.setattr(
        delivery.run_row, "apply_async", lambda args, **options: ran.append((args[0], options))
    )
    assert delivery.enqueue_due() == 2  # the unknown row stopped nothing
    ran = [(row_id, options["queue"]) for row_id, options in ran]
    default_queue = delivery.run_row.app.conf.task_default_queue
    assert sorted(ran) == [(retired.pk, default_queue), (other.pk, default_queue)]

    assert delivery.run(retired.pk) is False
    retired.refresh_from_db()
    assert retired.last_error == (
        "UnknownKind: no handler is registered for outbox rows of kind 'login_link'"
    )
    assert retired.done_at is None and retired.attempts == 1
    assert retired.due_at > now  # retried later, as any failure
    assert "outbox row" in caplog.text and "login_link" in caplog.text

    Outbox.objects.filter(pk=retired.pk).update(
        attempts=delivery.MAX_ATTEMPTS - 1, due_at=timezone.now()
    )
    assert delivery.run(retired.pk) is False
    retired.refresh_from_db()
    assert retired.done_at is not None  # given up, the reason kept
    assert "no handler" in retired.last_error
    assert label_of("login_link") == "login_link (no handler: not a registered kind)"
