"""Assertions on the emails the tests send, for every folder (as healthchecks' hc/test.py)."""

import re

import pytest
from django.core.mail import EmailMessage
from django.utils import timezone

from outbox import delivery
from outbox.models import Outbox


def html_body(message: EmailMessage) -> str:
    (html, mimetype) = message.alternatives[0]
    assert mimetype == "text/html"
    return html


def assert_email_contains(message: EmailMessage, text: str) -> None:
    """Both the plain text and the HTML body say `text`."""
    assert text in message.body, f"{text!r} not in the text body"
    assert text in html_body(message), f"{text!r} not in the HTML body"


def assert_email_lacks(message: EmailMessage, text: str) -> None:
    """Neither body says `text` (a hidden card, say), nor the subject."""
    assert text not in message.subject, f"{text!r} in the subject"
    assert text not in message.body, f"{text!r} in the text body"
    assert text not in html_body(message), f"{text!r} in the HTML body"


def link_in(message: EmailMessage) -> str:
    """The one link the text body carries; the HTML body must carry the same."""
    (url,) = re.findall(r"https?://\S+", message.body)
    assert f'href="{url.replace("&", "&amp;")}"' in html_body(message)
    return url


@pytest.fixture
def send_at_once(settings) -> None:
    """A turn email (and an answer to a reply) due at once, not NOTIFY_DELAY_SECONDS after
    the move: for the modules that read what is sent without waiting (with
    `pytestmark = pytest.mark.usefixtures("send_at_once")`; their folders' conftest.py
    makes the fixture known there)."""
    settings.NOTIFY_DELAY_SECONDS = 0


def run_due(kind: str) -> int:
    """Run every due outbox row of one kind, as a worker would; how many did their work."""
    rows = Outbox.objects.filter(kind=kind, done_at=None, due_at__lte=timezone.now())
    return sum(delivery.run(pk) for pk in rows.values_list("pk", flat=True))
