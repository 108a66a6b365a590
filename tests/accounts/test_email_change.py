"""Changing the email address (allauth, ACCOUNT_CHANGE_EMAIL): it asks for the password
again, the new address is verified before it replaces the old one, and the old address is
told."""

import pytest
from allauth.account.models import EmailAddress

from accounts.game_email import may_receive_game_email
from accounts.models import User
from tests.accounts.conftest import send_account_emails, url_in
from tests.conftest import PASSWORD

URL = "/accounts/email/"
NEW = "alice.new@example.org"


def change_to(client, email: str):
    return client.post(URL, {"email": email, "action_add": ""})


@pytest.mark.django_db
def test_the_profile_links_to_the_email_and_password_pages(client, alice):
    client.force_login(alice)
    html = client.get("/accounts/profile/").content.decode()
    assert 'href="/accounts/email/"' in html
    assert 'href="/accounts/password/change/"' in html


@pytest.mark.django_db
def test_changing_the_address_needs_the_password_again(client, alice):
    client.force_login(alice)  # a session with no recent log-in
    response = change_to(client, NEW)
    assert response.status_code == 302
    assert response.url.startswith("/accounts/reauthenticate/")
    assert not EmailAddress.objects.filter(email=NEW).exists()

    response = client.post(response.url, {"password": "wrong-password"})
    assert response.status_code == 200
    assert not EmailAddress.objects.filter(email=NEW).exists()


@pytest.mark.django_db
def test_the_new_address_is_verified_then_replaces_the_old_which_is_told(client, alice):
    client.force_login(alice)
    reauthenticate = change_to(client, NEW).url
    # Once the password is given, the change asked for goes ahead.
    response = client.post(reauthenticate, {"password": PASSWORD})
    assert response.status_code == 302
    assert EmailAddress.objects.filter(user=alice, email=NEW, verified=False).exists()

    # Until verified, the old address stays the login and gets the game emails.
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    assert may_receive_game_email(alice)

    (verification,) = send_account_emails()
    assert verification.to == [NEW]
    path = url_in(verification).removeprefix("http://127.0.0.1:8000")
    client.post(path)

    alice.refresh_from_db()
    assert alice.email == NEW
    assert may_receive_game_email(alice)
    assert not EmailAddress.objects.filter(email="alice@example.org").exists()
    (notice,) = send_account_emails()[1:]
    assert notice.to == ["alice@example.org"]
    assert NEW in notice.body


@pytest.mark.django_db
def test_an_address_taken_by_another_account_is_not_taken_over(client, alice, bob):
    client.force_login(alice)
    client.post(change_to(client, bob.email).url, {"password": PASSWORD})
    change_to(client, bob.email)
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    assert User.objects.get(pk=bob.pk).email == "bob@example.org"


@pytest.mark.django_db
def test_changing_the_password_needs_the_old_one_and_tells_the_account(client, alice):
    client.force_login(alice)
    new = "another-long-hanabi-password"
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": "wrong", "password1": new, "password2": new},
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)

    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": new, "password2": new},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(new)
    assert client.get("/accounts/profile/").status_code == 200  # still logged in
    (notice,) = send_account_emails()
    assert notice.to == ["alice@example.org"]
    assert notice.subject == "Hanabi: your password was changed"
