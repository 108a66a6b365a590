"""Empathy as on hanab.live (issue 27), in a real browser: a click on a teammate's hand
shows what its holder knows of every card in it, drawn over the cards in the same boxes
(nothing on the table moves); a click again hides it. The k key does the same for every
teammate's hand. Screen readers keep each card's sentence; axe stays clean either way. The
viewer's own card backs open their whole grid on demand, over the table too."""

import pytest
from playwright.sync_api import Browser, Page, expect

from games.services import play
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.games.conftest import start_game, user_at
from tests.games.helpers import deck

# Two players: seat 0 holds R1 R2 Y1 G1 B1 (ids 0-4), seat 1 R5 R3 B2 R4 W1 (ids 5-9).
RED_TO_SEAT_1 = {"type": "clue", "target": 1, "colour": "red"}


def _boxes(page: Page) -> list[dict]:
    """Where everything on the table is: the hands, their cards, the clue buttons."""
    return [
        page.locator(selector).nth(index).bounding_box()
        for selector in ("section.hand", "section.hand li.card", "button.clue", ".history")
        for index in range(page.locator(selector).count())
    ]


def _suit_pips(card) -> list[str]:
    return card.locator(".empathy-face .suit-pips .pip").all_inner_texts()


def _rank_pips(card) -> list[str]:
    return card.locator(".empathy-face .rank-pips .pip").all_inner_texts()


@pytest.mark.django_db(transaction=True)
def test_a_click_or_k_shows_what_a_teammate_knows_of_every_card(
    live_server, browser: Browser, alice, bob
):
    game = start_game(alice, bob, deck=deck())
    giver, holder = user_at(game, 0), user_at(game, 1)
    play.submit_action(game.pk, giver, RED_TO_SEAT_1, 0)  # touches seat 1's R5, R3, R4
    play.submit_action(game.pk, holder, {"type": "clue", "target": 0, "rank": 1}, 1)
    page = logged_in_page(browser, live_server.url, giver)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/games/{game.pk}/")

    mate = page.locator("section.hand:not(.mine)")
    cards = mate.locator("li.card")
    expect(cards).to_have_count(5)
    toggle = mate.get_by_role("button", name=f"What {game.seat_names()[1]} knows")
    expect(mate.locator(".empathy-face")).to_have_count(5)
    for index in range(5):
        expect(cards.nth(index).locator(".empathy-face")).to_be_hidden()
        expect(cards.nth(index).locator(".card-face")).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    before = _boxes(page)

    # A click on the hand (on a card's face): every card shows its holder's knowledge.
    cards.nth(2).locator(".card-face").click()
    for index in range(5):
        expect(cards.nth(index).locator(".empathy-face")).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    by_id = {cards.nth(i).get_attribute("data-card-id"): cards.nth(i) for i in range(5)}
    for red in ("5", "6", "8"):  # clued red: red, any rank
        assert _suit_pips(by_id[red]) == ["R"] and _rank_pips(by_id[red]) == list("12345")
    for other in ("7", "9"):  # missed by red: any other suit
        assert _suit_pips(by_id[other]) == ["Y", "G", "B", "W"]
    # Drawn over the cards in their own boxes: nothing on the table moved.
    assert _boxes(page) == before
    empathy = cards.nth(0).locator(".empathy-face").bounding_box()
    face = cards.nth(0).locator(".card-face").bounding_box()
    assert empathy == face
    screenshot(page, "27-empathy-desktop")
    assert_accessible(page, "the table with a teammate's empathy shown")
    # Each card's sentence for screen readers is there, shown or not.
    expect(mate.locator(".visually-hidden", has_text="knows it could be")).to_have_count(5)

    # A click again: the faces.
    cards.nth(4).click()
    for index in range(5):
        expect(cards.nth(index).locator(".empathy-face")).to_be_hidden()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert _boxes(page) == before

    # The key: k shows it, k again hides it; and its button by the keyboard too.
    page.locator("body").click(position={"x": 5, "y": 700})
    page.keyboard.press("k")
    for index in range(5):
        expect(cards.nth(index).locator(".empathy-face")).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert _boxes(page) == before
    page.keyboard.press("k")
    expect(cards.nth(0).locator(".empathy-face")).to_be_hidden()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.focus()
    page.keyboard.press("Enter")
    expect(cards.nth(3).locator(".empathy-face")).to_be_visible()

    # The keys' list names it.
    page.keyboard.press("?")
    expect(page.locator("#keys-help")).to_contain_text("What each teammate knows")
    page.keyboard.press("Escape")

    # It stays shown when the table is replaced (the poll, after a move).
    play.submit_action(game.pk, giver, {"type": "clue", "target": 1, "rank": 3}, 2)
    page.locator("#table").dispatch_event("poll-now")
    expect(page.locator(".last-action")).to_contain_text("3s", timeout=10_000)
    expect(page.locator("section.hand:not(.mine) li.card .empathy-face").first).to_be_visible()

    # The whole grid of one of the viewer's own cards, on demand: by the keyboard (its back is
    # a button), over the table (nothing moves); one at a time; Escape closes it.
    backs = page.locator("section.hand.mine summary.back-face")
    grids = page.locator("section.hand.mine .grid-pop")
    before = _boxes(page)
    backs.nth(1).focus()
    page.keyboard.press("Enter")
    expect(grids.nth(1)).to_be_visible()
    expect(grids.nth(1).locator("td")).to_have_count(25)
    assert _boxes(page) == before
    backs.nth(3).click()
    expect(grids.nth(3)).to_be_visible()
    expect(grids.nth(1)).to_be_hidden()
    page.keyboard.press("Escape")
    expect(grids.nth(3)).to_be_hidden()

    # A phone: the same boxes, the same click.
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    mate = page.locator("section.hand:not(.mine)")
    before = _boxes(page)
    mate.locator(".card-face").first.click()
    expect(mate.locator(".empathy-face").first).to_be_visible()
    assert _boxes(page) == before
    screenshot(page, "27-empathy-phone")
    assert_accessible(page, "a phone's table with a teammate's empathy shown")
