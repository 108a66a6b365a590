"""allauth's emails go through the outbox: the request writes a row, a worker sends it and
then blanks what it carried (a code or a key); a failed send keeps it for the retry."""

from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.management import call_command

from accounts.game_email import may_receive_game_email
from accounts.models import User
from outbox.delivery import run
from outbox.models import Outbox
from tests.accounts.conftest import code_in


@pytest.mark.django_db
def test_a_failed_send_keeps_the_message_for_the_retry(client, alice):
    client.post("/accounts/login/code/", {"email": alice.email})
    (row,) = Outbox.objects.filter(kind="account_email")
    with mock.patch(
        "django.core.mail.EmailMultiAlternatives.send", side_effect=OSError("SMTP down")
    ):
        assert not run(row.pk)
    row.refresh_from_db()
    assert row.done_at is None
    assert row.payload["to"] == "alice@example.org"

    Outbox.objects.filter(pk=row.pk).update(due_at=row.created_at)
    assert run(row.pk)
    (message,) = mail.outbox
    assert code_in(message)
    row.refresh_from_db()
    assert row.payload == {"template": "account/email/login_code"}


@pytest.mark.django_db
def test_the_emails_name_the_site_and_link_to_site_url(client, settings):
    settings.SITE_URL = "https://hanabi.example"
    client.post(
        "/accounts/signup/",
        {
            "email": "dora@example.org",
            "display_name": "Dora",
            "password1": "fireworks-in-five-colours",
            "password2": "fireworks-in-five-colours",
        },
    )
    (row,) = Outbox.objects.all()
    run(row.pk)
    (message,) = mail.outbox
    assert message.body.rstrip().endswith("Hanabi by post\nhttps://hanabi.example")
    assert "https://hanabi.example/accounts/confirm-email/" in message.body
    assert "Dora gave this address for an account on Hanabi by post." in message.body


@pytest.mark.django_db
def test_an_unverified_persona_may_not_receive_game_email(db):
    from tests.conftest import make_user

    dora = make_user("dora", verified=False)
    assert not may_receive_game_email(dora)


@pytest.mark.django_db
def test_the_demo_user_is_verified(db):
    call_command("ensure_demo_user", "demo@example.com", "hanabi-demo")
    call_command("ensure_demo_user", "demo@example.com", "hanabi-demo")  # twice is fine
    demo = User.objects.get(email="demo@example.com")
    assert may_receive_game_email(demo)
    assert EmailAddress.objects.filter(user=demo).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["login_link", "password_reset"])
def test_rows_of_the_retired_kinds_send_nothing_and_say_why(alice, kind):
    """Kinds written before allauth, whose pages are gone: a row left in a database fails
    clearly (the person asks again on the new pages)."""
    from django.utils import timezone

    row = Outbox.objects.create(kind=kind, payload={"user": alice.pk}, due_at=timezone.now())
    assert not run(row.pk)
    assert mail.outbox == []
    row.refresh_from_db()
    assert f"no handler is registered for outbox rows of kind '{kind}'" in row.last_error
