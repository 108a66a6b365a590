"""The table as a serious player uses it (issue 16), in a real browser: a private note
written on a card and read back, the last clue's marks, a teammate's empathy grid, and the
page passing axe; screenshots at desktop and phone sizes (test-results/)."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from games.services import play
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.games.conftest import start_game, user_at
from tests.games.helpers import deck

RED_TO_SEAT_1 = {"type": "clue", "target": 1, "colour": "red"}


def _grid_styles(page: Page) -> dict[str, dict]:
    """The computed style of the first identity-grid cell of each state found on the page."""
    styles = page.evaluate(
        """() => ["possible", "counted-out", "impossible"].flatMap((state) => {
            const cell = document.querySelector(`.grid td.${state}`);
            if (!cell) return [];
            const style = getComputedStyle(cell);
            return [{state, size: parseFloat(style.fontSize), line: style.textDecorationLine,
                     italic: style.fontStyle, weight: style.fontWeight,
                     border: style.borderStyle, color: style.color}];
        })"""
    )
    return {style["state"]: style for style in styles}


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

    # What the holder knows of their red 3: red, and a 3 (a click on their hand shows it
    # for every card of it, drawn over the faces: tests/browser/test_empathy_browser.py).
    red_three = page.locator('li.card[data-card-id="6"]')
    red_three.locator(".card-face").click()
    expect(red_three.locator(".empathy-face")).to_be_visible()
    expect(red_three.locator(".empathy-face .pip")).to_have_text(["R", "3"])

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

    # The identity grids are readable (checked below, with the holder's own grids).
    styles = _grid_styles(page)

    # Empathy shown again (the reload forgot it), for the pictures; a grid of the viewer's
    # own card opened too; then check and photograph the page.
    red_three.locator(".card-face").click()
    expect(red_three.locator(".empathy-face")).to_be_visible()
    page.locator("section.hand.mine summary.back-face").first.click()
    expect(page.locator("section.hand.mine .grid-pop").first).to_be_visible()
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

    # The identity grids are readable, on a phone too: 12px at least, an impossible identity
    # dimmed (not struck through, not italic), told apart from a possible one by more than
    # colour. The giver's own grids have R5 counted out (the holder's is in sight), the
    # holder's have identities ruled out by the clues: every state is there.
    styles = {**styles, **_grid_styles(mine)}
    assert set(styles) == {"possible", "counted-out", "impossible"}
    for style in styles.values():
        assert style["size"] >= 12 and style["line"] == "none" and style["italic"] == "normal"
    assert styles["possible"]["border"] == "solid" and styles["counted-out"]["border"] == "dashed"
    assert styles["impossible"]["color"] != styles["possible"]["color"]
    assert int(styles["possible"]["weight"]) > int(styles["impossible"]["weight"])
    assert_accessible(mine, "the holder's table")
