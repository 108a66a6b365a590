"""Nothing lost, nothing twice, for every email (issue 13): each outbox row's email has a
Message-ID of its own, the same at every attempt; the row is marked sent the moment the
SMTP server accepts it; a worker that lost its claim sends nothing; and the account emails
(login link, password reset) survive an SMTP server that refuses them for a while."""

import logging
import re
from datetime import timedelta

import pytest
from django.core.mail.backends.smtp import EmailBackend
from django.utils import timezone

from lib.emails import send_email
from outbox import delivery, registry
from outbox.models import Outbox
from tests.games.conftest import start_game
from tests.notifications.conftest import LocalSMTPServer

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once")]


def your_turn_row(alice, bob) -> Outbox:
    game = start_game(alice, bob)
    return Outbox.objects.get(kind="your_turn", payload__game=game.pk)


def run_when_due(row: Outbox) -> bool:
    """Run the row as the sweep would once its backoff has passed."""
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())
    return delivery.run(row.pk)


def test_a_rows_email_carries_the_rows_message_id(smtp_server: LocalSMTPServer, alice, bob):
    row = your_turn_row(alice, bob)
    # SITE_URL is http://127.0.0.1:8000, and an IP address is no mail domain.
    assert re.fullmatch(r"<outbox-\d+-your_turn-\d{20}@localhost>", row.message_id())
    assert delivery.run(row.pk) is True
    (message,) = smtp_server.messages
    assert message["Message-ID"] == row.message_id()


def test_the_message_id_is_on_the_mail_domain_when_there_is_one(settings, alice, bob):
    settings.MAIL_DOMAIN = "mail.hanabi.example"
    row = your_turn_row(alice, bob)
    assert row.message_id().endswith("@mail.hanabi.example>")
    assert row.message_id().startswith(f"<outbox-{row.pk}-your_turn-")


def test_a_row_sent_again_sends_the_same_message(smtp_server: LocalSMTPServer, alice, bob):
    """As after a worker died while the server held the reply to the message: the server
    had it, the row was never marked, and the lease lapsed."""
    row = your_turn_row(alice, bob)
    assert delivery.run(row.pk) is True
    lapsed = timezone.now() - delivery.CLAIM_LEASE - timedelta(seconds=1)
    Outbox.objects.filter(pk=row.pk).update(done_at=None, claimed_at=lapsed)
    assert delivery.sweep_outbox() == 1
    first, second = smtp_server.messages
    assert first["Message-ID"] == second["Message-ID"] == row.message_id()
    assert first["Subject"] == second["Subject"] and first["To"] == second["To"]


def test_different_rows_have_different_message_ids(smtp_server: LocalSMTPServer, alice, bob):
    ids = {your_turn_row(alice, bob).message_id() for _ in range(3)}
    delivery.sweep_outbox()
    assert len(ids) == 3
    assert {message["Message-ID"] for message in smtp_server.messages} == ids


def test_send_email_takes_a_message_id(smtp_server: LocalSMTPServer, alice):
    context = {"user": alice, "url": "http://127.0.0.1:8000/accounts/link/", "valid_minutes": 60}
    send_email("accounts/login_link", alice.email, context, message_id="<fixed-1@example.org>")
    send_email("accounts/login_link", alice.email, context)
    first, second = smtp_server.messages
    assert first["Message-ID"] == "<fixed-1@example.org>"
    assert second["Message-ID"] not in ("", None, "<fixed-1@example.org>")


def test_a_row_is_marked_sent_before_the_goodbye(
    smtp_server: LocalSMTPServer, monkeypatch, alice, bob
):
    """Marked sent the moment the server accepts the message, before QUIT: a worker killed
    while it waits for the goodbye does not leave the email to be sent again."""
    row = your_turn_row(alice, bob)
    done_at_goodbye = []
    close = EmailBackend.close

    def look_then_close(backend: EmailBackend) -> None:
        done_at_goodbye.append(Outbox.objects.get(pk=row.pk).done_at)
        close(backend)

    monkeypatch.setattr(EmailBackend, "close", look_then_close)
    assert delivery.run(row.pk) is True
    assert len(done_at_goodbye) == 1 and done_at_goodbye[0] is not None


def test_a_goodbye_that_never_comes_changes_nothing(
    smtp_server: LocalSMTPServer, settings, alice, bob
):
    settings.EMAIL_TIMEOUT = 0.5
    row = your_turn_row(alice, bob)
    smtp_server.hold_next_reply_to("QUIT")
    assert delivery.run(row.pk) is True
    smtp_server.release()
    row.refresh_from_db()
    assert row.done_at is not None and row.last_error == "" and row.attempts == 1
    Outbox.objects.filter(pk=row.pk).update(
        claimed_at=timezone.now() - delivery.CLAIM_LEASE - timedelta(seconds=1)
    )
    assert delivery.sweep_outbox() == 0
    assert len(smtp_server.messages) == 1


def test_a_worker_that_lost_its_claim_sends_nothing(
    smtp_server: LocalSMTPServer, monkeypatch, alice, bob, caplog
):
    """A worker slower than its lease: by the time its email would go, another worker has
    claimed the row. The first sends nothing and leaves the row to the second."""
    row = your_turn_row(alice, bob)
    send_your_turn = registry.handler_for("your_turn")
    taken_over_at = timezone.now() + timedelta(seconds=1)

    def overtaken_then_send(row: Outbox) -> None:
        Outbox.objects.filter(pk=row.pk).update(claimed_at=taken_over_at)  # the other worker
        send_your_turn(row)

    monkeypatch.setitem(registry._handlers, "your_turn", overtaken_then_send)
    with caplog.at_level(logging.WARNING, logger="outbox.delivery"):
        assert delivery.run(row.pk) is False
    assert "was taken over by another worker" in caplog.text
    assert smtp_server.messages == []
    row.refresh_from_db()
    assert row.claimed_at == taken_over_at and row.done_at is None and row.last_error == ""


def test_a_handler_may_send_one_email_per_row(smtp_server: LocalSMTPServer, monkeypatch, bob):
    """The row is marked sent when its email is accepted, so a second email from the same
    handler is refused rather than left unprotected."""

    def two_emails(row: Outbox) -> None:
        for _ in range(2):
            send_email("accounts/suspended", bob.email, {"user": bob})

    monkeypatch.setitem(registry._handlers, "suspended", two_emails)
    row = Outbox.objects.create(kind="suspended", payload={"user": bob.pk}, due_at=timezone.now())
    assert delivery.run(row.pk) is False
    assert len(smtp_server.messages) == 1
    row.refresh_from_db()
    assert row.done_at is not None  # the one accepted email counts: never sent again


@pytest.mark.django_db(transaction=True)  # the request's row is enqueued when it commits
@pytest.mark.parametrize(
    ("url", "subject"),
    [
        ("/accounts/login/code/", "Hanabi: your login code"),
        ("/accounts/password/reset/", "Hanabi: set a new password"),
    ],
)
def test_an_account_email_refused_by_smtp_is_sent_once_when_it_accepts_again(
    client, smtp_server: LocalSMTPServer, alice, url, subject
):
    smtp_server.refuse()  # 451: try again later
    response = client.post(url, {"email": alice.email})
    assert response.status_code == 302  # the page says it is on its way, as always
    row = Outbox.objects.get()
    assert row.done_at is None and row.attempts == 1 and "451" in row.last_error
    assert smtp_server.messages == []

    smtp_server.refuse()
    assert run_when_due(row) is False  # still refused: kept, and tried again later
    row.refresh_from_db()
    assert row.done_at is None and row.attempts == 2

    smtp_server.accept()
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())  # the backoff has passed
    assert delivery.sweep_outbox() == 1
    assert delivery.sweep_outbox() == 0
    (message,) = smtp_server.messages
    assert message["To"] == alice.email
    assert message["Subject"] == subject
    assert message["Message-ID"] == row.message_id()
