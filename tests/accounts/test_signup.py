"""Sign-up (allauth): the address is verified by an emailed link, sent through the
outbox, before the account can log in or receive a game email."""

import pytest
from allauth.account.models import EmailAddress

from accounts.game_email import may_receive_game_email
from accounts.models import User
from outbox.models import Outbox
from tests.accounts.conftest import send_account_emails, signup_data, url_in, without_csrf_tokens

URL = "/accounts/signup/"


@pytest.mark.django_db
def test_the_form_has_a_label_for_every_field(client):
    html = client.get(URL).content.decode()
    for field in ("email", "display_name", "password1", "password2"):
        assert f'<label for="id_{field}"' in html
    assert "<script>" not in html and " onclick=" not in html


@pytest.mark.django_db
def test_signing_up_sends_a_verification_email_through_the_outbox(client):
    response = client.post(URL, signup_data())
    assert response.status_code == 302
    assert response.url == "/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session  # not logged in before verifying

    user = User.objects.get(email="dora@example.org")
    assert user.display_name == "Dora"
    assert user.check_password("fireworks-in-five-colours")
    assert not may_receive_game_email(user)

    (row,) = Outbox.objects.filter(kind="account_email")
    assert row.payload["to"] == "dora@example.org"
    (message,) = send_account_emails()
    assert message.to == ["dora@example.org"]
    assert message.subject == "Hanabi: confirm your email address"
    row.refresh_from_db()
    assert row.done_at is not None
    assert "to" not in row.payload  # the key it carried is gone


@pytest.mark.django_db
def test_following_the_link_verifies_and_logs_in(client):
    client.post(URL + "?next=/games/7/", signup_data())
    (message,) = send_account_emails()
    url = url_in(message)
    assert url.startswith("http://127.0.0.1:8000/accounts/confirm-email/")
    path = url.removeprefix("http://127.0.0.1:8000")

    # Opening the link changes nothing (mail scanners open links); the button confirms.
    page = client.get(path)
    assert "dora@example.org" in page.content.decode()
    user = User.objects.get(email="dora@example.org")
    assert not may_receive_game_email(user)

    response = client.post(path)
    assert response.status_code == 302
    assert may_receive_game_email(user)
    assert client.session["_auth_user_id"] == str(user.pk)


@pytest.mark.django_db
def test_an_unverified_account_cannot_log_in_with_its_password(client):
    client.post(URL, signup_data())
    client.logout()
    response = client.post(
        "/accounts/login/", {"login": "dora@example.org", "password": "fireworks-in-five-colours"}
    )
    assert response.status_code == 302
    assert response.url == "/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_taken_address_gets_the_same_page_and_an_email_to_its_owner(client, alice):
    """No enumeration: the page says the same as for a new address; the owner is told."""
    pages = []
    for email in ("Alice@Example.org", "nobody@example.org"):
        response = client.post(URL, signup_data(email=email), follow=True)
        assert response.status_code == 200
        page = without_csrf_tokens(response.content)
        pages.append(page.replace(email.lower(), "EMAIL").replace(email, "EMAIL"))
        client.logout()
    assert pages[0] == pages[1]
    assert User.objects.filter(email__iexact="alice@example.org").count() == 1

    sent = send_account_emails()
    assert sorted(m.to[0] for m in sent) == ["alice@example.org", "nobody@example.org"]
    (to_alice,) = [m for m in sent if m.to == ["alice@example.org"]]
    assert "already" in to_alice.subject.lower()


@pytest.mark.django_db
def test_passwords_must_match_and_pass_the_validators(client):
    response = client.post(URL, signup_data(password1="short", password2="short"))
    assert response.status_code == 200
    assert "too short" in response.content.decode()
    response = client.post(URL, signup_data(password2="different"))
    assert "You must type the same password each time." in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
def test_a_display_name_is_required(client):
    response = client.post(URL, signup_data(display_name=""))
    assert response.status_code == 200
    assert not User.objects.exists()


@pytest.mark.django_db
def test_the_personas_and_migrated_accounts_are_verified(alice):
    assert may_receive_game_email(alice)
    assert EmailAddress.objects.get(user=alice).verified


@pytest.mark.django_db
def test_the_database_refuses_two_addresses_that_differ_only_in_case(alice):
    from django.db import IntegrityError

    with pytest.raises(IntegrityError):
        User.objects.create_user("ALICE@example.org", "x")


@pytest.mark.django_db
def test_the_verification_link_expires_after_three_days(client, settings, monkeypatch):
    import time

    assert settings.ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS == 3  # as docs/SECURITY.md says
    client.post(URL, signup_data())
    (message,) = send_account_emails()
    path = url_in(message).removeprefix("http://127.0.0.1:8000")
    later = time.time() + 3 * 24 * 3600 + 60
    monkeypatch.setattr("django.core.signing.time.time", lambda: later)
    client.post(path)
    assert not may_receive_game_email(User.objects.get(email="dora@example.org"))
