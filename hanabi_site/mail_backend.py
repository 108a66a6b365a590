"""The embedded default's email backend: every message becomes its own .eml file.

Django's file backend appends all the messages of one connection to one .log file;
one standard .eml file per message can be opened by any mail program, and listed one by
one on the DEBUG page /dev/mail/ (hanabi_site.dev_mail).
"""

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend


def eml_file_name(sent_at: datetime, number: int) -> str:
    # UTC and zero-padded, so that sorting the names sorts the messages by time.
    return f"{sent_at:%Y%m%d-%H%M%S-%f}-{number}.eml"


class EmlFileBackend(BaseEmailBackend):
    """Writes EMAIL_FILE_PATH/<timestamp>-<n>.eml for each message."""

    def __init__(self, *, file_path: str | Path | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.directory = Path(file_path or settings.EMAIL_FILE_PATH)

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = 0
        for message in email_messages:
            if not message.recipients():
                continue
            try:
                self.write(message)
            except OSError:
                if not self.fail_silently:
                    raise
            else:
                sent += 1
        return sent

    def write(self, message: EmailMessage) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        content = message.message().as_bytes()
        sent_at = datetime.now(UTC)
        number = 1
        while True:
            path = self.directory / eml_file_name(sent_at, number)
            try:
                # "x": the web server and the worker both write here; never overwrite.
                with path.open("xb") as file:
                    file.write(content)
            except FileExistsError:
                number += 1
            else:
                return path
