"""More translated pages in a browser (issue 29): a German player's deal page and a French
invitee's rematch page read in their language, with <main lang> saying so, and pass the
accessibility check (lang attributes included)."""

import pytest
from playwright.sync_api import Browser, expect

from deals.services import share
from rematches import services as rematches
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.deals.conftest import finished_game
from tests.games.conftest import play_to_the_end, start_game


def speaking(user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    return user


@pytest.mark.django_db(transaction=True)
def test_a_german_player_reads_a_deals_page_in_german(
    live_server, browser: Browser, alice, bob, mallory
):
    deal = share(finished_game(alice, bob))
    page = logged_in_page(browser, live_server.url, speaking(mallory, "de"))
    page.goto(f"{live_server.url}/deals/{deal.pk}/")
    expect(page.locator("main")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Verteilung {deal.pk}")
    expect(
        page.get_by_role("link", name="Einen Tisch mit dieser Verteilung eröffnen")
    ).to_be_visible()
    expect(page.get_by_role("heading", name="Ergebnisse mit dieser Verteilung")).to_be_visible()
    expect(page.locator("#deal-results")).to_contain_text("Haus-Bot")
    screenshot(page, "deal-de")
    assert_accessible(page, "the German deal page")


@pytest.mark.django_db(transaction=True)
def test_a_french_invitee_reads_a_rematch_in_french(
    live_server, browser: Browser, alice, bob, carol
):
    finished = play_to_the_end(start_game(alice, bob, carol))
    rematch, _ = rematches.propose(finished.pk, alice)
    page = logged_in_page(browser, live_server.url, speaking(bob, "fr"))
    page.goto(f"{live_server.url}/rematches/{rematch.pk}/")
    expect(page.locator("main")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Revanche de la partie {finished.pk}"
    )
    expect(page.locator(".rematch-answers")).to_contain_text("Carol : n'a pas encore répondu")
    page.get_by_role("button", name="Accepter").click()
    expect(page.locator("main")).to_contain_text("Tu as une place à la nouvelle table.")
    expect(page.locator(".rematch-answers")).to_contain_text("Bob : a accepté")
    screenshot(page, "rematch-fr")
    assert_accessible(page, "the French rematch page")
