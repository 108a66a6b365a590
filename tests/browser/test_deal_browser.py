"""A deal's page in a browser: someone who has not seen the deal reads its tables' results,
the bots' scores and the best score, and starts a table on it; the deal's page is then
closed to them until their game ends."""

import pytest
from playwright.sync_api import Browser, expect

from deals.models import DealBotScore, DealGame
from deals.services import share, start_table
from games.models import Game
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.conftest import make_user
from tests.deals.conftest import finished_game, join_and_start
from tests.games.conftest import play_to_the_end


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_player_reads_a_deals_page_and_starts_a_table_on_it(
    live_server, browser: Browser, alice, bob, carol, mallory
):
    original = finished_game(alice, bob, carol, seed=11)
    deal = share(original)  # its bot tables run at the commit (tasks run in the test)
    again = start_table(deal.pk, make_user("dora"), Game.Visibility.PUBLIC)
    play_to_the_end(join_and_start(again, make_user("eve"), make_user("fay")))
    assert DealBotScore.objects.filter(deal=deal).count() == 2

    page = logged_in_page(browser, live_server.url, mallory)
    page.goto(f"{live_server.url}/deals/{deal.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Deal {deal.pk}")
    results = page.locator("#deal-results")
    expect(results.locator("tbody tr")).to_have_count(2)
    for score in DealBotScore.objects.filter(deal=deal):
        expect(results).to_contain_text(f"{score.score} / 25")
    expect(results).not_to_contain_text("being played")
    # No link to the games (their replays show the deck) for who has not seen the deal.
    expect(results.get_by_role("link")).to_have_count(0)
    screenshot(page, "deal-page-not-seen")
    assert_accessible(page, "the deal's page")

    page.get_by_role("link", name="Start a table on this deal").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Play deal {deal.pk}")
    screenshot(page, "deal-play-confirm")
    assert_accessible(page, "starting a table on a deal")
    page.get_by_role("button", name="Start a table on this deal").click()
    mine = DealGame.objects.get(game__creator=mallory).game
    expect(page).to_have_url(f"{live_server.url}/games/{mine.pk}/")
    expect(page.get_by_text("Your table on this deal is open")).to_be_visible()
    assert mine.deck == deal.deck and mine.options == deal.options

    page.goto(f"{live_server.url}/deals/{deal.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Not while you play this deal")
    expect(page.locator("#deal-results")).to_have_count(0)
    screenshot(page, "deal-page-while-playing")
    assert_accessible(page, "the deal's page refused")

    # The lobby's deal of the week, which mallory has not seen.
    page.goto(f"{live_server.url}/")
    weekly = page.locator("section.weekly-deal")
    expect(weekly).to_contain_text("No table has finished it yet.")
    weekly.get_by_role("link", name="Play the weekly deal").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("the deal of the week")
    page.goto(f"{live_server.url}/")
    screenshot(page, "lobby-weekly-deal")
    assert_accessible(page, "the lobby with the weekly deal")
    page.context.close()
