"""The signed links in game emails (accounts/links.py, django-sesame) and the page they
open. They stay until accounts/scoped.py replaces them; logging in from the site is by
allauth's emailed code (test_login_by_code.py)."""

import time
from unittest import mock
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from sesame.utils import get_parameters, get_query_string

from accounts import links


def logged_in_as(client):
    return client.session.get("_auth_user_id")


@pytest.mark.django_db
def test_the_link_logs_in_and_goes_to_next(client, alice):
    response = client.get(links.login_url(alice, "/games/12/"))
    assert response.status_code == 302
    assert response.url == "/games/12/"
    assert logged_in_as(client) == str(alice.pk)


@pytest.mark.django_db
def test_without_next_the_link_goes_home(client, alice):
    response = client.get(links.login_url(alice))
    assert response.url == "/"
    assert logged_in_as(client) == str(alice.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/x", "http:evil"])
def test_an_off_site_next_is_never_put_in_a_link(alice, next_url):
    with pytest.raises(ValueError):
        links.login_url(alice, next_url)


@pytest.mark.django_db
def test_a_suspended_account_cannot_use_a_link(client, alice):
    from datetime import timedelta

    from django.utils import timezone

    alice.suspended_until = timezone.now() + timedelta(days=1)
    alice.save(update_fields=["suspended_until"])
    assert_friendly_page(client.get(links.login_url(alice)), expired=False)
    assert logged_in_as(client) is None


@pytest.mark.django_db
def test_a_genuine_link_with_an_off_site_next_logs_in_but_stays_here(client, alice):
    # Signed by us (say, by a past bug), so it logs in, but it must not lead away.
    scope, max_age, next_url = "login", 3600, "https://evil.example/"
    token = get_parameters(alice, scope=links._signed_scope(scope, max_age, next_url))
    query = urlencode({"scope": scope, "max_age": max_age, "next": next_url, **token})

    response = client.get(f"/accounts/link/?{query}")
    assert response.status_code == 302
    assert response.url == "/"
    assert logged_in_as(client) == str(alice.pk)


@pytest.mark.django_db
def test_a_link_made_by_the_helper_is_absolute_and_scoped(alice):
    url = links.login_url(alice, "/games/5/", max_age_seconds=3 * 24 * 3600, scope="turn")
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}" == "http://127.0.0.1:8000"
    assert parts.path == "/accounts/link/"
    query = parse_qs(parts.query)
    assert query["scope"] == ["turn"]
    assert query["max_age"] == [str(3 * 24 * 3600)]
    assert query["next"] == ["/games/5/"]


@pytest.mark.django_db
def test_the_helper_refuses_lifetimes_beyond_sesames_limit(alice, settings):
    with pytest.raises(ValueError):
        links.login_url(alice, max_age_seconds=settings.SESAME_MAX_AGE + 1)
    with pytest.raises(ValueError):
        links.login_url(alice, scope="Not a scope!")


def assert_friendly_page(response, *, expired: bool) -> str:
    assert response.status_code == 200
    html = response.content.decode()
    heading = "This link has expired" if expired else "This link does not work"
    assert f"<h1>{heading}</h1>" in html
    assert "Email me a login code" in html
    return html


@pytest.mark.django_db
def test_an_expired_link_offers_a_login_code_that_keeps_the_destination(client, alice):
    two_hours_ago = time.time() - 2 * 3600
    with mock.patch("time.time", return_value=two_hours_ago):
        url = links.login_url(alice, "/games/9/")

    html = assert_friendly_page(client.get(url), expired=True)
    assert 'href="/accounts/login/code/?next=/games/9/"' in html
    assert logged_in_as(client) is None


@pytest.mark.django_db
def test_a_link_lives_exactly_as_long_as_it_was_made_for(client, alice):
    with mock.patch("time.time", return_value=time.time() - 3 * 24 * 3600 + 60):
        fresh = links.login_url(alice, "/games/1/", max_age_seconds=3 * 24 * 3600, scope="turn")
    with mock.patch("time.time", return_value=time.time() - 3 * 24 * 3600 - 60):
        stale = links.login_url(alice, "/games/1/", max_age_seconds=3 * 24 * 3600, scope="turn")

    assert_friendly_page(client.get(stale), expired=True)
    assert logged_in_as(client) is None
    assert client.get(fresh).url == "/games/1/"
    assert logged_in_as(client) == str(alice.pk)


def tamper(url: str, **changes: str) -> str:
    parts = urlsplit(url)
    query = {key: values[0] for key, values in parse_qs(parts.query).items()}
    return f"{parts.path}?{urlencode({**query, **changes})}"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "changes",
    [
        {"next": "/games/666/"},  # another destination
        {"max_age": str(7 * 24 * 3600)},  # a longer life
        {"scope": "turn"},  # another kind of link
        {"max_age": "not a number"},
        {"scope": "../../"},
        {"sesame": "garbage"},
    ],
)
def test_a_tampered_link_shows_the_friendly_page_and_does_not_log_in(client, alice, changes):
    url = tamper(links.login_url(alice, "/games/1/"), **changes)
    html = assert_friendly_page(client.get(url), expired=False)
    assert "alice@example.org" not in html  # a broken link reveals no address
    assert logged_in_as(client) is None


@pytest.mark.django_db
def test_a_cut_short_token_shows_the_friendly_page(client, alice):
    url = links.login_url(alice)
    token = parse_qs(urlsplit(url).query)["sesame"][0]
    assert_friendly_page(client.get(tamper(url, sesame=token[:-3])), expired=False)
    assert_friendly_page(client.get("/accounts/link/"), expired=False)
    assert logged_in_as(client) is None


@pytest.mark.django_db
def test_a_token_made_for_another_purpose_does_not_work_here(client, alice):
    # A plain sesame token (the default scope) is not a link of ours.
    query = get_query_string(alice)[1:] + "&scope=login&max_age=3600&next=/"
    assert_friendly_page(client.get(f"/accounts/link/?{query}"), expired=False)
    assert logged_in_as(client) is None


@pytest.mark.django_db
def test_changing_the_password_revokes_links(client, alice):
    url = links.login_url(alice)
    alice.set_password("a-brand-new-password")
    alice.save(update_fields=["password"])
    assert_friendly_page(client.get(url), expired=False)
    assert logged_in_as(client) is None


@pytest.mark.django_db
def test_an_inactive_account_cannot_use_a_link(client, charlie):
    assert_friendly_page(client.get(links.login_url(charlie)), expired=False)
    assert logged_in_as(client) is None


@pytest.mark.django_db
def test_an_expired_link_of_the_person_logged_in_just_goes_there(client, alice):
    with mock.patch("time.time", return_value=time.time() - 2 * 3600):
        url = links.login_url(alice, "/games/9/")
    client.force_login(alice)
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == "/games/9/"


@pytest.mark.django_db
def test_a_link_switches_to_its_owner(client, alice, bob):
    client.force_login(bob)
    client.get(links.login_url(alice))
    assert logged_in_as(client) == str(alice.pk)
