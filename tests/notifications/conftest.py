"""Where the tests' email goes: a real SMTP server (aiosmtpd on a free local port, in its
own thread), or .eml files in a fresh folder as in the embedded default. The browser tests
import `mail_folder` and `debug_urls` from here."""

import asyncio
import email
import email.policy
import importlib
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import environ
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from django.urls import clear_url_caches

import hanabi_site.urls
from tests.mail import send_at_once  # noqa: F401  (a fixture, for the modules that name it)

HOST = "127.0.0.1"
# "Try again later": a good SMTP client (and our outbox) keeps the message and retries.
TEMPORARY_FAILURE = "451 4.3.0 Mailbox busy, try again later"
# "Never": the message will not be delivered however often it is sent.
PERMANENT_FAILURE = "550 5.1.1 No such mailbox"


@dataclass
class ReceivedMail:
    mail_from: str
    rcpt_tos: list[str]
    message: EmailMessage


@dataclass
class RecordingHandler:
    """aiosmtpd's handler: keeps what it accepts, or answers `refusal` to every message.
    With `hold` set to "DATA" or "QUIT", the next reply to that command is held back (the
    message is kept first, as a real server queues it before it answers) until release()."""

    received: list[ReceivedMail] = field(default_factory=list)
    refusal: str | None = None
    hold: str | None = None
    held_client: tuple[str, int] | None = None  # (host, port) of the connection held
    holding: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.refusal:
            return self.refusal
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.received.append(ReceivedMail(envelope.mail_from, list(envelope.rcpt_tos), message))
        await self._maybe_hold("DATA", session)
        return "250 2.0.0 Message accepted for delivery"

    async def handle_QUIT(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        await self._maybe_hold("QUIT", session)
        return "221 Bye"

    async def _maybe_hold(self, command: str, session: Session) -> None:
        if self.hold != command:
            return
        self.hold = None  # once: the next attempt goes through
        self.held_client = session.peer
        self.holding.set()
        # Waits in a thread, so that the server goes on serving other connections; if the
        # client vanishes meanwhile, aiosmtpd cancels this and the reply is never sent.
        await asyncio.get_running_loop().run_in_executor(None, self.released.wait, 120)


@dataclass
class LocalSMTPServer:
    host: str
    port: int
    handler: RecordingHandler

    @property
    def email_url(self) -> str:
        return f"smtp://{self.host}:{self.port}"

    @property
    def received(self) -> list[ReceivedMail]:
        """Every accepted message with its envelope, oldest first."""
        return self.handler.received

    @property
    def messages(self) -> list[EmailMessage]:
        """Every accepted message, parsed (email.policy.default), oldest first."""
        return [mail.message for mail in self.handler.received]

    def refuse(self, reply: str = TEMPORARY_FAILURE) -> None:
        """Answer every message from now on with `reply` (a 4xx or 5xx line)."""
        self.handler.refusal = reply

    def accept(self) -> None:
        self.handler.refusal = None

    def hold_next_reply_to(self, command: str) -> None:
        """Hold back the next reply to "DATA" (after keeping the message) or "QUIT"."""
        self.handler.holding.clear()
        self.handler.released.clear()
        self.handler.hold = command

    def wait_until_holding(self, seconds: float = 60) -> tuple[str, int]:
        """Wait for a client to reach the held reply; its (host, port)."""
        if not self.handler.holding.wait(seconds):
            raise AssertionError(f"no client reached the held {self.handler.hold} reply")
        return self.handler.held_client

    def release(self) -> None:
        self.handler.released.set()


def free_port() -> int:
    # aiosmtpd's controller needs to know its port before it starts (it connects to
    # itself to check it is up), so it cannot be given port 0.
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_server(settings) -> Iterator[LocalSMTPServer]:
    """A real SMTP server on 127.0.0.1, and Django configured to send through it exactly
    as settings.py would for EMAIL_URL=smtp://127.0.0.1:<port>.

    Anything that sends email in the test (send_email, an outbox task run in the test)
    now speaks SMTP to this server instead of filling django.core.mail.outbox:

        def test_a_move_is_emailed(smtp_server):
            ...
            (message,) = smtp_server.messages        # email.message.EmailMessage
            assert message["To"] == "alice@example.org"
            smtp_server.received[0].rcpt_tos         # the envelope, if it matters

            smtp_server.refuse()                     # 451 for every message from now on
            smtp_server.refuse(PERMANENT_FAILURE)    # or a 550, or any reply line
            ...                                      # sending raises smtplib.SMTPDataError
            smtp_server.accept()                     # and back to delivering
            smtp_server.hold_next_reply_to("DATA")   # keep the message, hold the 250 back
            client = smtp_server.wait_until_holding(); ...; smtp_server.release()

    Import the replies with `from tests.notifications.conftest import TEMPORARY_FAILURE`.
    """
    handler = RecordingHandler()
    # server_hostname: without it aiosmtpd asks the resolver for this machine's name.
    controller = Controller(handler, hostname=HOST, port=free_port(), server_hostname="localhost")
    controller.start()
    server = LocalSMTPServer(HOST, controller.port, handler)
    for name, value in environ.Env.email_url_config(server.email_url).items():
        setattr(settings, name, value)
    settings.EMAIL_TIMEOUT = 10  # a stuck server fails the test instead of hanging it
    try:
        yield server
    finally:
        server.release()
        controller.stop()


@pytest.fixture
def mail_folder(settings, tmp_path: Path) -> Path:
    """Email goes to .eml files in a fresh folder, as in the embedded default."""
    settings.EMAIL_BACKEND = "hanabi_site.mail_backend.EmlFileBackend"
    settings.EMAIL_FILE_PATH = tmp_path / "mail"
    return settings.EMAIL_FILE_PATH


@pytest.fixture
def debug_urls(settings) -> Iterator[None]:
    """The site's URLs as they are with DEBUG on: urls.py adds /dev/mail/ only then."""
    debug = settings.DEBUG
    settings.DEBUG = True
    _reload_urls()
    yield
    settings.DEBUG = debug
    _reload_urls()


def _reload_urls() -> None:
    importlib.reload(hanabi_site.urls)
    clear_url_caches()
