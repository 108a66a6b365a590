"""Email through Django's SMTP backend to a real SMTP server (the `smtp_server` fixture),
configured as production configures it from EMAIL_URL."""

import re
import smtplib
from email.message import EmailMessage

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from accounts.unsubscribe import unsubscribe_url, user_for_token
from lib.emails import send_email
from tests.notifications.conftest import (
    PERMANENT_FAILURE,
    TEMPORARY_FAILURE,
    LocalSMTPServer,
    free_port,
)

pytestmark = pytest.mark.django_db

LOGIN_URL = "http://127.0.0.1:8000/accounts/link/?sesame=abc&next=%2Fgames%2F7%2F"


def send_a_game_email(user: User) -> None:
    """An email with the headers every game email carries (games.emails)."""
    headers = {
        "List-Unsubscribe": f"<{unsubscribe_url(user)}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    context = {"user": user, "url": LOGIN_URL, "valid_minutes": 15}
    send_email("accounts/login_link", user.email, context, headers=headers)


def unsubscribe_link(message: EmailMessage) -> str:
    # The URL is too long for one line, so the header is folded onto the next: a reader
    # unfolds it and ignores the white space the fold leaves before the "<".
    (url,) = re.fullmatch(r"\s*<(https?://[^>]+)>", message["List-Unsubscribe"]).groups()
    assert url.startswith(settings.SITE_URL + "/accounts/unsubscribe/")
    return url


def unsubscribe_token(message: EmailMessage) -> str:
    return unsubscribe_link(message).rstrip("/").rsplit("/", 1)[-1]


def test_django_is_configured_like_an_smtp_email_url(smtp_server: LocalSMTPServer):
    assert settings.EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend"
    assert ("127.0.0.1", smtp_server.port) == (settings.EMAIL_HOST, settings.EMAIL_PORT)


def test_a_message_arrives_with_both_bodies_and_the_unsubscribe_headers(
    smtp_server: LocalSMTPServer, alice
):
    send_a_game_email(alice)

    (received,) = smtp_server.received
    assert received.mail_from == "hanabi@localhost"
    assert received.rcpt_tos == ["alice@example.org"]
    message = received.message
    assert message["To"] == "alice@example.org"
    assert message["Subject"] == "Your login link for Hanabi by post"
    text = message.get_body(preferencelist=("plain",)).get_content()
    html = message.get_body(preferencelist=("html",)).get_content()
    assert LOGIN_URL in text
    assert f'href="{LOGIN_URL.replace("&", "&amp;")}"' in html
    assert user_for_token(unsubscribe_token(message)) == alice
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_unsubscribe_header_works_as_a_mail_provider_uses_it(
    smtp_server: LocalSMTPServer, alice
):
    send_a_game_email(alice)
    (message,) = smtp_server.messages

    url = unsubscribe_link(message)
    body = message["List-Unsubscribe-Post"]
    response = Client(enforce_csrf_checks=True).post(
        url.removeprefix(settings.SITE_URL), body, "application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.notify == User.Notify.NONE


@pytest.mark.parametrize("reply", [TEMPORARY_FAILURE, PERMANENT_FAILURE])
def test_a_refused_message_raises_and_the_next_one_arrives(
    smtp_server: LocalSMTPServer, alice, reply
):
    smtp_server.refuse(reply)
    # send_email raises, so the outbox row stays unsent and is retried.
    with pytest.raises(smtplib.SMTPDataError) as refused:
        send_a_game_email(alice)
    assert refused.value.smtp_code == int(reply[:3])
    assert smtp_server.messages == []

    smtp_server.accept()
    send_a_game_email(alice)
    (message,) = smtp_server.messages
    assert message["To"] == "alice@example.org"


def test_a_server_that_is_down_makes_send_email_raise(
    smtp_server: LocalSMTPServer, settings, alice
):
    settings.EMAIL_PORT = free_port()  # nothing listens there
    with pytest.raises(ConnectionRefusedError):
        send_a_game_email(alice)
