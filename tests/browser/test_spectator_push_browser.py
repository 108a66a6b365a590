"""Issue 28's "the stream replaces the poll", in a real browser, for the spectator page as for
a player's: the site under uvicorn (ASGI, as the `push` process serves it) with PostgreSQL
and Redis (tests/browser/test_push_browser.py). A spectator's page with a live stream sends
no timed poll and shows a move within a second of its commit; one whose stream is down polls
every 5 s and says so. The Done-when's count: every poll the pages send over a minute."""

import statistics
import time

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import Browser, Page, expect

from games.models import Game, SpectatorPolicy
from tests.browser.conftest import logged_in_page, screenshot
from tests.browser.test_push_browser import _clue_the_other, _push_env, asgi_server
from tests.celery_helpers import free_port
from tests.games.conftest import current_user, start_game
from tests.games.helpers import deck

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

SPECTATOR_POLL = "/watch/?v="  # the spectator page's poll (its first load has no ?v=)
PLAYER_POLL = "/poll/"


def watched_game(*players) -> Game:
    game = start_game(*players, deck=deck())
    Game.objects.filter(pk=game.pk).update(spectators=SpectatorPolicy.DURING)
    game.refresh_from_db()
    return game


def counting(page: Page, marker: str) -> list[str]:
    """The URLs of the polls the page sends from now on, as the browser sends them."""
    polls: list[str] = []
    page.on("request", lambda request: marker in request.url and polls.append(request.url))
    return polls


def shows_turn(page: Page, turn: int, timeout: float) -> float:
    """Seconds until the page's status line says turn `turn` (0-based), checked at each
    frame; fails after `timeout` seconds."""
    start = time.monotonic()
    page.wait_for_function(
        "text => document.querySelector('.status-line').textContent.includes(text)",
        arg=f"Turn {turn + 1} ",
        polling="raf",
        timeout=timeout * 1000,
    )
    return time.monotonic() - start


def test_a_spectator_page_with_a_live_stream_sees_each_move_within_a_second_without_polling(
    browser: Browser, settings, alice, bob, mallory
):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    settings.SITE_URL = base
    game = watched_game(alice, bob)
    page = logged_in_page(browser, base, mallory)
    polls = counting(page, SPECTATOR_POLL)
    with asgi_server(port, **_push_env(base)):
        page.goto(f"{base}/games/{game.pk}/watch/")
        expect(page.get_by_role("heading", level=1)).to_have_text(f"Watching game {game.pk}")
        expect(page.locator("html[data-push=open]")).to_have_count(1)
        expect(page.locator("#push-status")).to_be_hidden()
        polls.clear()
        latencies = []
        for turn in range(1, 5):
            _clue_the_other(game, current_user(game))  # committed when this returns
            latencies.append(shows_turn(page, turn, timeout=1.0))
            # Every hand still face up (the spectator's table), none of them "Your hand".
            expect(page.locator("li.card")).to_have_count(10)
            expect(page.locator("li.card.back")).to_have_count(0)
        expect(page.get_by_role("heading", name="Your hand")).to_have_count(0)
        page.wait_for_timeout(300)  # a poll sent late would be counted
        # One poll per move, each asked for by the stream; no timed poll.
        assert len(polls) == 4, polls
        assert [int(url.split("v=")[1]) for url in polls] == list(
            range(game.version - 4, game.version)
        )
        print(f"commit to spectator's table: {[f'{s * 1000:.0f} ms' for s in latencies]}")
        print(f"median {statistics.median(latencies) * 1000:.0f} ms")
        screenshot(page, "push-spectator")


def test_pages_with_a_live_stream_send_no_polls_over_a_minute(
    browser: Browser, settings, alice, bob, mallory, carol
):
    """Issue 28's Done-when: a player's page and a spectator's, each with a live stream, send
    no poll in 60 s; beside them (the baseline, the same minute) a spectator's page whose
    stream is cut polls every 5 s and says so. Then a move reaches all three."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    settings.SITE_URL = base
    assert django_settings.REDIS_URL
    game = watched_game(alice, bob)
    player = logged_in_page(browser, base, current_user(game))
    spectator = logged_in_page(browser, base, mallory)
    cut_off = logged_in_page(browser, base, carol)  # another spectator, her stream refused
    cut_off.route("**/events/**", lambda route: route.abort())
    names = {player: "player", spectator: "spectator", cut_off: "cut off"}
    requests = {page: [] for page in names}
    for page, sent in requests.items():
        page.on("request", lambda request, sent=sent: sent.append(request.url))
    with asgi_server(port, **_push_env(base)):
        player.goto(f"{base}/games/{game.pk}/")
        for page in (spectator, cut_off):
            page.goto(f"{base}/games/{game.pk}/watch/")
        for page in (player, spectator):
            expect(page.locator("html[data-push=open]")).to_have_count(1)
            expect(page.locator("#push-status")).to_be_hidden()
        expect(cut_off.locator("html[data-push=down]")).to_have_count(1)
        expect(cut_off.locator("#push-status")).to_be_visible()
        expect(cut_off.locator("#push-status")).to_contain_text("Live updates paused")
        for sent in requests.values():
            sent.clear()
        started = time.monotonic()
        player.wait_for_timeout(60_000)
        minute = time.monotonic() - started
        polls = {
            "player": [url for url in requests[player] if PLAYER_POLL in url],
            "spectator": [url for url in requests[spectator] if SPECTATOR_POLL in url],
            "cut off": [url for url in requests[cut_off] if SPECTATOR_POLL in url],
        }
        counts = {name: len(sent) for name, sent in polls.items()}
        every = {names[page]: len(sent) for page, sent in requests.items()}
        print(f"over {minute:.1f} s: polls {counts}, every request {every}")
        assert minute >= 60
        assert polls["player"] == [] and polls["spectator"] == []
        assert requests[player] == [] and requests[spectator] == []  # nothing else either
        assert len(polls["cut off"]) >= 10  # every 5 s: 12 in a minute
        screenshot(cut_off, "push-spectator-paused")

        _clue_the_other(game, current_user(game))
        shows_turn(spectator, 1, timeout=1.0)
        expect(player.locator(".status-line")).to_contain_text("Turn 2", timeout=1000)
        shows_turn(cut_off, 1, timeout=6.0)  # at its next poll
