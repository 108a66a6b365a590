"""Helpers for the play-by-email tests: a reply as a mail client writes it, and delivering
it as the receiver would (stored, then processed by its outbox row, then answered)."""

from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from accounts.models import User
from games.models import Game
from games.reply_address import reply_address
from mailplay.inbound import receive
from mailplay.models import InboundMessage
from mailplay.receiver import controller
from tests.celery_helpers import free_port
from tests.mail import (
    run_due,
    send_at_once,  # noqa: F401  (a fixture, for the modules that name it)
)
from tests.mail_signing import (
    dkim_dns,  # noqa: F401  (autouse: every reply here meets the stubbed DNS)
    signed_by,
)


def address_for(game: Game, user: User, turn: int | None = None) -> str:
    """The reply address of `user`'s seat at `turn` (default: the game's current turn)."""
    game.refresh_from_db()
    seat = game.seats.get(user=user)
    return reply_address(game.pk, seat.position, game.turn if turn is None else turn, user.pk)


def reply(
    to: str,
    sender: str,
    text: str,
    message_id: str | None = None,
    html: str | None = None,
    signed: bool = True,
) -> bytes:
    """A top-posted reply as a mail client sends it: the new text, then the quote; signed
    (DKIM) for the domain of `sender`'s address, as its mail server would, unless not
    `signed`."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Re: Your turn in Hanabi game"
    message["Message-ID"] = message_id or make_msgid(domain="client.example")
    quoted = "On Tue, 24 Nov 2026 at 09:12, Hanabi <hanabi@localhost> wrote:\n> play 5\n"
    if html is None:
        message.set_content(f"{text}\n\n{quoted}")
    else:
        message.set_content(html, subtype="html")
    raw = message.as_bytes()
    address = message["From"].addresses[0].addr_spec if message["From"].addresses else ""
    return signed_by(raw, address) if signed and "@" in address else raw


def deliver(raw: bytes, to: str, sender: str = "") -> InboundMessage | None:
    """Store the message as the receiver does, process it and send its answer."""
    message = receive(raw, InboundMessage.Source.SMTP, [to], sender)
    run_due("inbound_email")
    run_due("mail_answer")
    if message is not None:
        message.refresh_from_db()
    return message


def send_reply(game: Game, user: User, text: str, **kwargs) -> InboundMessage | None:
    """`user` replies `text` to their turn email of the game's current turn."""
    to = address_for(game, user)
    return deliver(reply(to, user.email, text, **kwargs), to, user.email)


@pytest.fixture
def receiver(settings) -> Iterator[tuple[str, int]]:
    """The built-in receiver on a free port, (host, port), where /dev/mail/'s reply box
    sends (INBOUND_SMTP_HOST and _PORT)."""
    running = controller("127.0.0.1", free_port())
    running.start()
    settings.INBOUND_SMTP_HOST, settings.INBOUND_SMTP_PORT = running.hostname, running.port
    yield running.hostname, running.port
    running.stop()
