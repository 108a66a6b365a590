"""Where every reply enters: stored first, then processed by an outbox row.

The built-in receiver (management command receive_mail) and the providers' webhooks
(mailplay/webhooks.py) both call `receive()`. It keeps the raw message and writes the
outbox row that processes it in one transaction: a worker that dies before processing
leaves the row to the outbox sweep, and a message delivered twice (the same Message-ID, or
the same bytes) is stored once.
"""

import hashlib
import logging
from collections.abc import Mapping, Sequence
from email.parser import BytesHeaderParser
from email.policy import compat32

from django.conf import settings
from django.db import IntegrityError, transaction

from games.reply_address import token_of
from mailplay import outbox_kinds
from mailplay.models import InboundMessage
from outbox.delivery import schedule

logger = logging.getLogger(__name__)


def reply_recipient(recipients: Sequence[str]) -> str | None:
    """The first of the recipients that is a reply address, if any."""
    return next((address for address in recipients if token_of(address)), None)


def is_too_big(size: int) -> bool:
    return size > settings.INBOUND_MAX_BYTES


def _message_id(raw: bytes) -> str:
    # Headers only, and the lenient policy: a malformed message is still stored (and
    # refused by the processing, which says why in the log), never a crash here.
    try:
        headers = BytesHeaderParser(policy=compat32).parsebytes(raw)
        return " ".join(str(headers.get("Message-ID", "")).split())[:998]
    except Exception:
        return ""


def dedupe_key(raw: bytes, message_id: str) -> str:
    """The Message-ID when there is one (a resend by a provider has the same), else a hash
    of the bytes. Both hashed, so any length fits."""
    basis = f"id:{message_id}".encode() if message_id else b"raw:" + raw
    return hashlib.sha256(basis).hexdigest()


def receive(
    raw: bytes,
    source: str,
    recipients: Sequence[str],
    sender: str = "",
    provider_verdicts: Mapping[str, str] | None = None,
) -> InboundMessage | None:
    """Store one inbound message and schedule its processing; None (with a log line) when it
    is too big, not for a reply address, or already stored. `provider_verdicts`: what the
    provider's webhook said of the sender's authentication (mailplay/webhooks.py)."""
    recipient = reply_recipient(recipients)
    if recipient is None:
        logger.info("inbound message from %r ignored: no reply address in %r", sender, recipients)
        return None
    if is_too_big(len(raw)):
        logger.warning(
            "inbound message from %r to %s ignored: %d bytes, over %d",
            sender,
            recipient,
            len(raw),
            settings.INBOUND_MAX_BYTES,
        )
        return None
    message_id = _message_id(raw)
    try:
        with transaction.atomic():
            message = InboundMessage.objects.create(
                source=source,
                raw=raw,
                message_id=message_id,
                dedupe_key=dedupe_key(raw, message_id),
                recipient=recipient[:320],
                sender=sender[:320],
                provider_verdicts=dict(provider_verdicts or {}),
            )
            schedule(outbox_kinds.INBOUND_EMAIL, {"message": message.pk})
            logger.info("inbound message #%s (%s) to %s stored", message.pk, message_id, recipient)
    except IntegrityError:
        logger.info("inbound message %s to %s received again: ignored", message_id, recipient)
        return None
    return message
