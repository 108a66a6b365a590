"""Personas, as in healthchecks' hc/test.py: alice and bob have accounts, charlie's is
switched off. Helpers to read the emails the tests send."""

import re

import pytest
from django.core.mail import EmailMessage

from accounts.models import User

PASSWORD = "a-long-hanabi-password"


@pytest.fixture
def alice(db) -> User:
    return User.objects.create_user("alice@example.org", PASSWORD, display_name="Alice")


@pytest.fixture
def bob(db) -> User:
    return User.objects.create_user("bob@example.org", PASSWORD, display_name="Bob")


@pytest.fixture
def charlie(db) -> User:
    return User.objects.create_user(
        "charlie@example.org", PASSWORD, display_name="Charlie", is_active=False
    )


def html_body(message: EmailMessage) -> str:
    (html, mimetype) = message.alternatives[0]
    assert mimetype == "text/html"
    return html


def assert_email_contains(message: EmailMessage, text: str) -> None:
    """Both the plain text and the HTML body say `text`."""
    assert text in message.body, f"{text!r} not in the text body"
    assert text in html_body(message), f"{text!r} not in the HTML body"


def link_in(message: EmailMessage) -> str:
    """The one link the text body carries; the HTML body must carry the same."""
    (url,) = re.findall(r"https?://\S+", message.body)
    assert f'href="{url.replace("&", "&amp;")}"' in html_body(message)
    return url


def without_csrf_tokens(content: bytes) -> str:
    """A page's HTML with the (per-response, random) CSRF tokens blanked out."""
    text = content.decode()
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", text)
