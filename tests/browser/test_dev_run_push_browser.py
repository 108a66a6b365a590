"""Push under `python3 dev.py run`'s embedded default (issue 27): the site as dev.py starts
it (honcho with Procfile.dev, dev.run_env's environment) on a SQLite database of its own,
without Redis. A player watching the game sees the other player's move within a second of
its answer, and a bot's move (made by the worker, another process) within a second of its
commit, though the page polls only every 5 seconds."""

import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

import dev
from tests.browser.conftest import screenshot, take_turn
from tests.celery_helpers import ROOT, free_port, wait_for_port

# Run by `manage.py shell` in the site's environment: two accounts, a game between them, a
# game of the first with a bot, and a session for each account. Printed as one JSON line.
SETUP = """
import json
from allauth.account.models import EmailAddress
from django.test import Client
from accounts.models import User
from games.engine import GameOptions
from games.models import Game
from games.services import lobby

users = []
for name in ("alice", "bob"):
    user = User.objects.create_user(f"{name}@example.org", "a-long-hanabi-password",
                                    display_name=name.title())
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    users.append(user)
alice, bob = users
game = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.INVITE)
lobby.join_game(game.pk, bob, game.invite_code)
lobby.start_game(game.pk, alice)
bot_game = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.INVITE)
lobby.set_bot(bot_game.pk, alice, 1, True)
lobby.start_game(bot_game.pk, alice)
sessions = {}
for user in users:
    client = Client()
    client.force_login(user)
    sessions[user.display_name] = client.cookies["sessionid"].value
print("SETUP " + json.dumps({"game": game.pk, "bot_game": bot_game.pk, "sessions": sessions}))
"""


@dataclass
class DevSite:
    base: str
    database: Path
    env: dict[str, str]
    game: int
    bot_game: int
    sessions: dict[str, str]


def dev_environment(var_dir: Path) -> dict[str, str]:
    """dev.run_env's environment, as `python3 dev.py run` gives honcho, without what this
    test run sets for itself (its database, Redis, its settings) and on free ports."""
    inherited = {
        key: value
        for key, value in os.environ.items()
        if key
        not in (
            "DATABASE_URL",
            "REDIS_URL",
            "POLL_FROM_CACHE",
            "CACHE_KEY_PREFIX",
            "SECRET_KEY",
            "DEBUG",
            "STATIC_ROOT",
            "DJANGO_SETTINGS_MODULE",
            "SITE_URL",
            "ALLOWED_HOSTS",
        )
    }
    inherited["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    inherited["VAR_DIR"] = str(var_dir)
    inherited["WEB_PORT"] = str(free_port())
    inherited["INBOUND_SMTP_PORT"] = str(free_port())
    inherited["BOT_MOVE_DELAY_SECONDS"] = "0"  # the bot answers at once
    return dev.run_env(inherited)


@pytest.fixture(scope="module")
def dev_site() -> Iterator[DevSite]:
    """One site for the module's tests (each plays its own game): starting it, migrations and
    the worker, takes most of a minute."""
    # A short path: the push socket lives under it, and a Unix socket's path has 108 bytes.
    var_dir = Path(tempfile.mkdtemp(prefix="hdev-"))
    env = dev_environment(var_dir)
    manage = [sys.executable, "manage.py"]
    run = {"cwd": ROOT, "env": env, "capture_output": True, "text": True}
    migrated = subprocess.run([*manage, "migrate", "--no-input"], **run)
    assert migrated.returncode == 0, migrated.stderr
    made = subprocess.run([*manage, "shell", "-c", SETUP], **run)
    assert made.returncode == 0, made.stderr
    setup = json.loads(made.stdout.split("SETUP ", 1)[1])
    with tempfile.TemporaryFile(mode="w+") as log:
        honcho = subprocess.Popen(
            [str(Path(sys.executable).parent / "honcho"), "-f", "Procfile.dev", "start"]
            + ["web", "worker"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            port = int(env["WEB_PORT"])
            wait_for_port(port, honcho, "python3 dev.py run's web process", seconds=120)
            yield DevSite(
                base=f"http://127.0.0.1:{port}",
                database=var_dir / "hanabi.sqlite3",
                env=env,
                game=setup["game"],
                bot_game=setup["bot_game"],
                sessions=setup["sessions"],
            )
        finally:
            honcho.send_signal(signal.SIGTERM)  # honcho stops its processes, then itself
            try:
                honcho.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(honcho.pid, signal.SIGKILL)
            log.seek(0)
            print(log.read())  # shown by pytest when the test fails
            shutil.rmtree(var_dir, ignore_errors=True)


def page_of(browser: Browser, site: DevSite, name: str, game: int) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": site.sessions[name], "url": site.base}])
    page = context.new_page()
    page.goto(f"{site.base}/games/{game}/")
    expect(page.locator("html[data-push=open]")).to_have_count(1, timeout=10_000)
    return page


def turn_in_database(site: DevSite, game: int) -> int:
    with sqlite3.connect(f"file:{site.database}?mode=ro", uri=True, timeout=5) as database:
        return database.execute("SELECT turn FROM games_game WHERE id = ?", [game]).fetchone()[0]


@pytest.mark.slow
def test_under_dev_run_a_move_reaches_the_other_page_within_a_second(browser: Browser, dev_site):
    pages = {name: page_of(browser, dev_site, name, dev_site.game) for name in ("Alice", "Bob")}
    latencies = []
    for _ in range(6):  # each move seen by the other player within a second
        mover = next(
            name
            for name, page in pages.items()
            if "It is your turn" in page.locator(".status-line").inner_text()
        )
        watcher = "Bob" if mover == "Alice" else "Alice"
        expect(pages[watcher].locator(".status-line")).to_contain_text("Waiting for")
        with pages[mover].expect_response(lambda response: "/move/" in response.url):
            take_turn(pages[mover], ("clue", "discard", "play"))
        answered = time.monotonic()
        # The move is committed (its POST answered): the watcher's page, which polls only
        # every 5 s, shows it within a second.
        expect(pages[watcher].locator(".status-line")).to_contain_text(
            "It is your turn", timeout=1000
        )
        latencies.append(time.monotonic() - answered)
    screenshot(pages[watcher], "dev-run-push-watching-player")
    print(f"push under dev.py run: median {statistics.median(latencies) * 1000:.0f} ms, ", end="")
    print(f"max {max(latencies) * 1000:.0f} ms over {len(latencies)} moves")


@pytest.mark.slow
def test_under_dev_run_a_bots_move_reaches_the_page_within_a_second(browser: Browser, dev_site):
    """The bot moves in the worker, another process than the one that serves the stream. Its
    commit is seen in the database (polled every 10 ms from the player's move on); a round
    in which it came before the first look is not measured."""
    page = page_of(browser, dev_site, "Alice", dev_site.bot_game)
    status = page.locator(".status-line")
    measured = []
    for _ in range(4):
        expect(status).to_contain_text("It is your turn", timeout=60_000)  # the worker starts
        before = turn_in_database(dev_site, dev_site.bot_game)
        with page.expect_response(lambda response: "/move/" in response.url):
            take_turn(page, ("clue", "discard", "play"))
        if turn_in_database(dev_site, dev_site.bot_game) >= before + 2:
            continue
        deadline = time.monotonic() + 60
        while turn_in_database(dev_site, dev_site.bot_game) < before + 2:  # the bot's move
            assert time.monotonic() < deadline, "the worker made no move"
            time.sleep(0.01)
        committed = time.monotonic()
        expect(status).to_contain_text("It is your turn", timeout=1000)
        measured.append(time.monotonic() - committed)
    assert measured, "the bot always moved before the test looked"
    print(
        f"a bot's move reached the page {[round(t * 1000) for t in measured]} ms after its commit"
    )
    screenshot(page, "dev-run-push-bot-move")


@pytest.mark.slow
def test_under_dev_run_a_page_with_a_live_stream_sends_no_polls(browser: Browser, dev_site):
    """Issue 28: the stream replaces the poll, and marks the player present (their turn
    emails wait) though the page sends no poll."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(
        [{"name": "sessionid", "value": dev_site.sessions["Bob"], "url": dev_site.base}]
    )
    page = context.new_page()
    polls: list[str] = []
    page.on("request", lambda request: "/poll/" in request.url and polls.append(request.url))
    page.goto(f"{dev_site.base}/games/{dev_site.game}/")
    expect(page.locator("html[data-push=open]")).to_have_count(1, timeout=10_000)
    page.wait_for_timeout(2_000)
    # At most the one check the stream asks for as it opens (the embedded default's cache
    # cannot tell the stream the game's version), then none.
    assert len(polls) <= 1
    bobs_seat = (
        "FROM games_seat WHERE game_id = ? AND user_id ="
        " (SELECT id FROM accounts_user WHERE display_name = 'Bob')"
    )
    with sqlite3.connect(dev_site.database, timeout=5) as database:
        database.execute(
            f"UPDATE games_seat SET last_seen_at = NULL WHERE id IN (SELECT id {bobs_seat})",
            [dev_site.game],
        )
    polls.clear()
    page.wait_for_timeout(22_000)  # longer than the push process's presence interval
    assert polls == []
    with sqlite3.connect(f"file:{dev_site.database}?mode=ro", uri=True, timeout=5) as database:
        seen = database.execute(f"SELECT last_seen_at {bobs_seat}", [dev_site.game]).fetchone()[0]
    assert seen is not None  # written by the push process for the open stream, not by a poll
