"""The built-in receiver: an SMTP (or LMTP) server that takes replies for reply addresses,
stores each (mailplay/inbound.py) and answers 250 only once it is stored.

A self-hoster points the MX of MAIL_DOMAIN at it (or has their mail server hand those
addresses to it by LMTP). Run it with `python manage.py receive_mail`.

Recipients that are not reply addresses are refused at RCPT (550), a message over
INBOUND_MAX_BYTES at DATA (552: aiosmtpd's size limit), and a storing failure (the database
down) answers 451, so the sending server keeps the message and tries again: nothing is lost.
"""

import logging

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games.reply_address import token_of
from mailplay.inbound import receive
from mailplay.models import InboundMessage

logger = logging.getLogger(__name__)

NO_SUCH_MAILBOX = "550 5.1.1 No such mailbox here: only replies to turn emails"
TRY_AGAIN_LATER = "451 4.3.0 Could not store the message now, please try again later"
STORED = "250 2.0.0 Message stored"


def _store(raw: bytes, recipients: list[str], sender: str) -> None:
    # Each call runs in a worker thread of its own: drop a connection the database closed.
    close_old_connections()
    try:
        receive(raw, InboundMessage.Source.SMTP, recipients, sender)
    finally:
        close_old_connections()


class ReplyHandler:
    """aiosmtpd's handler: accepts reply addresses only, stores what it accepts."""

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options
    ) -> str:
        if token_of(address) is None:
            logger.info("refused recipient %r from %r", address, envelope.mail_from)
            return NO_SUCH_MAILBOX
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        try:
            await sync_to_async(_store, thread_sensitive=False)(
                raw, list(envelope.rcpt_tos), envelope.mail_from or ""
            )
        except Exception:
            logger.exception("could not store a message from %r", envelope.mail_from)
            return TRY_AGAIN_LATER
        return STORED


class LMTPController(Controller):
    def factory(self) -> LMTP:
        return LMTP(self.handler, **self.SMTP_kwargs)


def controller(host: str, port: int, lmtp: bool = False) -> Controller:
    """A receiver on host:port, not yet started (`.start()` runs it in a thread)."""
    controller_class = LMTPController if lmtp else Controller
    return controller_class(
        ReplyHandler(),
        hostname=host,
        port=port,
        server_hostname=settings.MAIL_DOMAIN,
        data_size_limit=settings.INBOUND_MAX_BYTES,
        # Replies are small: a client that stalls is dropped, not kept for ever.
        timeout=60,
    )
