"""Issue 27: a player rearranges their hand in a 3-player game with the option on. The form
under their hand ("Move slot [5] to slot [1] [Move]") moves the card at once (HTMX), the
history says so, and another player's open page shows the new order and the line without a
reload; without JavaScript the same form works as a plain post. Screenshots at 1280×800
and 390×844."""

import re

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from games.models import Game
from tests.browser.conftest import assert_accessible, screenshot
from tests.games.conftest import make_user, start_game

MOVER = 1  # not the first to move: a rearrangement is made on anyone's turn


def page_as(browser: Browser, base: str, user, width: int, height: int, js: bool = True) -> Page:
    client = Client()
    client.force_login(user)
    context = browser.new_context(
        viewport={"width": width, "height": height}, java_script_enabled=js
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return context.new_page()


def hand_ids(page: Page, section: str) -> list[int]:
    """The card ids of a hand section, in the order the page shows them."""
    cards = page.locator(f"{section} li.card")
    return [int(cards.nth(i).get_attribute("data-card-id")) for i in range(cards.count())]


@pytest.mark.django_db(transaction=True)
def test_a_player_rearranges_their_hand_and_everyone_sees_it(live_server, browser: Browser):
    users = [make_user(name) for name in ("ann", "ben", "cid")]
    game = start_game(*users, rearrange=True)
    mover = game.seats.get(position=MOVER)
    other = game.seats.get(position=0)
    hand = list(game.load_state().hand(MOVER))
    base = live_server.url

    watcher = page_as(browser, base, other.user, 1280, 800)
    watcher.goto(f"{base}/games/{game.pk}/")
    mine = page_as(browser, base, mover.user, 1280, 800)
    mine.goto(f"{base}/games/{game.pk}/")
    form = mine.get_by_role("form", name="Rearrange your hand")
    expect(form).to_be_visible()
    assert hand_ids(mine, ".hand.mine") == hand
    assert_accessible(mine, "turn page with the rearranging form")

    form.get_by_label("Move slot").select_option("5")
    form.get_by_label("to slot").select_option("1")
    form.get_by_role("button", name="Move").click()

    line = f"{mover.name} moves a card from slot 5 to slot 1"
    expect(mine.locator(".history")).to_contain_text(line)
    moved = [hand[4], *hand[:4]]
    expect(mine.locator(".hand.mine li.card").first).to_have_attribute("data-card-id", str(hand[4]))
    assert hand_ids(mine, ".hand.mine") == moved
    assert "/rearrange/" not in mine.url  # HTMX: the table was swapped in place
    screenshot(mine, "rearrange-1280-mover")

    # The other player's open page follows without a reload (push or poll).
    expect(watcher.locator(".history")).to_contain_text(line, timeout=15_000)
    mover_hand = f'.hand:has(h2:text-is("{mover.name}"))'
    expect(watcher.locator(f"{mover_hand} li.card").first).to_have_attribute(
        "data-card-id", str(hand[4])
    )
    assert hand_ids(watcher, mover_hand) == moved
    screenshot(watcher, "rearrange-1280-other")

    # Nothing else changed: still seat 0's turn, no move made.
    game.refresh_from_db()
    assert (game.turn, game.current_seat) == (0, 0) and not game.moves.exists()

    # On a phone, and without JavaScript: the same form, a plain post and a redirect.
    phone = page_as(browser, base, mover.user, 390, 844, js=False)
    phone.goto(f"{base}/games/{game.pk}/")
    form = phone.get_by_role("form", name="Rearrange your hand")
    form.get_by_label("Move slot").select_option("1")
    form.get_by_label("to slot").select_option("3")
    form.get_by_role("button", name="Move").click()
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(phone.locator(".history")).to_contain_text(
        f"{mover.name} moves a card from slot 1 to slot 3"
    )
    assert hand_ids(phone, ".hand.mine") == [hand[0], hand[1], hand[4], hand[2], hand[3]]
    box = form.bounding_box() if form.count() else None
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["height"] < 60  # one line
    screenshot(phone, "rearrange-390-mover")
    game.refresh_from_db()
    assert len(game.rearrangements) == 2 and game.status == Game.Status.PLAYING
