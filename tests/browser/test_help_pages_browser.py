"""The rules page in German and French, reached from the header's link: in the reader's
language, accessible, nothing wider than a phone's screen (screenshots rules-de, rules-fr)."""

import pytest
from django.conf import settings
from playwright.sync_api import Browser, expect

from tests.browser.conftest import SCREENSHOTS, assert_accessible, screenshot

PAGES = {
    "de": ("Regeln", "Die Regeln von Hanabi", "Bunt (Varianten 1 bis 3)"),
    "fr": ("Règles", "Les règles de Hanabi", "Multicolore (variantes 1 à 3)"),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("translated")
@pytest.mark.parametrize("language", PAGES)
def test_the_rules_in_the_readers_language(live_server, browser: Browser, language):
    link, title, variants = PAGES[language]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("navigation", name={"de": "Hilfe", "fr": "Aide"}[language]).get_by_role(
        "link", name=link
    ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    expect(page.get_by_role("main")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", level=3, name=variants)).to_be_visible()
    assert_accessible(page, f"rules ({language})")
    screenshot(page, f"rules-{language}")

    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page, f"rules ({language}, phone)")
    # The first screen only: the header's links and the start of the text, at a readable size.
    page.screenshot(path=str(SCREENSHOTS / f"rules-{language}-phone.png"))
    context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("translated")
@pytest.mark.parametrize(
    ("language", "path", "title", "name"),
    [
        ("de", "/by-email/", "Per E-Mail spielen", "by-email-de"),
        ("fr", "/bots/", "Comment jouent les bots", "bots-fr"),
    ],
)
def test_the_other_help_pages_in_the_readers_language(
    live_server, browser: Browser, language, path, title, name
):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}{path}")
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    expect(page.get_by_role("main")).to_have_attribute("lang", language)
    assert_accessible(page, name)
    screenshot(page, name)
    context.close()
