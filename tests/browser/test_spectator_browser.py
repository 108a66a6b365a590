"""A spectator in a real browser (issue 26): someone who plays in neither seat finds a game
open to spectators in the lobby, watches it with every hand face up, and sees the players'
moves come in; a player who opens the same address is refused. Both pages pass axe;
screenshots in test-results/."""

import re

import pytest
from playwright.sync_api import Browser, expect

from games.models import Game, SpectatorPolicy
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot, take_turn
from tests.games.conftest import current_user, start_game
from tests.games.helpers import deck


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_spectator_watches_a_game_between_two_others(
    live_server, browser: Browser, alice, bob, mallory
):
    game = start_game(alice, bob, deck=deck())
    Game.objects.filter(pk=game.pk).update(spectators=SpectatorPolicy.DURING)
    watcher = logged_in_page(browser, live_server.url, mallory)
    watcher.goto(f"{live_server.url}/")
    watcher.get_by_role("link", name=f"Watch game {game.pk}").click()
    expect(watcher.get_by_role("heading", level=1)).to_have_text(f"Watching game {game.pk}")

    # Every hand face up (tests/games/helpers.py's deck: R1 R2 Y1 G1 B1 and R5 R3 B2 R4 W1),
    # under the players' names, none of them "Your hand".
    expect(watcher.locator("li.card")).to_have_count(10)
    expect(watcher.locator("li.card.back")).to_have_count(0)
    for card_id, name in ((0, "red 1"), (4, "blue 1"), (5, "red 5"), (9, "white 1")):
        expect(watcher.locator(f'li.card[data-card-id="{card_id}"]')).to_contain_text(name)
    expect(watcher.locator(".hand h2")).to_have_text([re.compile("Alice|Bob")] * 2)
    expect(watcher.get_by_role("heading", name="Your hand")).to_have_count(0)
    expect(watcher.get_by_role("button", name=re.compile("^(Clue|Play|Discard)"))).to_have_count(0)
    assert_accessible(watcher, "the spectator view")
    screenshot(watcher, "spectator-view")

    # A player moves on their own page, where their own cards are backs; the spectator's page
    # follows by itself.
    mover = current_user(game)
    player = logged_in_page(browser, live_server.url, mover)
    player.goto(f"{live_server.url}/games/{game.pk}/")
    expect(player.locator("section.hand.mine li.card.back")).to_have_count(5)
    kind = take_turn(player, ("clue",))
    assert kind == "clue"
    expect(watcher.locator(".last-action")).to_contain_text(mover.display_name, timeout=15_000)
    expect(watcher.locator("li.card.back")).to_have_count(0)
    screenshot(watcher, "spectator-view-after-a-move")

    # The player, at the spectator's address of their own game: refused, and shown no card.
    player.goto(f"{live_server.url}/games/{game.pk}/watch/")
    expect(player.get_by_role("heading", level=1)).to_have_text("You cannot watch this game")
    expect(player.locator("li.card")).to_have_count(0)
    assert_accessible(player, "the spectator view refused to a player")
    screenshot(player, "spectator-view-refused")
