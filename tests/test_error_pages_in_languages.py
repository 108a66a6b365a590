"""The error pages in the reader's language (issue 29): a missing page (404) is the site's
own, in the person's language with <main lang> right; the 403 and the 500 pages too. Django's
defaults are English only."""

import pytest
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation
from django.views.defaults import permission_denied

pytestmark = pytest.mark.usefixtures("translated")

NOT_FOUND = {"en": "Page not found", "de": "Seite nicht gefunden", "fr": "Page introuvable"}
FAILED = {"en": "Something went wrong", "de": "Etwas ist schiefgegangen", "fr": "Une erreur"}


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(NOT_FOUND))
def test_a_missing_game_is_told_in_the_readers_language(client, alice, language):
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    response = client.get("/games/987654/")
    html = response.content.decode()
    assert response.status_code == 404
    assert f"<h1>{NOT_FOUND[language]}</h1>" in html
    assert f'<main id="main" lang="{language}">' in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_visitors_missing_page_follows_the_browser(client, language):
    response = client.get("/nowhere/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert f"<h1>{NOT_FOUND[language]}</h1>" in response.content.decode()


@pytest.mark.django_db
def test_the_forbidden_page_is_the_sites_in_german(alice):
    request = RequestFactory().get("/")
    request.user = alice
    with translation.override("de"):
        response = permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    assert "<h1>Nicht erlaubt</h1>" in response.content.decode()


@pytest.mark.parametrize("language", sorted(FAILED))
def test_the_server_error_page_needs_no_request_and_speaks_the_language(language):
    with translation.override(language):
        html = render_to_string("500.html")
    assert f'<html lang="{language}">' in html and FAILED[language] in html
