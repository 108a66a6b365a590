"""An email accepted is an email marked sent (issue 25): the row is marked sent although the
database connection drops just as the SMTP server accepts the message, and a server slower
than the per-step timeout to answer the end of the message is waited for (RFC 5321
§4.5.3.2), within the lease. Either way the email arrives once."""

import asyncio
import time
from datetime import timedelta

import pytest
from django.db import OperationalError, connection, connections
from django.db.models import QuerySet
from django.utils import timezone

from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import start_game
from tests.notifications.conftest import LocalSMTPServer

pytestmark = pytest.mark.usefixtures("send_at_once")


def your_turn_row(alice, bob) -> Outbox:
    game = start_game(alice, bob)
    return Outbox.objects.get(kind="your_turn", payload__game=game.pk)


def unsent_your_turn_row(settings, alice, bob) -> Outbox:
    """A committed row that nothing has run yet: due later than a task is enqueued for (a
    test whose transactions commit runs the tasks enqueued at commit), then made due."""
    settings.NOTIFY_DELAY_SECONDS = 3600
    row = your_turn_row(alice, bob)
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())
    return row


def ten_minutes_later(row: Outbox) -> int:
    """The row's lease and any backoff have passed: what the sweep enqueues (and runs)."""
    lapsed = timezone.now() - delivery.claim_lease() - timedelta(seconds=1)
    Outbox.objects.filter(pk=row.pk, done_at=None).update(claimed_at=lapsed, due_at=lapsed)
    return delivery.sweep_outbox()


def drop_the_connection_at_the_first_mark_sent(monkeypatch) -> list[int]:
    """The first UPDATE that marks a row sent fails as a dropped connection does: on
    PostgreSQL the socket is really closed, so that the broken connection is unusable."""
    update = QuerySet.update
    dropped = []

    def update_or_drop(queryset, **changes):
        if queryset.model is Outbox and changes.get("done_at") is not None and not dropped:
            dropped.append(1)
            if connection.vendor == "postgresql":
                connection.connection.close()
            raise OperationalError("server closed the connection unexpectedly")
        return update(queryset, **changes)

    monkeypatch.setattr(QuerySet, "update", update_or_drop)
    return dropped


# Closing the broken connection ends any transaction: a test's own would be lost.
@pytest.mark.django_db(transaction=True)
def test_a_connection_dropped_as_the_server_accepts_still_marks_the_row_sent(
    smtp_server: LocalSMTPServer, settings, monkeypatch, alice, bob
):
    row = unsent_your_turn_row(settings, alice, bob)
    dropped = drop_the_connection_at_the_first_mark_sent(monkeypatch)
    delivery.run(row.pk)
    ten_minutes_later(row)
    assert dropped == [1]
    assert len(smtp_server.messages) == 1  # was 2: the row stayed unmarked, sent again
    row.refresh_from_db()
    assert row.done_at is not None and row.last_error == "" and row.attempts == 1


@pytest.mark.django_db(transaction=True)
def test_a_mark_that_keeps_failing_is_given_up_after_a_few_tries(
    smtp_server: LocalSMTPServer, settings, monkeypatch, alice, bob
):
    """A database that stays away: the worker stops trying (the lease then sends the email
    again, the one duplicate left) instead of holding on past its lease."""
    row = unsent_your_turn_row(settings, alice, bob)
    tries = []
    update = QuerySet.update

    def always_dropped(queryset, **changes):
        if queryset.model is Outbox and changes.get("done_at") is not None:
            tries.append(1)
            raise OperationalError("server closed the connection unexpectedly")
        return update(queryset, **changes)

    monkeypatch.setattr(QuerySet, "update", always_dropped)
    monkeypatch.setattr(delivery, "MARK_SENT_RETRY_DELAYS", (0, 0))
    assert delivery.run(row.pk) is False
    assert len(tries) == 3
    row.refresh_from_db()
    assert row.done_at is None and row.last_error.startswith("OperationalError")


@pytest.mark.django_db
def test_a_server_slower_than_a_step_to_answer_the_end_of_data_gets_the_email_once(
    smtp_server: LocalSMTPServer, settings, monkeypatch, alice, bob
):
    """As a server that takes 40 s where every SMTP step used to give up after 30 s, on a
    small scale: each step 1 s, the server answers the message's end after 2 s."""
    settings.EMAIL_TIMEOUT = 1
    settings.SMTP_DATA_TIMEOUT_SECONDS = 5
    keep_then_answer = smtp_server.handler.handle_DATA

    async def keep_then_answer_slowly(server, session, envelope) -> str:
        reply = await keep_then_answer(server, session, envelope)
        await asyncio.sleep(2)
        return reply

    monkeypatch.setattr(smtp_server.handler, "handle_DATA", keep_then_answer_slowly)
    row = your_turn_row(alice, bob)
    delivery.run(row.pk)
    ten_minutes_later(row)
    assert len(smtp_server.messages) == 1  # was 2: the client gave up, and sent it again
    row.refresh_from_db()
    assert row.done_at is not None and row.last_error == "" and row.attempts == 1


def test_the_wait_after_the_data_stays_inside_the_lease(settings):
    """After the claim is renewed come MAIL, RCPT, DATA and the message (one step each),
    the wait for the end of data, and the mark: all inside the lease."""
    from lib.emails import smtp_data_timeout

    settings.EMAIL_TIMEOUT = 30
    settings.OUTBOX_LEASE_SECONDS = 600
    settings.SMTP_DATA_TIMEOUT_SECONDS = 3600
    assert smtp_data_timeout() == 600 - 4 * 30 - 60
    settings.SMTP_DATA_TIMEOUT_SECONDS = 40
    assert smtp_data_timeout() == 40


def backend_pid() -> int:
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def terminate(pid: int) -> None:
    """From a connection of its own, as an administrator or a failover would."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            assert cursor.fetchone()[0] is True
    finally:
        other.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_backend_killed_as_the_server_accepts_still_marks_the_row_sent(
    smtp_server: LocalSMTPServer, settings, monkeypatch, alice, bob
):
    """No stand-in for the drop: the worker's PostgreSQL backend is terminated by the SMTP
    server the moment it has kept the message, before it answers 250."""
    row = unsent_your_turn_row(settings, alice, bob)
    pid = backend_pid()
    keep = smtp_server.handler.handle_DATA
    killed = []

    async def keep_then_kill_the_workers_backend(server, session, envelope) -> str:
        reply = await keep(server, session, envelope)
        if not killed:
            await asyncio.to_thread(terminate, pid)
            killed.append(pid)
        return reply

    monkeypatch.setattr(smtp_server.handler, "handle_DATA", keep_then_kill_the_workers_backend)
    delivery.run(row.pk)
    ten_minutes_later(row)
    assert killed == [pid]
    assert len(smtp_server.messages) == 1
    row.refresh_from_db()
    assert row.done_at is not None and row.last_error == "" and row.attempts == 1


@pytest.mark.slow
@pytest.mark.django_db
def test_a_server_answering_the_end_of_data_after_40_s_gets_the_email_once(
    smtp_server: LocalSMTPServer, monkeypatch, alice, bob
):
    """At full scale, with the site's own timeouts (30 s a step, SMTP_DATA_TIMEOUT_SECONDS
    for the end of the message): the server that once made every email arrive twice."""
    row = your_turn_row(alice, bob)
    keep = smtp_server.handler.handle_DATA

    async def keep_then_answer_after_40_s(server, session, envelope) -> str:
        reply = await keep(server, session, envelope)
        await asyncio.sleep(40)
        return reply

    monkeypatch.setattr(smtp_server.handler, "handle_DATA", keep_then_answer_after_40_s)
    started = time.monotonic()
    delivery.run(row.pk)
    assert time.monotonic() - started >= 40
    ten_minutes_later(row)
    assert len(smtp_server.messages) == 1
    row.refresh_from_db()
    assert row.done_at is not None and row.last_error == "" and row.attempts == 1
