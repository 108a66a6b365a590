"""The built-in receiver, over a real SMTP (and LMTP) connection: it takes replies for reply
addresses only, stores each before it answers 250, and refuses what it cannot take."""

import smtplib

import pytest

from games.models import Move
from mailplay.models import InboundMessage
from mailplay.receiver import controller
from tests.celery_helpers import free_port, wait_for
from tests.games.conftest import current_user, start_game
from tests.mailplay.conftest import address_for, reply

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("send_at_once")]


def test_a_reply_over_smtp_is_stored_and_makes_the_move(receiver, alice, bob):
    game = start_game(alice, bob)
    mover = current_user(game)
    to = address_for(game, mover)
    with smtplib.SMTP(*receiver) as smtp:
        refused = smtp.sendmail(mover.email, [to], reply(to, mover.email, "play 1"))
    assert refused == {}
    # The receiver answered 250 once the message was stored; the move follows at once here
    # (tasks run in the process), through a worker in production.
    (message,) = InboundMessage.objects.all()
    assert message.source == InboundMessage.Source.SMTP
    assert message.recipient == to and message.sender == mover.email
    wait_for(lambda: Move.objects.filter(game=game, turn=0).exists(), seconds=10)


def test_other_recipients_are_refused_at_rcpt(receiver, alice):
    with smtplib.SMTP(*receiver) as smtp, pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        smtp.sendmail(alice.email, ["postmaster@localhost"], b"Subject: hi\r\n\r\nhello")
    ((code, _),) = refused.value.recipients.values()
    assert code == 550
    assert not InboundMessage.objects.exists()


def test_an_oversized_message_is_refused_at_data(receiver, settings, alice, bob):
    game = start_game(alice, bob)
    mover = current_user(game)
    to = address_for(game, mover)
    too_big = reply(to, mover.email, "play 1\n" + "x" * (settings.INBOUND_MAX_BYTES + 10))
    with smtplib.SMTP(*receiver) as smtp, pytest.raises(smtplib.SMTPException) as refused:
        smtp.sendmail(mover.email, [to], too_big)
    assert "552" in str(refused.value) or getattr(refused.value, "smtp_code", 0) == 552
    assert not InboundMessage.objects.exists()
    assert not Move.objects.exists()


def test_a_storing_failure_answers_try_again_later(receiver, alice, bob, monkeypatch):
    from mailplay import receiver as receiver_module

    def database_down(*args):
        raise RuntimeError("the database is down")

    monkeypatch.setattr(receiver_module, "receive", database_down)
    to = "play+1-0-0-0123456789abcdef0123@localhost"
    with smtplib.SMTP(*receiver) as smtp, pytest.raises(smtplib.SMTPDataError) as refused:
        smtp.sendmail(alice.email, [to], reply(to, alice.email, "play 1"))
    assert refused.value.smtp_code == 451


def test_lmtp_takes_replies_too(settings, alice, bob):
    settings.NOTIFY_DELAY_SECONDS = 0
    running = controller("127.0.0.1", free_port(), lmtp=True)
    running.start()
    try:
        game = start_game(alice, bob)
        mover = current_user(game)
        to = address_for(game, mover)
        with smtplib.LMTP(running.hostname, running.port) as lmtp:
            assert lmtp.sendmail(mover.email, [to], reply(to, mover.email, "play 1")) == {}
    finally:
        running.stop()
    wait_for(lambda: Move.objects.filter(game=game, turn=0).exists(), seconds=10)
