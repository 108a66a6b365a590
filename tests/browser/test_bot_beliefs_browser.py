"""The house bot's change of belief on the table, in a real browser (issue 27): after Alice's
lone clue misled it, the status line says the bot reads her clues literally, inside the first
screen at 1280 × 800 and 390 × 844, and the history says it at the misplay. Photographed into
test-results/ (27-bot-beliefs-*.png); axe stays clean."""

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import SCREENSHOTS, assert_accessible
from tests.browser.test_first_screen_browser import DESKTOP, PHONE, _page
from tests.conftest import make_user
from tests.games.test_bot_beliefs import OFF, bot_game

LINE = "Bot 2 reads your clues literally (since turn 4)."


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_table_says_the_bot_reads_a_misleading_partner_literally(
    live_server, browser: Browser, size: str
):
    alice = make_user("ali")
    game = bot_game(alice, *OFF)
    viewport = DESKTOP if size == "desktop" else PHONE
    page = _page(browser, live_server.url, alice, viewport)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    line = page.locator(".bot-beliefs")
    expect(line).to_contain_text(LINE)
    box = line.bounding_box()
    assert box and box["y"] + box["height"] <= viewport["height"], box
    expect(line.get_by_role("link", name="Why?")).to_have_attribute("href", "/bots/#adapting")
    remark = page.locator(".history .bot-remark")
    expect(remark).to_have_count(1)
    expect(remark).to_contain_text("Bot 2 reads your clues literally from now on")
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"27-bot-beliefs-{size}.png"))
    remark.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"27-bot-beliefs-history-{size}.png"))
    assert_accessible(page, f"bot beliefs, {size}")

    page.goto(f"{live_server.url}/bots/#adapting")
    expect(page.locator("#adapting")).to_be_in_viewport()
    page.screenshot(path=str(SCREENSHOTS / f"27-bots-page-{size}.png"))
    assert_accessible(page, f"how the bots play, {size}")
    page.context.close()
