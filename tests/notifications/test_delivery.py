"""Nothing lost, nothing twice: the outbox keeps what could not be enqueued or sent, the
sweep finds it again, and a row is carried out once however often its task runs."""

import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import action_to_dict
from games.models import Game, Move
from games.services import announce, play
from outbox import delivery
from outbox.models import Outbox
from tests.celery_helpers import celery_config
from tests.games.conftest import current_user, start_game
from tests.notifications.conftest import PERMANENT_FAILURE, TEMPORARY_FAILURE

pytestmark = pytest.mark.usefixtures("send_at_once")


@pytest.fixture
def eager_celery():
    """Tasks run in this process when enqueued, as a worker would run them."""
    with celery_config(task_always_eager=True):
        yield


def broker_down():
    """Celery's broker is a port where nothing listens: enqueueing fails, for real."""
    return celery_config(
        task_always_eager=False,
        broker_write_url="redis://127.0.0.1:1/0",
        broker_connection_timeout=0.5,
        task_publish_retry=False,
    )


@pytest.mark.django_db(transaction=True)
def test_a_move_made_while_the_broker_is_down_is_kept_and_its_email_sent_later(
    alice, bob, mailoutbox, caplog
):
    with broker_down(), caplog.at_level(logging.WARNING, logger="outbox.delivery"):
        game = start_game(alice, bob)
    assert "the sweep will retry" in caplog.text
    assert game.status == Game.Status.PLAYING  # the change is committed all the same
    row = Outbox.objects.get(kind="your_turn")
    assert row.done_at is None and row.attempts == 0 and mailoutbox == []

    # The broker is back: the next sweep enqueues the row, a worker sends it, once.
    with celery_config(task_always_eager=True):
        assert delivery.sweep_outbox() == 1
        assert [m.to for m in mailoutbox] == [[current_user(game).email]]
        assert delivery.sweep_outbox() == 0
    assert len(mailoutbox) == 1
    row.refresh_from_db()
    assert row.done_at is not None


@pytest.mark.django_db
def test_the_same_task_run_twice_sends_once(alice, bob, mailoutbox, eager_celery):
    start_game(alice, bob)
    row = Outbox.objects.get(kind="your_turn")
    assert delivery.run_row.apply(args=[row.pk]).get() is True
    assert delivery.run_row.apply(args=[row.pk]).get() is False
    assert len(mailoutbox) == 1


@pytest.mark.django_db
def test_a_row_claimed_by_a_worker_that_died_is_run_again_after_the_lease(
    alice, bob, mailoutbox, eager_celery
):
    start_game(alice, bob)
    row = Outbox.objects.get(kind="your_turn")
    # A worker claimed it and was killed before finishing.
    Outbox.objects.filter(pk=row.pk).update(claimed_at=timezone.now(), attempts=1)
    assert delivery.sweep_outbox() == 0  # still within its lease: not stolen
    Outbox.objects.filter(pk=row.pk).update(
        claimed_at=timezone.now() - delivery.CLAIM_LEASE - timedelta(seconds=1)
    )
    assert delivery.sweep_outbox() == 1
    assert len(mailoutbox) == 1


def run_when_due(row: Outbox) -> bool:
    """Run the row as the sweep would once its backoff has passed."""
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())
    return delivery.run(row.pk)


@pytest.mark.django_db
def test_an_email_the_smtp_server_refuses_is_retried_with_backoff_and_keeps_its_error(
    alice, bob, smtp_server
):
    start_game(alice, bob)
    row = Outbox.objects.get(kind="your_turn")
    smtp_server.refuse(TEMPORARY_FAILURE)

    before = timezone.now()
    assert delivery.run(row.pk) is False
    after = timezone.now()
    row.refresh_from_db()
    assert row.done_at is None and row.claimed_at is None and row.attempts == 1
    assert row.last_error.startswith("SMTPDataError: (451, ")
    assert "Mailbox busy, try again later" in row.last_error
    assert before + delivery.backoff(1) <= row.due_at <= after + delivery.backoff(1)
    assert delivery.run(row.pk) is False  # not due yet: nothing happens
    row.refresh_from_db()
    assert row.attempts == 1

    # Refused again: the wait doubles.
    before = timezone.now()
    assert run_when_due(row) is False
    after = timezone.now()
    row.refresh_from_db()
    assert row.done_at is None and row.attempts == 2
    assert delivery.backoff(2) == 2 * delivery.backoff(1)
    assert before + delivery.backoff(2) <= row.due_at <= after + delivery.backoff(2)
    assert smtp_server.messages == []


@pytest.mark.django_db
def test_an_email_refused_at_every_attempt_is_given_up_with_its_error(alice, bob, smtp_server):
    start_game(alice, bob)
    row = Outbox.objects.get(kind="your_turn")
    smtp_server.refuse(PERMANENT_FAILURE)
    for attempt in range(1, delivery.MAX_ATTEMPTS + 1):
        assert run_when_due(row) is False
        row.refresh_from_db()
        assert row.attempts == attempt
        assert (row.done_at is not None) == (attempt == delivery.MAX_ATTEMPTS), attempt
    assert row.last_error.startswith("SMTPDataError: (550, ")
    assert "No such mailbox" in row.last_error

    # Given up: neither the sweep nor a late task sends it, even to a server that accepts.
    smtp_server.accept()
    assert delivery.sweep_outbox() == 0
    assert run_when_due(row) is False
    assert smtp_server.messages == []


@pytest.mark.django_db
def test_moves_and_their_outbox_rows_commit_together(alice, bob, monkeypatch):
    """If writing the outbox row fails, the move is not recorded either."""
    game = start_game(alice, bob)
    state = game.load_state()

    def broken_schedule(*args, **kwargs):
        raise RuntimeError("outbox unavailable")

    monkeypatch.setattr(announce, "schedule", broken_schedule)
    clue = next(a for a in state.legal_actions() if type(a).__name__ == "Clue")
    with pytest.raises(RuntimeError):
        play.submit_action(game.pk, current_user(game), action_to_dict(clue), 0)
    assert not Move.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.turn == 0


@pytest.mark.django_db
def test_an_email_the_smtp_server_refuses_is_sent_when_it_accepts_again(alice, bob, smtp_server):
    start_game(alice, bob)
    row = Outbox.objects.get(kind="your_turn")
    smtp_server.refuse()  # 451: try again later
    assert delivery.run(row.pk) is False
    row.refresh_from_db()
    assert row.done_at is None and row.attempts == 1 and "451" in row.last_error
    assert smtp_server.messages == []

    smtp_server.accept()
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())  # the backoff has passed
    assert delivery.sweep_outbox() == 1
    assert delivery.sweep_outbox() == 0
    (message,) = smtp_server.messages
    assert message["Subject"].startswith("Your turn in Hanabi game")
