"""Helpers for the account pages. The personas are in tests/conftest.py, the email
assertions in tests/mail.py."""

import re


def without_csrf_tokens(content: bytes) -> str:
    """A page's HTML with the (per-response, random) CSRF tokens blanked out."""
    text = content.decode()
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", text)
