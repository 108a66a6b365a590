"""A person plays a whole game with two bots in the browser."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import assert_accessible, screenshot, sign_up, take_turn


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_person_plays_a_game_with_bots_to_the_end(live_server, page: Page, settings):
    settings.BOT_MOVE_DELAY_SECONDS = 0  # the bots' tasks run at once, inside the test
    base = live_server.url
    sign_up(page, base, "dora@example.org", "Dora")
    page.get_by_role("link", name="New game").click()
    page.get_by_label("Players").select_option("3")
    page.get_by_role("button", name="Create the game").click()
    page.get_by_role("button", name="Seat 2: add a bot").click()
    page.get_by_role("button", name="Seat 3: add a bot").click()
    expect(page.get_by_role("button", name=re.compile(r"remove the bot"))).to_have_count(2)
    screenshot(page, "waiting-room-with-bots")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#table")).to_be_visible()
    screenshot(page, "game-with-bots")
    assert_accessible(page, "game with bots")

    for moves in range(100):
        page.reload()
        if page.locator(".outcome").count():
            break
        expect(page.locator(".status-line")).to_contain_text("It is your turn")
        # Dora plays her cards blind: the bots clue and discard around her.
        shown = page.locator("#table").get_attribute("hx-get")
        take_turn(page, ("play",) if moves >= 2 else ("clue", "discard"))
        # Wait for the answer (the bots have moved by then): the table polls a later turn.
        expect(page.locator("#table, .outcome").first).not_to_have_attribute("hx-get", shown)
    else:
        pytest.fail("the game did not end")

    expect(page.get_by_text(re.compile(r"Final score: \d+ / 25"))).to_be_visible()
    history = page.locator(".history").inner_text()
    assert "Bot" in history
    screenshot(page, "finished-game-with-bots")

    page.goto(base)
    page.get_by_role("link", name="How the bots play").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("How the bots play")
    assert_accessible(page, "how the bots play")
