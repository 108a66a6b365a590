"""A dropped database connection is not an error page, under load (issue 25).

The site runs as production runs it: the Procfile's `web` line (gunicorn, 3 sync workers),
hanabi_site.settings with DEBUG off, PostgreSQL (this test's database) and Redis. While
scripted players send 200 GETs (turn pages, the turn page's poll, the lobby) and 50 moves,
a second connection terminates the site's backends every 2.5 s, as an administrator's
pg_terminate_backend or a failover would. No answer may be a 500, and every move the site
answered as made is in the database exactly once: each game's moves are the very actions
its player sent, in order, and the game replays to that many turns.

Not vacuous: the terminator must kill the site's backends in at least 8 rounds during the
load, and at least one request must have met its connection dropped in its middle and been
run again (lib/db_retry.py logs each one). A connection killed while idle never fails a
request (the next request's health check, CONN_HEALTH_CHECKS, replaces it), and the site's
connections are busy a small part of the time only, so each round aims: it kills at the
first moment, within a second of its tick, when one of them is running a query or holds a
transaction open (a move's). There is no control run without the retry middleware: it would
need settings that production does not have; tests/test_db_retry.py shows in process that
a request whose connection drops is a 500 when it is not retried.

A move's answer may be 409 (the stale form) without a fault of the site: its first attempt
committed, its connection dropped before the answer, and the retry found the turn past. Only
one script moves in each game, so such a move was made; the script counts it, and the
check of the database shows it was made once.
"""

import html
import http.client
import os
import random
import re
import signal
import string
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import psycopg
import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test import Client

from games.engine import Clue, Discard, GameState, Play, action_to_dict
from games.models import Game, Move
from tests.celery_helpers import (
    ROOT,
    database_url_of_this_test,
    free_port,
    procfile_command,
    wait_for_port,
)
from tests.conftest import make_user
from tests.games.conftest import start_game

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.redis,
    # gunicorn's workers, in their own processes, must see the games: committed for real.
    pytest.mark.django_db(transaction=True),
]

GAMES = 10  # one client thread per game, so a game's moves come from one player's script
MOVES_PER_GAME = 5
GETS_BEFORE_EACH_MOVE = 4  # 200 GETs and 50 moves in all
REQUESTS_PER_GAME = MOVES_PER_GAME * (GETS_BEFORE_EACH_MOVE + 1)
KILL_EVERY_SECONDS = 2.5
LOAD_SECONDS = 22  # 8 rounds of terminations at least fall inside it
ROUNDS_AT_LEAST = 8
# The turn page's htmx poll, as the page writes it (&amp; in the attribute).
POLL_URL = re.compile(r'hx-get="(/games/\d+/poll/\?[^"]*)"')
# A poll answers 204 while the game is at the version the page showed, else the new table.
# A move: 302 back to the game, or 409 (see above).
EXPECTED = {"turn page": {200}, "poll": {200, 204}, "lobby": {200}, "move": {302, 409}}


# -- the site ---------------------------------------------------------------------------------


@dataclass
class Site:
    port: int
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def start_site(log_path: Path, queue: str) -> Site:
    """The Procfile's `web` process, run by the shell as a platform runs it, on this test's
    database, Redis and a Celery queue of its own (no worker runs it; it is deleted after)."""
    port = free_port()
    environment = {
        **os.environ,  # SECRET_KEY, REDIS_URL, CACHE_KEY_PREFIX, STATIC_ROOT: the test's
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "DEBUG": "false",
        "DATABASE_URL": database_url_of_this_test(),
        "CELERY_QUEUE": queue,
        "PORT": str(port),
        "WEB_CONCURRENCY": "3",
    }
    with open(log_path, "w") as log:
        # A session of its own, so that the master and its workers are stopped as a group.
        process = subprocess.Popen(
            f"exec {procfile_command('web', 'Procfile')}",
            shell=True,
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    site = Site(port, process, log_path)
    try:
        wait_for_port(port, process, "gunicorn")
        # Each worker loads Django on its first request: warm all three before the clock runs.
        for _ in range(12):
            assert send(port, "GET", "/healthz").status == 200, site.log()
    except BaseException:
        stop_site(site)
        raise
    return site


def stop_site(site: Site) -> None:
    if site.process.poll() is not None:
        return
    os.killpg(site.process.pid, signal.SIGTERM)
    try:
        site.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(site.process.pid, signal.SIGKILL)
        site.process.wait()


def delete_queues(queue: str) -> None:
    """The tasks the site queued for workers that never ran, in this test's queues only."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        for name in (queue, f"{queue}-analysis"):
            # The queue, and kombu's record of its binding (by the name of its version).
            client.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")
    finally:
        client.close()


# -- the terminator ---------------------------------------------------------------------------


# The backends the terminator may kill: this test's database's client connections, but its
# own and the test process's.
VICTIMS = (
    "FROM pg_stat_activity WHERE datname = %(database)s AND backend_type = 'client backend'"
    " AND pid <> pg_backend_pid() AND pid <> %(spared)s"
)
# pg_terminate_backend in the select list, never in a WHERE clause, whose conditions
# PostgreSQL may evaluate in any order: only the rows the WHERE kept are ever terminated.
KILL = f"SELECT state, pg_terminate_backend(pid) {VICTIMS}"  # noqa: S608 (constants)
KILL_IF_BUSY = f"{KILL} AND EXISTS (SELECT 1 {VICTIMS} AND state <> 'idle')"  # noqa: S608
# How long each round waits for a request to be running on one of the site's connections.
AIM_SECONDS = 1.0


class Terminator(threading.Thread):
    """Every KILL_EVERY_SECONDS, terminates every client backend of this test's database but
    its own and the test's: the site's connections.

    A connection is busy (a query running, or a transaction open: a move's) for a small part
    of the time; killed idle, it is found dead by the next request's health check and never
    fails a request. So each round kills at the first moment within AIM_SECONDS when one of
    them is busy (one statement sees and kills, from the same snapshot), and any idle one
    with it; if none was busy by then, it kills the idle ones all the same."""

    def __init__(self, spared_pid: int) -> None:
        super().__init__(daemon=True)
        self.params = {"database": connection.settings_dict["NAME"], "spared": spared_pid}
        self.halt = threading.Event()
        self.rounds: list[list[str]] = []  # per round, the state of each backend it killed
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with psycopg.connect(database_url_of_this_test(), autocommit=True) as terminator:
                tick = time.monotonic()
                while not self.halt.wait(max(0.0, tick + KILL_EVERY_SECONDS - time.monotonic())):
                    tick = time.monotonic()
                    self.rounds.append(self._kill(terminator, aim_until=tick + AIM_SECONDS))
        except BaseException as error:  # reported by the test, not lost in the thread
            self.error = error

    def _kill(self, terminator: psycopg.Connection, aim_until: float) -> list[str]:
        while time.monotonic() < aim_until and not self.halt.is_set():
            rows = terminator.execute(KILL_IF_BUSY, self.params).fetchall()
            if rows:
                return [state or "?" for state, killed in rows if killed]
            time.sleep(0.001)
        rows = terminator.execute(KILL, self.params).fetchall()
        return [state or "?" for state, killed in rows if killed]

    @property
    def killed(self) -> int:
        return sum(len(states) for states in self.rounds)

    @property
    def busy_rounds(self) -> int:
        """Rounds that killed a connection in use: a query running or a transaction open."""
        return sum(1 for states in self.rounds if any(state != "idle" for state in states))


# -- the players ------------------------------------------------------------------------------


@dataclass
class Response:
    status: int
    location: str
    set_cookie: str
    body: bytes


def send(
    port: int, method: str, path: str, headers: dict | None = None, body: str = ""
) -> Response:
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        client.request(method, path, body=body or None, headers=headers or {})
        answer = client.getresponse()
        return Response(
            answer.status,
            answer.getheader("Location", ""),
            answer.getheader("Set-Cookie", ""),
            answer.read(),
        )
    finally:
        client.close()


@dataclass
class Player:
    """One game's script: its two players' sessions and the game as the script knows it
    (followed with the engine from the moves the site answered as made, never asked)."""

    port: int
    game_id: int
    sessions: list[str]  # by seat position
    state: GameState
    rng: random.Random
    csrf: str = field(default_factory=lambda: "".join(random.choices(string.ascii_letters, k=32)))
    answers: list[tuple[str, int, str]] = field(default_factory=list)  # (what, status, detail)
    made: list[dict] = field(default_factory=list)  # moves answered as made, in order
    stale_after_commit: list[dict] = field(default_factory=list)
    poll_path: str = ""
    error: BaseException | None = None

    @property
    def path(self) -> str:
        return f"/games/{self.game_id}/"

    def headers(self, seat: int) -> dict:
        # Django takes the csrftoken cookie's secret unmasked in X-CSRFToken.
        cookies = f"{settings.SESSION_COOKIE_NAME}={self.sessions[seat]}; csrftoken={self.csrf}"
        return {"Cookie": cookies, "X-CSRFToken": self.csrf}

    def record(self, what: str, response: Response) -> None:
        detail = "" if response.status < 500 else response.body[:200].decode(errors="replace")
        self.answers.append((what, response.status, detail))

    def turn_page(self, seat: int) -> None:
        response = send(self.port, "GET", self.path, self.headers(seat))
        self.record("turn page", response)
        found = POLL_URL.findall(response.body.decode(errors="replace"))
        if response.status == 200 and found:
            self.poll_path = html.unescape(found[0])

    def poll(self) -> None:
        if not self.poll_path:
            return self.lobby()  # no page shown yet (it failed): still a GET
        headers = {**self.headers(self.state.current_seat), "HX-Request": "true"}
        self.record("poll", send(self.port, "GET", self.poll_path, headers))

    def lobby(self) -> None:
        self.record("lobby", send(self.port, "GET", "/", self.headers(0)))

    def move(self) -> None:
        """A random clue or discard (never a play: no strike ends a game early); the next
        move is sent only once this one is answered, from the state it left."""
        legal = [a for a in self.state.legal_actions() if not isinstance(a, Play)]
        action = self.rng.choice(legal)
        form = {"turn": self.state.turn}
        if isinstance(action, Clue):
            value = {"colour": action.colour} if action.colour else {"rank": action.rank}
            form |= {"kind": "clue", "target": action.target, **value}
        else:
            assert isinstance(action, Discard)
            form |= {"kind": "discard", "card": action.card_id}
        headers = {
            **self.headers(self.state.current_seat),
            "Content-Type": "application/x-www-form-urlencoded",
        }
        response = send(self.port, "POST", f"{self.path}move/", headers, urlencode(form))
        # Made: back to the game, with no message (a refused move sets one saying why).
        refused = response.location != self.path or "messages=" in response.set_cookie
        self.record("refused move" if response.status == 302 and refused else "move", response)
        if response.status == 302 and not refused:
            self.made.append(action_to_dict(action))
            self.state.apply(action)
        elif response.status == 409:
            # Only this script moves in this game, so the turn can have moved on only by
            # this very move: it committed, then its connection dropped and the retry found
            # the turn past. Kept to check it is in the database once, at its turn.
            self.stale_after_commit.append(action_to_dict(action))
            self.made.append(action_to_dict(action))
            self.state.apply(action)

    def play(self, started: float, offset: float) -> None:
        """GETs and moves on a timetable spread over LOAD_SECONDS: four GETs, then a move."""
        gets = [
            lambda: self.turn_page(self.state.current_seat),
            self.poll,
            self.lobby,
            lambda: self.turn_page(1 - self.state.current_seat),  # the other player's
        ]
        assert len(gets) == GETS_BEFORE_EACH_MOVE
        steps = (gets + [self.move]) * MOVES_PER_GAME
        interval = LOAD_SECONDS / REQUESTS_PER_GAME
        try:
            for index, step in enumerate(steps):
                time.sleep(max(0.0, started + offset + index * interval - time.monotonic()))
                step()
        except BaseException as error:  # reported by the test, not lost in the thread
            self.error = error


def session_of(user) -> str:
    client = Client()
    client.force_login(user)  # the site's session engine: the database, and Redis
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def prepared_players(port: int) -> list[Player]:
    players = []
    for number in range(GAMES):
        users = [make_user(f"fault{number}{letter}") for letter in "ab"]
        game = start_game(*users, seed=1000 + number)
        by_seat = [seat.user for seat in game.seats.select_related("user").order_by("position")]
        players.append(
            Player(
                port,
                game.pk,
                [session_of(user) for user in by_seat],
                game.load_state(),
                random.Random(number),
            )
        )
    return players


# -- the test ---------------------------------------------------------------------------------


def own_backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_terminated_backends_under_load_give_no_500_and_lose_no_move(tmp_path):
    queue = f"test-dbfault-{uuid.uuid4().hex}"
    site = start_site(tmp_path / "gunicorn.log", queue)
    terminator = Terminator(spared_pid=own_backend_pid())
    try:
        players = prepared_players(site.port)
        started = time.monotonic()
        threads = [
            threading.Thread(
                target=player.play,
                # Staggered, so that the games' requests take turns.
                args=(started, index * LOAD_SECONDS / REQUESTS_PER_GAME / GAMES),
                daemon=True,
            )
            for index, player in enumerate(players)
        ]
        terminator.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=LOAD_SECONDS + 60)
        load_seconds = time.monotonic() - started
    finally:
        terminator.halt.set()
        terminator.join(timeout=10)
        stop_site(site)
        delete_queues(queue)
    log = site.log()

    answers = [answer for player in players for answer in player.answers]
    statuses = [status for _, status, _ in answers]
    moves = sum(len(player.made) for player in players)
    stale = sum(len(player.stale_after_commit) for player in players)
    # lib/db_retry.py logs each request it runs again (WARNING; the site logs INFO and up).
    retried = [line for line in log.splitlines() if "on a fresh connection" in line]
    print(
        f"{len(answers)} requests in {load_seconds:.1f} s; {len(terminator.rounds)} rounds "
        f"killed {terminator.killed} backends, {terminator.busy_rounds} rounds one in use "
        f"({', '.join(map(str, terminator.rounds))}); "
        f"{len(retried)} requests retried; {statuses.count(500)} answers of 500; {moves} moves "
        f"made ({stale} answered 409 after their commit)",
        *retried,
        sep="\n",
    )
    print("gunicorn's log:", log, sep="\n")  # shown by pytest when the test fails
    failures = [f"{player.game_id}: {player.error!r}" for player in players if player.error]
    assert not failures and terminator.error is None, (failures, terminator.error)
    assert len(answers) == GAMES * REQUESTS_PER_GAME
    errors = [answer for answer in answers if answer[1] >= 500]
    assert not errors, errors

    # The faults really happened, to the site's connections, during the load.
    assert len(terminator.rounds) >= ROUNDS_AT_LEAST
    assert sum(1 for states in terminator.rounds if states) >= ROUNDS_AT_LEAST, terminator.rounds
    # And some met a request in the middle, which the site ran again on a fresh connection:
    # the retry itself is under test, not only the health check of an idle connection.
    assert terminator.busy_rounds and retried, terminator.rounds

    unexpected = [answer for answer in answers if answer[1] not in EXPECTED.get(answer[0], ())]
    assert not unexpected, unexpected
    assert moves == GAMES * MOVES_PER_GAME

    # Every move answered as made is in the database, once, at its turn; nothing else is.
    for player in players:
        stored = list(Move.objects.filter(game_id=player.game_id).order_by("turn"))
        assert [move.action for move in stored] == player.made
        assert [move.turn for move in stored] == list(range(len(player.made)))
        game = Game.objects.get(pk=player.game_id)
        assert game.turn == len(player.made)
        assert game.load_state().turn == len(player.made)  # the game replays to its state
