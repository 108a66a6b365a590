"""Helpers for the account pages. The personas are in tests/conftest.py, the email
assertions in tests/mail.py."""

import re

from django.core import mail

from outbox.delivery import run
from outbox.models import Outbox


def without_csrf_tokens(content: bytes) -> str:
    """A page's HTML with the (per-response, random) CSRF tokens blanked out."""
    text = content.decode()
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", text)


def send_account_emails() -> list[mail.EmailMessage]:
    """Carry out the outbox rows the requests wrote (a worker's job, after commit), and
    return the emails sent."""
    for row_id in Outbox.objects.filter(done_at=None).values_list("pk", flat=True):
        assert run(row_id)
    return mail.outbox


def url_in(message: mail.EmailMessage) -> str:
    (url,) = re.findall(r"https?://\S+/", message.body)
    return url


def code_in(message: mail.EmailMessage) -> str:
    (code,) = re.findall(r"^([A-Z0-9]{4}-[A-Z0-9]{4})$", message.body, re.MULTILINE)
    return code


def signup_data(**overrides: str) -> dict[str, str]:
    """A sign-up form that is accepted, with these fields changed."""
    data = {
        "email": "dora@example.org",
        "display_name": "Dora",
        "password1": "fireworks-in-five-colours",
        "password2": "fireworks-in-five-colours",
    }
    return {**data, **overrides}
