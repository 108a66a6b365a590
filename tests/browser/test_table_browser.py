"""The table as a serious player uses it (issue 16), in a real browser: a private note
written on a card and read back, the last clue's marks, a teammate's empathy grid, and the
page passing axe; screenshots at desktop and phone sizes (test-results/)."""

import re

import pytest
from playwright.sync_api import Browser, expect

from games.services import play
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.games.conftest import start_game, user_at
from tests.games.helpers import deck

RED_TO_SEAT_1 = {"type": "clue", "target": 1, "colour": "red"}


@pytest.mark.django_db(transaction=True)
def test_notes_marks_and_empathy_on_the_table(live_server, browser: Browser, alice, bob):
    game = start_game(alice, bob, deck=deck())
    giver, holder = user_at(game, 0), user_at(game, 1)
    play.submit_action(game.pk, giver, RED_TO_SEAT_1, 0)  # touches seat 1's slots 2, 4, 5
    play.submit_action(game.pk, holder, {"type": "discard", "card_id": 7}, 1)
    play.submit_action(game.pk, giver, {"type": "clue", "target": 1, "rank": 3}, 2)  # slot 4
    page = logged_in_page(browser, live_server.url, giver)
    page.goto(f"{live_server.url}/games/{game.pk}/")

    # The last clue (3s) is marked on the one card it touched, and named in the history.
    marked = page.locator("li.card.last-clued")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-card-id", "6")
    expect(marked.locator(".last-clue-mark")).to_be_visible()
    expect(page.locator(".history li").first).to_contain_text("3s, touching 1 card (slot 4)")

    # What the holder knows of their red 3: red, and a 3.
    red_three = page.locator('li.card[data-card-id="6"]')
    red_three.locator("details.empathy summary").click()
    expect(red_three.locator("details.empathy table.grid")).to_be_visible()
    expect(red_three.locator("details.empathy td.possible")).to_have_text(["R3"])

    # A note, written through its small form (HTMX), is on the card at once.
    red_five = page.locator('li.card[data-card-id="5"]')
    red_five.locator("summary", has_text="Note").click()
    red_five.get_by_label(re.compile(r"^Your note on .* slot 5")).fill("r5 cm save it")
    red_five.get_by_role("button", name="Save").click()
    red_five = page.locator('li.card[data-card-id="5"]')
    expect(red_five.locator(".card-note")).to_contain_text("save it")
    expect(red_five.locator(".note-badge")).to_have_text(["R5", "CM"])
    # It is kept: a fresh load shows it again.
    page.reload()
    expect(page.locator('li.card[data-card-id="5"] .card-note')).to_contain_text("save it")

    # The identity grids are readable: 12px at least, an impossible identity dimmed (not
    # struck through, not italic), told apart from a possible one by more than colour.
    styles = page.evaluate(
        """() => ["possible", "counted-out", "impossible"].map((state) => {
            const cell = document.querySelector(`.grid td.${state}`);
            const style = getComputedStyle(cell);
            return {state, size: parseFloat(style.fontSize), line: style.textDecorationLine,
                    italic: style.fontStyle, weight: style.fontWeight, border: style.borderStyle,
                    color: style.color};
        })"""
    )
    by_state = {style["state"]: style for style in styles}
    for style in styles:
        assert style["size"] >= 12 and style["line"] == "none" and style["italic"] == "normal"
    assert (
        by_state["possible"]["border"] == "solid" and by_state["counted-out"]["border"] == "dashed"
    )
    assert by_state["impossible"]["color"] != by_state["possible"]["color"]
    assert int(by_state["possible"]["weight"]) > int(by_state["impossible"]["weight"])

    # Open the empathy of one card for the pictures, then check and photograph the page.
    page.locator('li.card[data-card-id="6"] details.empathy summary').click()
    screenshot(page, "table-desktop")
    assert_accessible(page, "the table with notes, marks and empathy")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "table-phone")

    # The holder's own view: the backs the clues touched, and their own cards' grids.
    mine = logged_in_page(browser, live_server.url, holder)
    mine.set_viewport_size({"width": 390, "height": 844})
    mine.goto(f"{live_server.url}/games/{game.pk}/")
    expect(mine.locator("li.card.back.last-clued")).to_have_count(1)
    expect(mine.get_by_text("Moves cannot be undone")).to_be_visible()
    expect(mine.get_by_text("save it")).to_have_count(0)  # the other player's note: private
    # Hovering a clue outlines the cards it would touch: Alice's red 2 and red 1 (ids 1, 0).
    red = mine.locator('button[data-clue="target:0 colour:red"]')
    expect(red).to_contain_text("slots 4, 5")
    red.hover()
    outlines = mine.evaluate(
        """() => [...document.querySelectorAll('li.card[data-card-id]')]
            .filter((li) => Number(li.dataset.cardId) < 5)
            .map((li) => [li.dataset.cardId,
                          getComputedStyle(li.querySelector('.card-face')).outlineStyle])"""
    )
    assert sorted(outlines) == [["0", "dashed"], ["1", "dashed"]] + [
        [str(cid), "none"] for cid in (2, 3, 4)
    ]
    screenshot(mine, "table-phone-own-hand")
    assert_accessible(mine, "the holder's table")
