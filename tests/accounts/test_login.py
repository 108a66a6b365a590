"""Logging in with the email address and password (allauth), and what the pages offer."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user
from django.utils import timezone

from tests.conftest import PASSWORD

URL = "/accounts/login/"


def log_in(client, email: str, password: str = PASSWORD):
    return client.post(URL, {"login": email, "password": password})


@pytest.mark.django_db
def test_the_login_page_offers_the_other_ways_in(client):
    html = client.get(URL).content.decode()
    assert '<label for="id_login"' in html
    assert 'href="/accounts/login/code/"' in html
    assert 'href="/accounts/password/reset/"' in html
    assert 'href="/accounts/signup/"' in html
    assert "<script>" not in html


@pytest.mark.django_db
def test_the_old_login_address_leads_to_the_new_page(client):
    response = client.get("/login/?next=/games/3/")
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/games/3/"


@pytest.mark.django_db
def test_login_accepts_the_email_in_any_case_and_goes_to_next(client, alice):
    response = client.post(
        URL + "?next=/games/7/", {"login": "ALICE@example.org", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response.url == "/games/7/"
    assert client.session["_auth_user_id"] == str(alice.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/"])
def test_an_off_site_next_is_ignored(client, alice, next_url):
    response = client.post(URL, {"login": alice.email, "password": PASSWORD, "next": next_url})
    assert response.status_code == 302
    assert response.url == "/"


@pytest.mark.django_db
def test_a_wrong_password_is_refused(client, alice):
    response = log_in(client, alice.email, "not-the-password")
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_suspended_user_cannot_log_in_and_is_logged_out(client, alice):
    client.force_login(alice)
    alice.suspended_until = timezone.now() + timedelta(days=2)
    alice.save(update_fields=["suspended_until"])
    # The session is refused at once ...
    assert client.get("/accounts/profile/").status_code == 302
    # ... and so is a new log-in.
    response = log_in(client, alice.email)
    assert response.url == "/accounts/inactive/"
    assert "suspended" in client.get(response.url).content.decode()
    assert not get_user(client).is_authenticated


@pytest.mark.django_db
def test_an_inactive_user_cannot_log_in(client, charlie):
    log_in(client, charlie.email)
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_nav_offers_sign_up_or_the_profile(client, alice):
    html = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in html
    assert 'href="/accounts/signup/"' in html
    client.force_login(alice)
    html = client.get("/").content.decode()
    assert '<a class="who" href="/accounts/profile/">Alice</a>' in html
    assert 'action="/accounts/logout/"' in html


@pytest.mark.django_db
def test_logging_out_is_a_post(client, alice):
    client.force_login(alice)
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session
