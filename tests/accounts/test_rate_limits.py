"""allauth's rate limits (ACCOUNT_RATE_LIMITS, listed in docs/SECURITY.md): past the count, the
page answers 429 (with the site's page, or the form saying so where allauth checks the limit
in the form), the same for a known or an unknown address."""

import pytest
from django.test import Client

from tests.accounts.conftest import signup_data

LIMITED = "<h1>Too many tries</h1>"


def assert_limited(response) -> None:
    assert response.status_code == 429
    assert LIMITED in response.content.decode()


@pytest.mark.django_db
def test_the_documented_numbers(settings):
    limits = settings.ACCOUNT_RATE_LIMITS
    assert limits["signup"] == "10/h/ip"
    assert limits["request_login_code"] == "20/h/ip,3/15m/key"
    assert limits["reset_password"] == "20/h/ip,3/h/key"
    assert limits["login_failed"] == "10/m/ip,5/5m/key"
    assert limits["confirm_email"] == "1/3m/key"


@pytest.mark.django_db
def test_signing_up_more_than_10_times_an_hour_from_one_address(client):
    for n in range(10):
        response = client.post("/accounts/signup/", signup_data(email=f"p{n}@example.org"))
        assert response.status_code == 302
        client.logout()
    assert_limited(client.post("/accounts/signup/", signup_data(email="p10@example.org")))


@pytest.mark.django_db
@pytest.mark.parametrize("email", ["alice@example.org", "nobody@example.org"])
def test_a_fourth_login_code_for_one_address_within_15_minutes(alice, email):
    # A new session each time, as someone trying codes from several browsers would.
    for _ in range(3):
        assert Client().post("/accounts/login/code/", {"email": email}).status_code == 302
    response = Client().post("/accounts/login/code/", {"email": email})
    assert response.status_code == 429
    assert "Too many failed login attempts" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("email", ["alice@example.org", "nobody@example.org"])
def test_a_fourth_password_reset_for_one_address_within_an_hour(client, alice, email):
    for _ in range(3):
        assert client.post("/accounts/password/reset/", {"email": email}).status_code == 302
    assert_limited(client.post("/accounts/password/reset/", {"email": email}))


@pytest.mark.django_db
def test_after_5_failed_logins_the_right_password_is_refused_too(client, alice):
    for _ in range(5):
        response = client.post(
            "/accounts/login/", {"login": alice.email, "password": "not-the-password"}
        )
        assert response.status_code == 200
    response = client.post(
        "/accounts/login/", {"login": alice.email, "password": "a-long-hanabi-password"}
    )
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert "Too many failed login attempts" in response.content.decode()
