"""A game page that is not visible (another tab, a minimised window) sends no poll; shown
again, it polls at once and shows what happened meanwhile (static/js/poll.js)."""

import time

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine import Clue, action_to_dict
from games.services import play
from tests.browser.conftest import logged_in_page
from tests.games.conftest import current_user, start_game, user_at

POLL_EVERY = 5  # seconds: hx-trigger="every 5s" in templates/games/game.html


def set_visible(page: Page, visible: bool) -> None:
    """What the browser does when the tab is hidden or shown again."""
    page.evaluate(
        """(visible) => {
            Object.defineProperty(document, "hidden", {configurable: true, get: () => !visible});
            Object.defineProperty(document, "visibilityState", {
                configurable: true, get: () => (visible ? "visible" : "hidden"),
            });
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        visible,
    )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_hidden_page_does_not_poll_and_catches_up_when_shown(
    live_server, browser: Browser, alice, bob
):
    game = start_game(alice, bob)
    watcher = user_at(game, 1 - game.current_seat)
    page = logged_in_page(browser, live_server.url, watcher)
    polls: list[float] = []
    page.on("request", lambda r: polls.append(time.monotonic()) if "/poll/" in r.url else None)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".status-line")).to_contain_text("Waiting for")

    # Visible: it polls every few seconds.
    page.wait_for_timeout((POLL_EVERY + 1) * 1000)
    assert polls, "a visible page polls"

    set_visible(page, False)
    hidden_since = time.monotonic()
    state = game.load_state()
    clue = next(a for a in state.legal_actions() if isinstance(a, Clue))
    play.submit_action(game.pk, current_user(game), action_to_dict(clue), 0)
    page.wait_for_timeout((2 * POLL_EVERY + 1) * 1000)
    assert [t for t in polls if t > hidden_since] == [], "a hidden page sends no poll"
    expect(page.locator(".status-line")).to_contain_text("Waiting for")

    shown_at = time.monotonic()
    set_visible(page, True)
    expect(page.locator(".status-line")).to_contain_text("It is your turn", timeout=2000)
    assert [t for t in polls if t > shown_at][0] - shown_at < 1, "shown again, it polls at once"
    expect(page).to_have_title(f"(Your turn) Game {game.pk} · Hanabi by post")
