"""Push, for real: the site under uvicorn (ASGI, as the `push` process serves it), Redis and
PostgreSQL; a player watching the game sees the other player's move within a second of its
commit, though the page polls only every 5 seconds."""

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import Browser, expect

from games.services import play
from tests.browser.conftest import logged_in_page, screenshot, take_turn
from tests.celery_helpers import ROOT, database_url_of_this_test, free_port, wait_for_port
from tests.games.conftest import current_user, start_game


@contextmanager
def asgi_server(port: int, **env: str) -> Iterator[str]:
    """The site under uvicorn on 127.0.0.1:`port`; its base URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "hanabi_site.asgi:application"]
        + ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
        # Open event streams would otherwise hold its shutdown until they end.
        + ["--timeout-graceful-shutdown", "2"],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_for_port(port, process, "uvicorn")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=30)
        print(output)


def _clue_the_other(game, user) -> None:
    """A colour clue from the user (whose turn it is) to the other seat of a 2-player game."""
    game.refresh_from_db()
    other = 1 - game.current_seat
    state = game.load_state()
    colour = state.card(state.hand(other)[0]).suit_name
    action = {"type": "clue", "target": other, "colour": colour}
    play.submit_action(game.pk, user, action, game.turn)
    game.refresh_from_db()


def _push_env(base: str) -> dict[str, str]:
    return {
        "DEBUG": "true",
        "DATABASE_URL": database_url_of_this_test(),
        "REDIS_URL": django_settings.REDIS_URL,
        "SITE_URL": base,
        "ALLOWED_HOSTS": "127.0.0.1",
    }


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_watching_player_sees_a_move_within_a_second_of_its_commit(
    browser: Browser, settings, alice, bob
):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    settings.SITE_URL = base
    env = _push_env(base)
    with asgi_server(port, **env):
        game = start_game(alice, bob)
        pages = {user: logged_in_page(browser, base, user) for user in (alice, bob)}
        for page in pages.values():
            page.goto(f"{base}/games/{game.pk}/")
            expect(page.locator("html[data-push=open]")).to_have_count(1)
        for turn in range(4):  # each move seen by the other player within a second
            mover = current_user(game)
            watcher = bob if mover == alice else alice
            expect(pages[watcher].locator(".status-line")).to_contain_text("Waiting for")
            take_turn(pages[mover], ("clue", "discard", "play"))
            expect(pages[mover].locator(".status-line")).to_contain_text("Waiting for")
            # The move is committed (the mover's page shows it): the watcher's page, which
            # polls only every 5 s, shows it within a second.
            expect(pages[watcher].locator(".status-line")).to_contain_text(
                "It is your turn", timeout=1000
            )
            game.refresh_from_db()
            assert game.turn == turn + 1
        screenshot(pages[watcher], "push-watching-player")


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_move_announced_while_a_poll_is_on_its_way_is_not_lost(
    browser: Browser, settings, alice, bob
):
    """Both orders are forced: the first poll is held (answered with the table as it was when
    it asked) until the stream has announced the next move. htmx queues the second poll but
    drops it when the first answer replaces the table; the page must ask again, or it shows
    the old table until the next move (no timed poll while the stream is open)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    settings.SITE_URL = base
    game = start_game(alice, bob)
    mover = current_user(game)
    watcher = bob if mover == alice else alice
    page = logged_in_page(browser, base, watcher)
    held = []

    def hold_the_first_poll(route):
        if held:
            route.continue_()
        else:  # answered now (the table after the first move), delivered later
            held.append((route, route.fetch()))

    page.route("**/poll/**", hold_the_first_poll)
    with asgi_server(port, **_push_env(base)):
        page.goto(f"{base}/games/{game.pk}/")
        expect(page.locator("html[data-push=open]")).to_have_count(1)
        _clue_the_other(game, mover)
        deadline = time.monotonic() + 5
        while not held:  # the stream announced the move and the page asked
            assert time.monotonic() < deadline, "no poll after the first move"
            page.wait_for_timeout(20)
        _clue_the_other(game, watcher)
        # The stream announced the second move (push.js keeps it for its next stream).
        announced = f"[data-events*='v={game.version}&'], [data-events$='v={game.version}']"
        expect(page.locator(announced)).to_have_count(1)
        route, answer = held[0]
        route.fulfill(response=answer)
        expect(page.locator(".status-line")).to_contain_text("Waiting for", timeout=2000)
        expect(page.locator(".status-line")).to_contain_text("Turn 3")


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_page_with_a_live_stream_sends_no_polls_and_polls_while_it_is_down(
    browser: Browser, settings, alice, bob
):
    """Issue 28: the stream replaces the poll. Polls counted as the browser sends them."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    settings.SITE_URL = base
    env = _push_env(base)
    game = start_game(alice, bob)
    page = logged_in_page(browser, base, current_user(game))
    polls: list[float] = []
    page.on("request", lambda request: "/poll/" in request.url and polls.append(time.time()))
    status = page.locator("#push-status")
    with asgi_server(port, **env):
        page.goto(f"{base}/games/{game.pk}/")
        expect(page.locator("html[data-push=open]")).to_have_count(1)
        expect(status).to_be_hidden()
        polls.clear()
        # More than a poll's interval; the count over a minute is in
        # test_spectator_push_browser.py.
        page.wait_for_timeout(6_000)
        assert polls == []  # the live stream replaces them
    # The push process is gone (a restart, a network cut): the page polls, and says so.
    expect(page.locator("html[data-push=down]")).to_have_count(1, timeout=10_000)
    expect(status).to_be_visible()
    expect(status).to_contain_text("Live updates paused")
    screenshot(page, "push-paused")
    polls.clear()
    page.wait_for_timeout(12_000)
    assert len(polls) >= 2
    with asgi_server(port, **env):  # back: the page opens a stream again and stops polling
        expect(page.locator("html[data-push=open]")).to_have_count(1, timeout=40_000)
        expect(status).to_be_hidden()
        page.wait_for_timeout(1_000)
        polls.clear()
        page.wait_for_timeout(6_000)
        assert polls == []
