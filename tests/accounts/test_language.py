"""A person's language (issue 29): the profile's once logged in, the browser's before (its
Accept-Language, or the footer's switch), English by default; chosen on the profile and in
the footer, taken from the browser at sign-up; <html lang> says which."""

import re

import pytest

from accounts.models import User

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]


def html_lang(response) -> str:
    (lang,) = re.findall(r'<html lang="([^"]*)">', response.content.decode())
    return lang


def test_without_accept_language_the_site_is_english(client):
    response = client.get("/accounts/login/")
    assert html_lang(response) == "en"
    assert ">Sign up</a>" in response.content.decode()
    assert response["Content-Language"] == "en"
    assert "Accept-Language" in response["Vary"]


@pytest.mark.parametrize(
    "accept, language, sign_up",
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de", ">Registrieren</a>"),
        ("fr-CH, fr;q=0.9, en;q=0.8", "fr", ">S'inscrire</a>"),
        ("es-ES,es;q=0.9", "en", ">Sign up</a>"),
        ("es-ES,es;q=0.9,fr;q=0.5", "fr", ">S'inscrire</a>"),
    ],
)
def test_an_anonymous_visitor_gets_their_browsers_language(client, accept, language, sign_up):
    response = client.get("/accounts/login/", headers={"accept-language": accept})
    assert html_lang(response) == language
    assert sign_up in response.content.decode()


def test_a_logged_in_person_gets_their_profiles_language_whatever_the_browser(client, alice):
    alice.language = "fr"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    response = client.get("/accounts/profile/", headers={"accept-language": "de"})
    assert html_lang(response) == "fr"
    assert ">Se déconnecter</button>" in response.content.decode()


def test_a_page_says_its_content_is_in_the_readers_language_unless_it_overrides(rf):
    """Every page's words are translated, so <main> is in the person's language by
    default; a page written in one language only (the developers' /dev/mail/) overrides
    the block and says so (screen readers read it as that language)."""
    from django.contrib.auth.models import AnonymousUser
    from django.template import engines
    from django.utils import translation

    request = rf.get("/somewhere/")
    request.user = AnonymousUser()
    made = engines["django"].from_string
    translated = made('{% extends "base.html" %}{% block content %}<p>…</p>{% endblock %}')
    english_only = made(
        '{% extends "base.html" %}{% block content_language %}en{% endblock %}'
        "{% block content %}<p>Only English.</p>{% endblock %}"
    )
    with translation.override("de"):
        for page, main in ((translated, "de"), (english_only, "en")):
            html = page.render({}, request)
            assert re.findall(r'<html lang="([^"]*)">', html) == ["de"]
            assert re.findall(r'<main id="main" lang="([^"]*)">', html) == [main]


def test_the_language_is_not_left_active_for_the_next_request(client, alice):
    alice.language = "de"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    assert html_lang(client.get("/accounts/profile/")) == "de"
    client.logout()
    assert html_lang(client.get("/accounts/login/")) == "en"


def test_sign_up_keeps_the_browsers_language(client):
    client.post(
        "/accounts/signup/",
        {
            "email": "dora@example.org",
            "display_name": "Dora",
            "password1": "fireworks-in-five-colours",
            "password2": "fireworks-in-five-colours",
        },
        headers={"accept-language": "de-AT,de;q=0.9"},
    )
    assert User.objects.get(email="dora@example.org").language == "de"


def test_sign_up_without_a_language_of_the_site_is_english(client):
    client.post(
        "/accounts/signup/",
        {
            "email": "erin@example.org",
            "display_name": "Erin",
            "password1": "fireworks-in-five-colours",
            "password2": "fireworks-in-five-colours",
        },
        headers={"accept-language": "it"},
    )
    assert User.objects.get(email="erin@example.org").language == "en"


def test_the_profile_offers_and_saves_the_language(client, alice):
    client.force_login(alice)
    html = client.get("/accounts/profile/").content.decode()
    for code in ("en", "de", "fr"):
        assert f'name="language" value="{code}"' in html or f'<option value="{code}"' in html
    response = client.post(
        "/accounts/profile/",
        {"display_name": "Alice", "notify": "every_turn", "time_zone": "UTC", "language": "de"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.language == "de"
    assert html_lang(client.get("/accounts/profile/")) == "de"


def test_the_footer_switch_sets_an_anonymous_visitors_language_in_a_cookie(client):
    page = client.get("/accounts/login/").content.decode()
    assert 'action="/accounts/language/"' in page
    response = client.post("/accounts/language/", {"language": "fr", "next": "/accounts/login/"})
    assert response.status_code == 302
    assert response.url == "/accounts/login/"
    assert html_lang(client.get("/accounts/login/", headers={"accept-language": "de"})) == "fr"


def test_the_footer_switch_saves_a_logged_in_persons_language(client, alice):
    client.force_login(alice)
    client.post("/accounts/language/", {"language": "de", "next": "/accounts/profile/"})
    alice.refresh_from_db()
    assert alice.language == "de"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x"])
def test_the_footer_switch_never_sends_elsewhere(client, target):
    response = client.post("/accounts/language/", {"language": "de", "next": target})
    assert response.url == "/"


def test_an_unknown_language_is_english(client, alice):
    client.force_login(alice)
    client.post("/accounts/language/", {"language": "xx"})
    alice.refresh_from_db()
    assert alice.language == "en"


def test_the_switch_takes_only_a_post(client):
    assert client.get("/accounts/language/?language=de").status_code == 405
