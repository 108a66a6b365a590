"""Benchmark of the site under gunicorn and PostgreSQL. Not a test: it prints figures.

    .venv/bin/python bench/site.py                     # 10 s per measure, 4 clients, 3 workers
    .venv/bin/python bench/site.py --seconds 5 --json  # a shorter run, as JSON

What it does:

1. Recreates the PostgreSQL database `hanabi_bench` (server from --pg, default
   postgres://postgres@127.0.0.1:5432), migrates it, collects the static files (DEBUG is off,
   so pages need whitenoise's manifest), and creates players and started two-player games
   through games.services. Redis database 15 (--redis-url) is both Celery's broker and the
   site's cache (REDIS_URL, as in production, so POLL_FROM_CACHE is on in gunicorn's workers
   and in this process); the cache's keys left by an earlier run are deleted first, since the
   recreated database numbers its games from 1 again. No Celery worker runs: the tasks queued
   by the measured requests are counted, then dropped.
2. Starts gunicorn (sync workers, as in the Procfile) with bench.site_settings on a free local
   port, and waits until it answers.
3. Measures each of the following for --seconds in all, after a short warm-up, taking turns
   (--rounds of trivial, turn page, poll, move) so that all four see the same moments of a
   shared machine's load; --concurrency client threads send one request after another (a new
   connection each: gunicorn's sync worker closes it anyway):
   * trivial: GET /bench/trivial/, a view that returns "ok" and exists only in
     bench.site_urls: request parsing and the middleware, nothing of the site;
   * turn page: GET /games/<id>/ by the player whose turn it is, each client on its own game,
     played to mid-game beforehand (--turn-page-moves);
   * poll: GET /games/<id>/poll/?status=playing&v=<version>&turn=<turn>, the URL the turn
     page's htmx polls (read from that page's HTML), by the same player of the same game,
     which does not change meanwhile: the answer must be 204 (nothing changed). The first
     poll after a page fills the cache (and writes the player's presence); the warm-up takes
     it, so the measure is the steady state, mostly answered from the cache;
   * move: POST /games/<id>/move/ with a random legal clue or discard (never a play, so games
     last to the end of the deck), alternating the two players of the client's own game. The
     client follows its game with the engine, so it never asks the server what to play, and
     goes on to a fresh game when one ends.
   Every response is checked (200 for the page; 204 and no body for a poll; for a move, a 302
   back to the game that sets no error message); errors are counted, and a run with errors
   says so and exits with 1.
4. Prints requests per second, median and 95th-percentile latency, each median's ratio to the
   trivial view's median and each p95's ratio to the trivial view's p95 in the same run (the
   machine is shared and noisy: compare ratios), the moves committed per second (the move
   measure's successful requests: --concurrency clients, each on its own game), and the SQL
   queries per request, counted once in-process with Django's test client (the poll's after
   one unmeasured poll, as in the steady state), and the CPU per request of gunicorn's workers
   and of the PostgreSQL backends serving the bench's database (read from /proc around each
   turn of each measure; Redis's is not counted, its server being shared; issue 28's capacity
   model in the README is computed from these). Then one line per goal of issue 15, met or
   not, with the measured value.

Players are logged in without the login form: each has a session made by the test client's
force_login(); CSRF is satisfied with a csrftoken cookie and the same value in X-CSRFToken.
"""

from __future__ import annotations

import argparse
import collections
import html
import http.client
import json
import math
import os
import platform
import random
import re
import secrets
import signal
import socket
import statistics
import string
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# Django is imported inside the functions that need it: its settings read the environment,
# which main() sets first. The engine has no Django import.

from bench.services import empty_broker_queue, recreate_database  # noqa: E402
from games.engine import (  # noqa: E402  (after the path is set)
    Clue,
    Discard,
    GameOptions,
    GameState,
    Play,
    new_game,
)

VAR_DIR = ROOT / "var" / "bench"
TRIVIAL_PATH = "/bench/trivial/"
TRIVIAL, TURN_PAGE, POLL, MOVE = "trivial view", "turn page", "poll", "move"  # what is measured
# The turn page's htmx poll, as the page writes it (&amp; in the attribute).
POLL_URL = re.compile(r'hx-get="(/games/\d+/poll/\?[^"]*)"')
OPTIONS = GameOptions(players=2)
# A two-player game of clues and discards lasts about 90 moves (40 discards empty the deck);
# count on fewer, and on a fast machine, so that no client runs out of games.
MOVES_PER_GAME_AT_LEAST = 60
MOVES_PER_SECOND_PER_CLIENT_AT_MOST = 150


class BadResponse(Exception):
    """The server answered something other than what a working site answers."""


class OutOfGames(Exception):
    """A move client played every game prepared for it."""


# -- options and environment ----------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10, help="length of each measure")
    parser.add_argument("--rounds", type=int, default=3, help="turns the measures take")
    parser.add_argument("--warmup", type=float, default=1, help="unmeasured seconds before each")
    parser.add_argument("--concurrency", type=int, default=4, help="client threads")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers")
    parser.add_argument("--turn-page-moves", type=int, default=30, help="moves before the page")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    parser.add_argument("--database", default="hanabi_bench", help="dropped and recreated")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/15")
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=None,
        help="keep database connections this many seconds (default: the site's setting, "
        "a new connection per request); for trying what persistent connections gain",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser.parse_args()


def configure_environment(args: argparse.Namespace) -> None:
    """The environment the site reads its settings from, here and in gunicorn: production's
    (DEBUG off, PostgreSQL, Redis), with the bench's database and URLs."""
    database_url = f"{args.pg.rstrip('/')}/{args.database}"
    if args.conn_max_age is not None:
        database_url += f"?conn_max_age={args.conn_max_age}"
    os.environ.update(
        DJANGO_SETTINGS_MODULE="bench.site_settings",
        DATABASE_URL=database_url,
        REDIS_URL=args.redis_url,
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="false",
        # testserver: the in-process test client that counts queries.
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        VAR_DIR=str(VAR_DIR),
        LOG_LEVEL="WARNING",
    )
    # Email goes to files under VAR_DIR, never to a real server.
    os.environ.pop("EMAIL_URL", None)


# -- the games the clients play -------------------------------------------------------------


@dataclass
class BenchGame:
    game_id: int
    seed: int
    sessions: list[str]  # session cookie of each seat's player, by seat position
    current_seat: int  # whose turn it was once the game was prepared

    @property
    def path(self) -> str:
        return f"/games/{self.game_id}/"


def next_action(state: GameState, rng: random.Random):
    """A random legal clue or discard: never a play, so that games run to the end of the deck
    (a misplay would end them early)."""
    return rng.choice([action for action in state.legal_actions() if not isinstance(action, Play)])


def move_form(action, turn: int) -> dict:
    """The fields the turn page's forms post for this action."""
    if isinstance(action, Clue):
        value = {"colour": action.colour} if action.colour else {"rank": action.rank}
        return {"kind": "clue", "target": action.target, **value, "turn": turn}
    kind = "discard" if isinstance(action, Discard) else "play"
    form = {"kind": kind, "card": action.card_id, "turn": turn}
    if kind == "play":
        form["confirmed"] = "yes"  # skip the confirmation page
    return form


@dataclass
class Fixtures:
    turn_page_games: list[BenchGame]  # one per client, played to mid-game
    move_games: list[list[BenchGame]]  # a queue of fresh games per client
    queries: dict[str, int] = field(default_factory=dict)


def prepare_site(args: argparse.Namespace) -> Fixtures:
    """Migrate, collect static files, and create the players and games, in this process."""
    import django
    from django.core.management import call_command

    django.setup()
    clear_site_cache(args.redis_url)
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)

    games_per_client = math.ceil(
        (args.seconds + args.warmup) * MOVES_PER_SECOND_PER_CLIENT_AT_MOST / MOVES_PER_GAME_AT_LEAST
    )
    fixtures = Fixtures(turn_page_games=[], move_games=[])
    for client in range(args.concurrency):
        players = [make_player(f"bench-{client}-{letter}") for letter in "ab"]
        fixtures.turn_page_games.append(started_game(players, moves=args.turn_page_moves))
        fixtures.move_games.append([started_game(players) for _ in range(games_per_client)])
    fixtures.queries = count_queries(args)

    from django.db import connections

    connections.close_all()
    return fixtures


def clear_site_cache(redis_url: str) -> None:
    """Delete the site cache's keys that an earlier run left in the bench's Redis database:
    the recreated database numbers its games from 1 again, and a game's cached version (only
    ever raised) or anything else cached by game would belong to another game."""
    import redis
    from django.core.cache import cache

    pattern = cache.make_key("*")  # the cache's prefix and version, any key
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=pattern, count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def poll_path(page: bytes) -> str:
    """The poll URL of a rendered turn page, as htmx requests it."""
    found = POLL_URL.findall(page.decode(errors="replace"))
    if len(found) != 1:
        raise BadResponse(f'turn page: {len(found)} poll URLs (hx-get="/games/<id>/poll/?…")')
    path = html.unescape(found[0])
    if "status=playing" not in path or "v=" not in path:
        raise BadResponse(f"turn page: unexpected poll URL {path!r}")
    return path


_sessions: dict[int, str] = {}


def make_player(name: str):
    from accounts.models import User

    return User.objects.create_user(f"{name}@example.com", password=None, display_name=name)


def session_of(user) -> str:
    """A logged-in session for the user (one per user, made once)."""
    from django.test import Client

    if user.pk not in _sessions:
        client = Client()
        client.force_login(user)
        _sessions[user.pk] = client.cookies["sessionid"].value
    return _sessions[user.pk]


def started_game(players: list, moves: int = 0) -> BenchGame:
    """A two-player game created, joined and started through the services, then `moves`
    moves into play."""
    from games.engine import action_to_dict
    from games.models import Game
    from games.services import lobby, play

    game = lobby.create_game(players[0], OPTIONS, Game.Visibility.INVITE)
    lobby.join_game(game.pk, players[1], game.invite_code)
    game = lobby.start_game(game.pk, players[0])
    # The start shuffles the players into their seats.
    users_by_seat = [seat.user for seat in game.seats.select_related("user").order_by("position")]
    state = new_game(OPTIONS, seed=game.seed)
    rng = random.Random(game.seed)
    for _ in range(moves):
        action = next_action(state, rng)
        user = users_by_seat[state.current_seat]
        play.submit_action(game.pk, user, action_to_dict(action), state.turn)
        state.apply(action)
    sessions = [session_of(user) for user in users_by_seat]
    return BenchGame(game.pk, game.seed, sessions, state.current_seat)


def count_queries(args: argparse.Namespace) -> dict[str, int]:
    """SQL queries per request, with Django's test client in this process, on a game of its
    own: what each measured request costs the database."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    players = [make_player(f"bench-queries-{letter}") for letter in "ab"]
    # A fresh game, whose next move is easy to know. The turn page's count does not depend
    # on the number of moves played (tests/games/test_turn_page.py holds it).
    bench_game = started_game(players)
    state = new_game(OPTIONS, seed=bench_game.seed)
    player = Client()
    player.cookies["sessionid"] = bench_game.sessions[state.current_seat]
    form = move_form(next_action(state, random.Random(0)), state.turn)
    # The first request fills caches (content types, templates); its page gives the poll URL.
    poll = poll_path(player.get(bench_game.path).content)
    # The first poll after a page writes the player's presence (and, were the page not to,
    # fills the poll's cache): count the steady state, as the measure does.
    if (status := player.get(poll).status_code) != 204:
        raise RuntimeError(f"counting queries: the first poll answered {status}")
    requests = {  # in this order: the move changes the game, after which a poll is not 204
        # Without cookies, as the measure sends it.
        TRIVIAL: (lambda: Client().get(TRIVIAL_PATH), 200),
        TURN_PAGE: (lambda: player.get(bench_game.path), 200),
        POLL: (lambda: player.get(poll), 204),
        MOVE: (lambda: player.post(f"{bench_game.path}move/", form), 302),
    }
    counts = {}
    for name, (request, expected_status) in requests.items():
        with CaptureQueriesContext(connection) as captured:
            status = request().status_code
        if status != expected_status:
            raise RuntimeError(f"counting queries: {name} answered {status}")
        counts[name] = sum(not _transaction_control(q["sql"]) for q in captured.captured_queries)
    return counts


def _transaction_control(sql: str) -> bool:
    """BEGIN, COMMIT, savepoints: not counted as queries (a move's transaction adds two)."""
    return sql.lstrip().upper().startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK"))


# -- gunicorn -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(workers: int) -> Iterator[int]:
    """A running gunicorn (the Procfile's, on a free local port), stopped on the way out
    whatever happens; yields the port."""
    port = free_port()
    log_path = VAR_DIR / "gunicorn.log"
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "hanabi_site.wsgi",
        "--chdir",
        str(ROOT),
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "sync",
        "--error-logfile",
        str(log_path),
    ]
    with open(log_path, "w") as log:
        # A session of its own: Ctrl-C in the terminal reaches only this script, which then
        # stops gunicorn and its workers as a group.
        process = subprocess.Popen(
            command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    global _gunicorn_pid
    _gunicorn_pid = process.pid
    try:
        wait_until_answering(port, process, log_path)
        yield port
    finally:
        _gunicorn_pid = None
        stop(process)


def wait_until_answering(port: int, process: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited at start:\n{tail(log_path)}")
        try:
            if send(port, "GET", TRIVIAL_PATH).status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer within 60 s:\n{tail(log_path)}")


def stop(process: subprocess.Popen) -> None:
    """Stop gunicorn's master and workers: SIGTERM to the group, SIGKILL if it lingers."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def tail(path: Path, lines: int = 30) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


# -- HTTP -----------------------------------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    seconds: float  # from connecting to the last byte


def send(
    port: int, method: str, path: str, headers: dict | None = None, body: str | None = None
) -> Response:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        content = response.read()
    finally:
        connection.close()
    return Response(response.status, response.headers, content, time.perf_counter() - started)


def random_csrf_secret() -> str:
    """What Django keeps in the csrftoken cookie; it accepts it unmasked in X-CSRFToken."""
    return "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))


def logged_in_headers(session: str, csrf: str) -> dict:
    return {"Cookie": f"sessionid={session}; csrftoken={csrf}", "X-CSRFToken": csrf}


def describe(response: Response) -> str:
    """The status, where it redirects, and the page's title (or the start of the body)."""
    text = response.body.decode(errors="replace")
    title = re.search(r"<title>(.*?)</title>", text, re.DOTALL)
    summary = " ".join((title.group(1) if title else text[:100]).split())
    location = response.headers.get("Location")
    return f"{response.status}" + (f" -> {location}" if location else "") + f": {summary!r}"


# -- the clients: each call makes one request, checks it, and returns its latency -------------


def trivial_client(port: int) -> Callable[[], float]:
    def request() -> float:
        response = send(port, "GET", TRIVIAL_PATH)
        if response.status != 200 or response.body != b"ok":
            raise BadResponse(f"trivial: {describe(response)}")
        return response.seconds

    return request


def turn_page_client(port: int, game: BenchGame, csrf: str) -> Callable[[], float]:
    # The page of the player whose turn it is: it carries the forms, the heavier page.
    headers = logged_in_headers(game.sessions[game.current_seat], csrf)

    def request() -> float:
        response = send(port, "GET", game.path, headers)
        if response.status != 200:
            raise BadResponse(f"turn page: {describe(response)}")
        return response.seconds

    return request


class PollClient:
    """Polls the turn page's game as that page's player, as htmx does; the game does not
    change meanwhile, so every answer must be 204 (nothing to transfer)."""

    def __init__(self, port: int, game: BenchGame, csrf: str) -> None:
        self.port = port
        self.game = game
        self.headers = logged_in_headers(game.sessions[game.current_seat], csrf)
        self.path: str | None = None  # read from the page at the first call

    def __call__(self) -> float:
        if self.path is None:
            page = send(self.port, "GET", self.game.path, self.headers)
            if page.status != 200:
                raise BadResponse(f"poll: its turn page answered {describe(page)}")
            self.path = poll_path(page.body)
        response = send(self.port, "GET", self.path, {**self.headers, "HX-Request": "true"})
        if response.status != 204 or response.body:
            raise BadResponse(f"poll: {describe(response)}")
        return response.seconds


class MoveClient:
    """Plays its queue of games one move per request, both players in turn."""

    def __init__(self, port: int, games: list[BenchGame], csrf: str) -> None:
        self.port = port
        self.games = iter(games)
        self.csrf = csrf
        self.next_game()

    def next_game(self) -> None:
        self.game = next(self.games, None)
        if self.game is not None:
            self.state = new_game(OPTIONS, seed=self.game.seed)
            self.rng = random.Random(self.game.seed)

    def __call__(self) -> float:
        if self.game is None:
            raise OutOfGames("a move client played every game prepared for it")
        action = next_action(self.state, self.rng)
        session = self.game.sessions[self.state.current_seat]
        body = urlencode(move_form(action, self.state.turn))
        headers = {
            **logged_in_headers(session, self.csrf),
            "Content-Type": "application/x-www-form-urlencoded",
        }
        response = send(self.port, "POST", f"{self.game.path}move/", headers, body)
        # Success is a redirect back to the game; a refused move also says why in a message.
        refused = "messages=" in (response.headers.get("Set-Cookie") or "")
        if response.status != 302 or response.headers.get("Location") != self.game.path or refused:
            self.next_game()  # the server's game and ours may differ now: leave this one
            raise BadResponse(f"move: {describe(response)}")
        self.state.apply(action)
        if self.state.is_over:
            self.next_game()
        return response.seconds


# -- measuring ------------------------------------------------------------------------------


@dataclass
class Measure:
    name: str
    latencies: list[float] = field(default_factory=list)  # seconds, successful requests only
    errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    web_cpu: float = 0.0  # seconds of CPU of gunicorn's workers during the measure
    database_cpu: float = 0.0  # … of the PostgreSQL backends serving the bench's database

    def add(self, other: Measure) -> None:
        self.latencies += other.latencies
        self.errors += other.errors
        self.elapsed += other.elapsed
        self.web_cpu += other.web_cpu
        self.database_cpu += other.database_cpu

    def cpu_ms_per_request(self, seconds: float) -> float:
        return seconds / len(self.latencies) * 1000 if self.latencies else math.nan

    @property
    def requests_per_second(self) -> float:
        return len(self.latencies) / self.elapsed if self.elapsed else 0.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.latencies) * 1000 if self.latencies else math.nan

    @property
    def p95_ms(self) -> float:
        if len(self.latencies) < 2:
            return math.nan
        return statistics.quantiles(self.latencies, n=20, method="inclusive")[18] * 1000


def run_clients(name: str, clients: list[Callable[[], float]], seconds: float) -> Measure:
    """Each client in its own thread, one request after another, for `seconds`."""
    measure = Measure(name)
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def loop(client: Callable[[], float]) -> None:
        latencies, errors = [], []
        while time.perf_counter() < deadline:
            try:
                latencies.append(client())
            except OutOfGames as error:
                errors.append(str(error))
                break
            except (BadResponse, OSError, http.client.HTTPException) as error:
                errors.append(f"{type(error).__name__}: {error}")
        with lock:
            measure.latencies.extend(latencies)
            measure.errors.extend(errors)

    threads = [threading.Thread(target=loop, args=(client,), daemon=True) for client in clients]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    measure.elapsed = time.perf_counter() - started
    return measure


def run_benchmark(args: argparse.Namespace, port: int, fixtures: Fixtures) -> list[Measure]:
    """Each measure for --seconds in all, in --rounds turns (trivial, turn page, poll, move,
    trivial, …): on a shared machine the load changes by the minute, and taking turns gives every
    measure its share of each moment, so that the ratios compare like with like."""
    csrf = random_csrf_secret()
    clients = {
        TRIVIAL: [trivial_client(port) for _ in range(args.concurrency)],
        TURN_PAGE: [turn_page_client(port, game, csrf) for game in fixtures.turn_page_games],
        POLL: [PollClient(port, game, csrf) for game in fixtures.turn_page_games],
        MOVE: [MoveClient(port, games, csrf) for games in fixtures.move_games],
    }
    # Gunicorn's workers load Django one by one; let them all finish before anything counts.
    run_clients("start", clients[TRIVIAL], max(args.warmup, 2))
    measures = {name: Measure(name) for name in clients}
    # A warm-up of each: every worker compiles its templates, each poll client reads its
    # page's poll URL and its first poll fills the cache. Its errors count too.
    for name, group in clients.items():
        warmup = run_clients(name, group, args.warmup)
        measures[name].errors += [f"(warm-up) {error}" for error in warmup.errors]
    for _ in range(args.rounds):
        for name, group in clients.items():
            before = server_cpu(args.database)
            measure = run_clients(name, group, args.seconds / args.rounds)
            after = server_cpu(args.database)
            measure.web_cpu, measure.database_cpu = cpu_spent(before, after)
            measures[name].add(measure)
    return list(measures.values())


# -- CPU of the server's processes ------------------------------------------------------------

_gunicorn_pid: int | None = None  # gunicorn's master, while it runs


def process_cpu(pid: int) -> float | None:
    """The process's user and system CPU seconds so far (Linux's /proc), None once it has
    gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


def server_cpu(database: str) -> tuple[dict[int, float], dict[int, float]]:
    """CPU seconds so far of each gunicorn worker, and of each PostgreSQL backend connected
    to the bench's database (the workers' persistent connections; this query's own left
    out). Redis's CPU is not counted: the server is shared with other work on this machine."""
    import psycopg

    workers = children_of(_gunicorn_pid) if _gunicorn_pid else []
    with psycopg.connect(os.environ["DATABASE_URL"].split("?")[0], autocommit=True) as connection:
        backends = [
            pid
            for (pid,) in connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [database],
            )
        ]
    return (
        {pid: cpu for pid in workers if (cpu := process_cpu(pid)) is not None},
        {pid: cpu for pid in backends if (cpu := process_cpu(pid)) is not None},
    )


def cpu_spent(before, after) -> tuple[float, float]:
    """CPU seconds spent between two `server_cpu` readings, by the web and by the database
    (a process that started between them counts in full)."""
    return tuple(
        sum(cpu - then.get(pid, 0.0) for pid, cpu in now.items())
        for then, now in zip(before, after, strict=True)
    )


# -- the report -----------------------------------------------------------------------------


def machine() -> dict:
    import django
    import gunicorn as gunicorn_package
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"].split("?")[0]) as connection:
        postgresql = connection.info.parameter_status("server_version")
    return {
        "python": platform.python_version(),
        "django": django.get_version(),
        "gunicorn": gunicorn_package.__version__,
        "postgresql": postgresql,
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
    }


# Issue 15's goals: (what, measure, row field, at most / at least, bound, unit).
GOALS = [
    ("turn page p95 ratio", TURN_PAGE, "p95_vs_trivial", "≤", 2, "×"),
    ("poll p95 ratio", POLL, "p95_vs_trivial", "≤", 1.5, "×"),
    ("move p95 ratio", MOVE, "p95_vs_trivial", "≤", 4, "×"),
    ("moves/s committed", MOVE, "requests_per_second", "≥", 150, ""),
    ("turn page SQL queries", TURN_PAGE, "sql_queries", "≤", 3, ""),
    ("poll SQL queries", POLL, "sql_queries", "≤", 0, ""),
    ("move SQL queries", MOVE, "sql_queries", "≤", 6, ""),
]


def goals(rows: dict) -> list[dict]:
    """Each goal with its measured value and whether it is met (NaN, no figure: not met)."""
    checked = []
    for what, name, key, sense, bound, unit in GOALS:
        value = rows[name][key]
        met = value <= bound if sense == "≤" else value >= bound  # False for NaN
        checked.append(
            {"goal": what, "value": value, "bound": f"{sense} {bound:g}{unit}", "met": met}
        )
    return checked


def site_cache() -> dict:
    """The cache the site uses, here and so in gunicorn (the same environment): polls are
    answered from it only when it is Redis and POLL_FROM_CACHE is on, as in production."""
    from django.conf import settings
    from django.core.cache import DEFAULT_CACHE_ALIAS, caches

    cache = caches[DEFAULT_CACHE_ALIAS]
    return {"cache": type(cache).__name__, "poll_from_cache": settings.POLL_FROM_CACHE}


def report(args, measures: list[Measure], fixtures: Fixtures, context: dict) -> dict:
    floor, floor_p95 = measures[0].median_ms, measures[0].p95_ms
    rows = {
        m.name: {
            "requests_per_second": round(m.requests_per_second, 1),
            "median_ms": round(m.median_ms, 2),
            "p95_ms": round(m.p95_ms, 2),
            "median_vs_trivial": round(m.median_ms / floor, 2),
            "p95_vs_trivial": round(m.p95_ms / floor_p95, 2),
            "requests": len(m.latencies),
            "errors": len(m.errors),
            "sql_queries": fixtures.queries[m.name],
            "web_cpu_ms": round(m.cpu_ms_per_request(m.web_cpu), 3),
            "database_cpu_ms": round(m.cpu_ms_per_request(m.database_cpu), 3),
        }
        for m in measures
    }
    for row in rows.values():
        row["web_cpu_vs_trivial"] = round(row["web_cpu_ms"] / rows[TRIVIAL]["web_cpu_ms"], 2)
    return {
        "command": " ".join([".venv/bin/python", "bench/site.py", *sys.argv[1:]]),
        "seconds": args.seconds,
        "rounds": args.rounds,
        "concurrency": args.concurrency,
        "workers": args.workers,
        "turn_page_moves": args.turn_page_moves,
        "conn_max_age": args.conn_max_age,
        **context,
        "results": rows,
        # The move measure's successful requests: each committed one move.
        "moves_per_second_committed": rows[MOVE]["requests_per_second"],
        "goals": goals(rows),
        "errors": sum(len(m.errors) for m in measures),
        # The same error usually repeats: each distinct message once, with its count.
        "error_counts": dict(
            collections.Counter(e for m in measures for e in m.errors).most_common(10)
        ),
    }


def print_table(result: dict) -> None:
    print(
        f"Site benchmark: gunicorn, {result['workers']} sync workers; "
        f"{result['concurrency']} client threads; {result['seconds']:g} s per measure "
        f"in {result['rounds']} rounds; "
        f"turn page at move {result['turn_page_moves']}"
    )
    m = result["machine"]
    print(
        f"Python {m['python']}, Django {m['django']}, gunicorn {m['gunicorn']}, "
        f"PostgreSQL {m['postgresql']}, {m['cpus']} CPUs; load average "
        f"{result['load_before']} before, {result['load_after']} after"
    )
    print(f"Site cache: {result['cache']}; POLL_FROM_CACHE {result['poll_from_cache']}")
    print()
    header = (
        f"{'':14} {'req/s':>8} {'median ms':>10} {'p95 ms':>8} {'median ×':>9} {'p95 ×':>7} "
        f"{'SQL':>4} {'errors':>6} {'web CPU ms':>10} {'PG CPU ms':>9}"
    )
    print(header)
    print("-" * len(header))
    for name, row in result["results"].items():
        print(
            f"{name:14} {row['requests_per_second']:8.1f} {row['median_ms']:10.2f} "
            f"{row['p95_ms']:8.2f} {row['median_vs_trivial']:9.2f} {row['p95_vs_trivial']:7.2f} "
            f"{row['sql_queries']:>4} {row['errors']:>6} {row['web_cpu_ms']:10.3f} "
            f"{row['database_cpu_ms']:9.3f}"
        )
    print()
    print(
        f"moves/s committed: {result['moves_per_second_committed']:.1f} "
        f"({result['concurrency']} clients, each on its own game)"
    )
    print()
    print("median ×, p95 ×: over the trivial view's median, p95, measured in the same run.")
    print("poll: an unchanged game's poll (204), in the steady state (after the page's first).")
    print(
        "web CPU ms, PG CPU ms: CPU per request of gunicorn's workers and of the PostgreSQL "
        "backends of the bench's database (Redis's and the clients' not counted)."
    )
    print(
        "SQL: queries per request, counted in-process with Django's test client "
        "(BEGIN and COMMIT not counted)."
    )
    if result["broker_tasks_queued"]:
        print(f"{result['broker_tasks_queued']} Celery tasks were queued (and dropped).")
    print()
    print("Goals (issue 15):")
    for goal in result["goals"]:
        unit = "×" if goal["bound"].endswith("×") else ""
        print(
            f"  {goal['goal']} {goal['value']:g}{unit} (goal {goal['bound']}): "
            f"{'met' if goal['met'] else 'not met'}"
        )


def shout_errors(result: dict) -> None:
    banner = "!" * 78
    print(banner, file=sys.stderr)
    print(f"THE RUN HAD {result['errors']} ERRORS: its figures are not valid.", file=sys.stderr)
    for name, row in result["results"].items():
        if row["errors"]:
            print(f"  {name}: {row['errors']} errors", file=sys.stderr)
    for message, count in result["error_counts"].items():
        print(f"  {count} × {message}", file=sys.stderr)
    print(f"gunicorn's log: {VAR_DIR / 'gunicorn.log'}", file=sys.stderr)
    print(banner, file=sys.stderr)


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def interrupted(*_) -> None:
    """SIGTERM unwinds like Ctrl-C, so that gunicorn is stopped on the way out."""
    raise KeyboardInterrupt


def main() -> int:
    args = parse_args()
    signal.signal(signal.SIGTERM, interrupted)
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    configure_environment(args)
    say = (lambda *_: None) if args.json else (lambda text: print(text, file=sys.stderr))

    say(f"recreating database {args.database}, migrating, creating games…")
    recreate_database(args.pg, args.database)
    fixtures = prepare_site(args)
    # Count only what the measured requests queue, not the moves played while preparing.
    empty_broker_queue(args.redis_url)
    context = {"machine": machine(), **site_cache(), "load_before": load()}
    say(f"starting gunicorn with {args.workers} workers and measuring…")
    with gunicorn(args.workers) as port:
        measures = run_benchmark(args, port, fixtures)
    context["load_after"] = load()
    context["broker_tasks_queued"] = empty_broker_queue(args.redis_url)

    result = report(args, measures, fixtures, context)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    if result["errors"]:
        shout_errors(result)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted (gunicorn, if it was started, is stopped)", file=sys.stderr)
        sys.exit(130)
