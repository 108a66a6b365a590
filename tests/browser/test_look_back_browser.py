"""Issue 16: during play, a player looks back a few turns from the turn page, with the mouse
and with the keyboard, and at every turn finds none of their own cards of that turn (nor the
deck's): the page in a real browser, checked against the game's state at that turn."""

import re

import pytest
from playwright.sync_api import Browser, expect

from games.engine import replay
from tests.browser.conftest import logged_in_page, screenshot
from tests.games.conftest import make_user, start_game, user_at
from tests.games.leak_probe import SEED
from tests.games.look_back import VIEWER, never_seen_at, play_everything


def assert_nothing_hidden_shown(page, game, turn: int) -> None:
    expect(page.get_by_text(f"Turn {turn + 1} of {game.turn + 1}")).to_be_visible()
    own_hand = page.locator("section.hand.mine")
    expect(own_hand.locator(".card-face")).to_have_count(0)  # backs only
    text = page.locator("main").inner_text()
    # The search finds what is shown: a teammate's card of that turn, by the same name.
    state = replay(game.game_options, game.deck_source, actions_of(game), upto=turn)
    teammate = state.card(state.hand((VIEWER + 1) % 3)[0])
    assert re.search(rf"\b{teammate.name}\b", text), (turn, teammate.name)
    for card in never_seen_at(game, turn, VIEWER):
        # Shown cards are named "red 3" (visually hidden) beside their faces.
        assert not re.search(rf"\b{card.name}\b", text), (turn, card.name)


def actions_of(game) -> list:
    return list(game.moves.order_by("turn").values_list("action", flat=True))


@pytest.mark.django_db(transaction=True)
def test_looking_back_a_few_turns_shows_none_of_the_players_own_cards(
    live_server, browser: Browser
):
    users = [make_user(name) for name in ("ann", "ben", "cid")]
    game = start_game(*users, seed=SEED)
    play_everything(game, 9)
    page = logged_in_page(browser, live_server.url, user_at(game, VIEWER))
    page.goto(f"{live_server.url}/games/{game.pk}/")

    page.get_by_role("link", name=f"‹ Look back at turn {game.turn}").click()
    expect(page).to_have_url(re.compile(rf"/as-seen/{game.turn - 1}/$"))
    assert_nothing_hidden_shown(page, game, game.turn - 1)

    page.get_by_role("link", name=re.compile("Previous")).click()
    assert_nothing_hidden_shown(page, game, game.turn - 2)
    page.keyboard.press("ArrowLeft")
    assert_nothing_hidden_shown(page, game, game.turn - 3)
    page.keyboard.press("Home")
    assert_nothing_hidden_shown(page, game, 0)
    page.keyboard.press("ArrowRight")
    assert_nothing_hidden_shown(page, game, 1)
    screenshot(page, "look-back-turn-1")

    page.get_by_role("link", name="Back to the live table").click()
    expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/")
