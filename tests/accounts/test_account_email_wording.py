"""allauth's emails in the site's own voice (issue 27): the site overrides every email
template allauth has, subjects in sentence case after "Hanabi: ", bodies that name the
site and none of allauth's stock phrases."""

import re
from pathlib import Path

import allauth
import pytest
from django.template.loader import get_template, render_to_string
from django.test import RequestFactory

from accounts.adapter import AccountAdapter
from tests.conftest import make_user

ALLAUTH_EMAILS = Path(allauth.__file__).parent / "templates" / "account" / "email"
PREFIXES = sorted(
    path.name.removesuffix("_subject.txt") for path in ALLAUTH_EMAILS.glob("*_subject.txt")
)
STOCK_PHRASES = ("Hello from", "Thank you for using", "listed below", "You're receiving", "Please")


def test_every_email_of_allauth_is_overridden_by_the_site():
    # An upgrade of allauth that adds an email fails here until the site words it too.
    assert len(PREFIXES) >= 13
    for path in ALLAUTH_EMAILS.glob("*.txt"):
        origin = Path(get_template(f"account/email/{path.name}").origin.name)
        assert "site-packages" not in origin.parts, path.name


@pytest.fixture
def context(db) -> dict:
    """Everything any of the templates may name, as allauth and the adapter pass it."""
    user = make_user("dora")
    return {
        "user": user,
        "email": user.email,
        "site_url": "https://hanabi.example",
        "activate_url": "https://hanabi.example/accounts/confirm-email/KEY/",
        "password_reset_url": "https://hanabi.example/accounts/password/reset/key/KEY/",
        "signup_url": "https://hanabi.example/accounts/signup/",
        "code": "ABCD-1234",
        "from_email": "old@example.org",
        "to_email": "new@example.org",
        "deleted_email": "old@example.org",
        "ip": "192.0.2.1",
        "user_agent": "Firefox",
        "timestamp": "27 Nov 2026, 01:40",
    }


def adapter() -> AccountAdapter:
    return AccountAdapter(RequestFactory().get("/"))


@pytest.mark.parametrize("prefix", PREFIXES)
def test_each_subject_is_sentence_case_after_the_sites_name(prefix, context):
    subject = render_to_string(f"account/email/{prefix}_subject.txt", context)
    subject = adapter().format_email_subject(" ".join(subject.splitlines()).strip())
    assert subject.startswith("Hanabi: ")
    words = re.findall(r"[A-Za-z][\w-]*", subject.removeprefix("Hanabi: "))
    assert words and all(word == word.lower() for word in words), subject


@pytest.mark.parametrize("prefix", PREFIXES)
def test_each_message_names_the_site_in_its_own_words(prefix, context):
    body = render_to_string(f"account/email/{prefix}_message.txt", context)
    assert "Hanabi by post" in body
    assert body.rstrip().endswith("Hanabi by post\nhttps://hanabi.example")
    for phrase in STOCK_PHRASES:
        assert phrase not in body, (prefix, phrase)
    assert "{" not in body and "}" not in body  # no template syntax left over


@pytest.mark.parametrize(
    ("prefix", "needed"),
    [
        ("email_confirmation", "https://hanabi.example/accounts/confirm-email/KEY/"),
        ("login_code", "ABCD-1234"),
        ("password_reset_key", "https://hanabi.example/accounts/password/reset/key/KEY/"),
        ("password_reset_code", "ABCD-1234"),
        ("unknown_account", "https://hanabi.example/accounts/signup/"),
        ("account_already_exists", "https://hanabi.example/accounts/password/reset/key/KEY/"),
        ("email_changed", "old@example.org"),
        ("password_changed", "192.0.2.1"),
    ],
)
def test_each_message_carries_what_it_is_for(prefix, needed, context):
    if prefix == "email_confirmation":
        context = {**context, "code": ""}  # by link, as this site confirms addresses
    assert needed in render_to_string(f"account/email/{prefix}_message.txt", context)
