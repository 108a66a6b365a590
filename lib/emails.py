"""One helper for every email: subject, text and HTML bodies rendered from templates.

An email of kind "games/invitation" is made of templates/emails/games/invitation/
subject.txt, body.txt and body.html, all rendered with the same context.

A caller that must know what happened to a message (the outbox, which sends each of its
rows' emails once) wraps the call in `sending(OutgoingEmail(...))`: the message then carries
the Message-ID it was given, and the caller hears just before the message goes and as soon
as the server has accepted it. Handlers call send_email as usual and never see it.
"""

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

# Each step of an SMTP conversation (connect, each command) gives up after this long unless
# EMAIL_TIMEOUT says otherwise: a stuck server must not hold a worker past the outbox's
# lease, after which the row would be sent again. The reply to the end of the message is
# waited for longer (smtp_data_timeout).
SMTP_TIMEOUT_SECONDS = 30
# Left of the lease after the last SMTP reply, for marking the row sent (retries included).
LEASE_MARGIN_SECONDS = 60
# What smtplib sends last: the end of the message ("." alone on a line).
END_OF_DATA = b"\r\n.\r\n"


def smtp_step_timeout() -> float:
    return settings.EMAIL_TIMEOUT or SMTP_TIMEOUT_SECONDS


def smtp_data_timeout() -> float:
    """How long to wait for the reply to the end of a message: SMTP_DATA_TIMEOUT_SECONDS,
    but inside the outbox's lease, which is renewed just before MAIL FROM and must outlast
    MAIL, RCPT, DATA and the message (a step each), this wait and the marking."""
    within_lease = settings.OUTBOX_LEASE_SECONDS - 4 * smtp_step_timeout() - LEASE_MARGIN_SECONDS
    return max(min(settings.SMTP_DATA_TIMEOUT_SECONDS, within_lease), smtp_step_timeout())


def _nothing() -> None:
    pass


@dataclass
class OutgoingEmail:
    """The one email a caller is about to send, as the caller wants it sent."""

    message_id: str  # "<…@…>": the same for every attempt, so a resend is the same message
    # Called with the connection open, just before the message goes; raising stops it.
    on_send: Callable[[], None] = _nothing
    # Called the moment the server has accepted the message, before anything else.
    on_accepted: Callable[[], None] = _nothing
    sent: bool = False


_outgoing: ContextVar[OutgoingEmail | None] = ContextVar("outgoing_email", default=None)


@contextmanager
def sending(outgoing: OutgoingEmail) -> Iterator[OutgoingEmail]:
    """Inside, send_email sends (at most) this one email."""
    token = _outgoing.set(outgoing)
    try:
        yield outgoing
    finally:
        _outgoing.reset(token)


def render_email(kind: str, context: dict) -> tuple[str, str, str]:
    """(subject, text body, HTML body) for one kind of email."""
    context = {"site_url": settings.SITE_URL, **context}
    folder = f"emails/{kind}"
    subject = " ".join(render_to_string(f"{folder}/subject.txt", context).split())
    text = render_to_string(f"{folder}/body.txt", context)
    html = render_to_string(f"{folder}/body.html", context)
    return subject, text, html


def send_email(
    kind: str,
    to: str,
    context: dict,
    headers: dict | None = None,
    message_id: str | None = None,
) -> None:
    """Render and send one email of the site's own (templates/emails/<kind>/)."""
    subject, text, html = render_email(kind, context)
    send_rendered(subject, text, html, to, headers=headers, message_id=message_id)


def send_rendered(
    subject: str,
    text: str,
    html: str,
    to: str,
    headers: dict | None = None,
    message_id: str | None = None,
) -> None:
    """Send one email already rendered (by the site's templates, or allauth's). Its
    Message-ID is `message_id`, else the one `sending()` gave, else a fresh one. Raises if
    the server refuses it (the outbox retries later)."""
    outgoing = _outgoing.get()
    if outgoing is not None and outgoing.sent:
        # The outbox marks its row sent when this email is accepted: a second email would
        # be lost if the worker died before it.
        raise RuntimeError(f"one email per outbox row: {outgoing.message_id} is sent already")
    headers = dict(headers or {})
    message_id = message_id or (outgoing.message_id if outgoing else None)
    if message_id:
        headers["Message-ID"] = message_id
    connection = get_connection(timeout=smtp_step_timeout())
    message = EmailMultiAlternatives(
        subject, text or html, to=[to], headers=headers, connection=connection
    )
    if text and html:
        message.attach_alternative(html, "text/html")
    elif html:
        message.content_subtype = "html"
    # The connection is opened here and closed after the acceptance is recorded, so that
    # the reply to QUIT (or a server that never gives one) is not part of the send.
    connection.open()
    _wait_longer_for_the_end_of_data(connection)
    try:
        if outgoing is not None:
            outgoing.on_send()
        message.send()
        if outgoing is not None:
            outgoing.sent = True
            outgoing.on_accepted()
    finally:
        _close(connection)


def _close(connection) -> None:
    try:
        connection.close()
    except Exception:
        # Sent or not, the answer is known already: a failed goodbye changes nothing.
        logger.warning("could not close the SMTP connection", exc_info=True)


def _wait_longer_for_the_end_of_data(connection) -> None:
    """Give the reply to the end of the message smtp_data_timeout() (RFC 5321 §4.5.3.2),
    every other step the step timeout: a server slower than a step to answer there has the
    message, and giving up on it would send it again."""
    smtp = getattr(connection, "connection", None)  # smtplib.SMTP, for the SMTP backend
    if smtp is None or getattr(smtp, "sock", None) is None:
        return  # another backend (files, memory): nothing to wait for
    send = smtp.send

    def send_then_wait(data) -> None:
        if smtp.sock:  # else smtplib's send says the server is gone
            smtp.sock.settimeout(smtp_step_timeout())
        send(data)
        if smtp.sock and isinstance(data, bytes) and data.endswith(END_OF_DATA):
            smtp.sock.settimeout(smtp_data_timeout())  # smtplib reads the reply next

    smtp.send = send_then_wait
