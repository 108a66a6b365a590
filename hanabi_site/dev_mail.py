"""DEBUG only: read the emails the embedded default wrote under EMAIL_FILE_PATH
(hanabi_site.mail_backend), newest first, with their links clickable; and answer a turn
email as a mail client would: the reply box sends a reply, over SMTP, to the built-in
receiver (python manage.py receive_mail, started by dev.py run), so a person can play a
whole game by email on the embedded default.

hanabi_site/urls.py includes these URLs only when DEBUG is on, and each view checks
again, so a production site never serves a mailbox.
"""

import email
import email.policy
import re
import smtplib
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from games.reply_address import token_of
from mailplay.sender_authentication import FROM_ONLY

app_name = "dev_mail"

# The list reads every file's headers: enough for a long afternoon of testing.
MAX_LISTED = 200
# What the backend writes; anything else (a "..", a slash, a hidden file) is not a message.
EML_NAME = re.compile(r"[\w-]+\.eml")


@dataclass
class StoredMessage:
    name: str
    message: EmailMessage

    @property
    def sent_at(self) -> datetime | None:
        date = self.message["Date"]
        return date.datetime if date is not None else None

    @property
    def to(self) -> str:
        return str(self.message["To"] or "")

    @property
    def subject(self) -> str:
        return str(self.message["Subject"] or "(no subject)")

    @property
    def reply_to(self) -> str:
        """The reply address of a turn email (or an answer), "" for other emails."""
        address = str(self.message["Reply-To"] or "")
        return address if token_of(address) else ""

    def headers(self) -> list[tuple[str, str]]:
        return [(name, str(value)) for name, value in self.message.items()]

    def body(self, subtype: str) -> str:
        part = self.message.get_body(preferencelist=(subtype,))
        if part is None or part.get_content_subtype() != subtype:
            return ""
        return part.get_content()


def _mail_directory() -> Path:
    return Path(settings.EMAIL_FILE_PATH)


def _read(path: Path) -> StoredMessage:
    with path.open("rb") as file:
        message = email.message_from_binary_file(file, policy=email.policy.default)
    return StoredMessage(path.name, message)


def _require_debug() -> None:
    if not settings.DEBUG:
        raise Http404("Only with DEBUG on.")


def _html_for_iframe(html: str) -> str:
    """The HTML body, with its links opening in the whole window: a sandboxed frame may
    not show our own pages (X-Frame-Options), and the links are what one wants to follow."""
    base = '<base target="_top">'
    with_base, found = re.subn(r"<head[^>]*>", lambda head: head[0] + base, html, count=1)
    return with_base if found else base + html


@require_GET
def mail_list(request: HttpRequest) -> HttpResponse:
    _require_debug()
    directory = _mail_directory()
    paths = sorted(directory.glob("*.eml"), reverse=True) if directory.is_dir() else []
    emails = [_read(path) for path in paths[:MAX_LISTED]]
    # Not "messages": base.html shows the messages framework's under that name.
    context = {"emails": emails, "directory": directory, "more": len(paths) > MAX_LISTED}
    return render(request, "dev/mail_list.html", context)


# The email's HTML is shown in a frame whose content inherits this page's policy, and emails
# carry inline styles (mail clients ignore style sheets): they are allowed on this page only.
@csp_update({"style-src": [UNSAFE_INLINE]})
@require_GET
def mail_detail(request: HttpRequest, name: str) -> HttpResponse:
    _require_debug()
    stored = _stored(name)
    html = stored.body("html")
    context = {
        "stored": stored,
        "text": stored.body("plain"),
        "html": _html_for_iframe(html) if html else "",
        # The reply box's replies are not signed: only a site that takes the From as
        # written (dev.py run's setting) moves on them. The page says which.
        "from_only": settings.INBOUND_SENDER_CHECK == FROM_ONLY,
    }
    return render(request, "dev/mail_detail.html", context)


def _stored(name: str) -> StoredMessage:
    # Only a plain file name of the backend's shape: never a path out of the mail folder.
    if not EML_NAME.fullmatch(name):
        raise Http404("No such message.")
    path = _mail_directory() / name
    if not path.is_file():
        raise Http404("No such message.")
    return _read(path)


def reply_message(stored: StoredMessage, text: str) -> EmailMessage:
    """The reply a mail client would write: from the recipient, to the Reply-To, in the
    thread, with the original quoted below the new text (top-posted, as most clients do)."""
    original = stored.body("plain")
    sent_at = stored.sent_at or timezone.now()
    quote = "\n".join(f"> {line}" if line else ">" for line in original.splitlines())
    reply = EmailMessage()
    reply["From"] = stored.to
    reply["To"] = stored.reply_to
    reply["Subject"] = f"Re: {stored.subject}"
    reply["Date"] = format_datetime(timezone.now())
    reply["Message-ID"] = make_msgid(domain="dev-mail.localhost")
    if stored.message["Message-ID"]:
        reply["In-Reply-To"] = stored.message["Message-ID"]
        reply["References"] = stored.message["Message-ID"]
    header = f"On {format_datetime(sent_at)}, {stored.message['From']} wrote:"
    reply.set_content(f"{text.strip()}\n\n{header}\n{quote}\n")
    return reply


@require_POST
def mail_reply(request: HttpRequest, name: str) -> HttpResponse:
    """Send a reply to a turn email to the built-in receiver, over SMTP."""
    _require_debug()
    stored = _stored(name)
    text = request.POST.get("text", "")
    if not stored.reply_to or not text.strip():
        messages.error(request, "Write a command first: this email takes replies.")
        return redirect("dev_mail:detail", name)
    host, port = settings.INBOUND_SMTP_HOST, settings.INBOUND_SMTP_PORT
    try:
        with smtplib.SMTP(host, port, timeout=10) as smtp:
            smtp.send_message(reply_message(stored, text))
    except (OSError, smtplib.SMTPException) as error:
        messages.error(
            request,
            f"The receiver at {host}:{port} did not take the reply ({error}). "
            "Is `python manage.py receive_mail` running? (dev.py run starts it.)",
        )
        return redirect("dev_mail:detail", name)
    messages.success(request, f"Reply sent to {stored.reply_to}. The answer will be listed here.")
    return redirect("dev_mail:list")


urlpatterns = [
    path("", mail_list, name="list"),
    path("<str:name>/", mail_detail, name="detail"),
    path("<str:name>/reply/", mail_reply, name="reply"),
]
