"""The site spread over several hosts, as production runs it, on one machine. Not a test.

    .venv/bin/python bench/multihost.py          # as root: it makes network namespaces
    .venv/bin/python bench/multihost.py --json   # no progress lines on stderr

It prints a JSON summary and exits with 1 if a committed move was lost or duplicated or a
request went wrong. The run plays the code at HEAD: it copies HEAD's tree to a temporary
directory (with its own three files as they are in the checkout) and runs from there.

Every host is a Linux network namespace of its own (bench/netns.py), all on one bridge that
lives in a namespace too, so no packet touches the machine's network, and nothing here uses
the PostgreSQL or Redis on 127.0.0.1:

    db      10.77.0.2   a private PostgreSQL cluster (initdb into a temporary directory)
    redis   10.77.0.3   a private redis-server: the cache, the sessions, Celery's broker, push
    proxy   10.77.0.10  bench/tcp_proxy.py: :8000 to web1 and web2 in turn, :8081 to web1
                        only, :8001 to push
    web1    10.77.0.11  the Procfile's `web` (gunicorn, --workers WEB_CONCURRENCY)
    web2    10.77.0.12  the same
    push    10.77.0.20  the Procfile's `push` (uvicorn)
    worker  10.77.0.30  the Procfile's `worker` (celery)
    client  10.77.0.100 this process, once the hosts are up: migrations, the players and
                        games (through games.services, as bench/site.py makes them), and the
                        client threads

The hosts run the production settings (hanabi_site.settings, DEBUG off, DATABASE_URL,
REDIS_URL, SECRET_KEY, ALLOWED_HOSTS, SITE_URL set as a deployment sets them), each with its
own VAR_DIR.

Clients play as the turn page's form does: POST /games/<id>/move/ with the action and the
turn the page showed, each client on its own two-player games (both seats, clues and
discards, as bench/site.py's move measure). A move is committed when the answer is the
redirect back to the game. A request with no answer (the connection cut, a 5xx) has an
unknown outcome: the client sends the same form again, with the same turn, until it has an
answer; if the first one was applied, the site refuses the second as stale (409), and the
client counts its move as committed, once.

1. Scaling: --rounds rounds of --seconds each through :8081 (one web host), then through
   :8000 (two): moves committed per second with one and with two web hosts, their ratio, and
   the CPU every host used meanwhile (this machine's cores are shared by all the hosts: the
   ratio says what a second host adds on the same CPUs, not on a machine of its own).
2. A web host killed: --kill-seconds through :8000; a third of the way in, web1's gunicorn
   (master and workers) gets SIGKILL; two thirds in, it is started again, and the clients
   play on until it has been healthy for a third of --kill-seconds. Counted: the requests
   that failed and were sent again, the moves confirmed by a stale refusal, the seconds web1
   was out of the proxy's rotation (its health check, GET /healthz every second), and the
   connections web1 took after its return.
3. The check: every move a client saw committed is in the database once, at the turn it was
   sent for, with the same action; each game's moves are turns 0, 1, 2, … with no gap; no
   Move row that no client saw committed; each game's turn counter equals its moves.

Everything it started is stopped, and the namespaces deleted, on the way out, whatever
happens (Ctrl-C, SIGTERM, an error); namespaces left by a run that was killed with SIGKILL
are deleted by the next run. The hosts' logs are kept in var/bench/multihost/.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import math
import os
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.netns import Lab, machine_busy_seconds, remove_stale_labs  # noqa: E402
from bench.site import (  # noqa: E402
    OPTIONS,
    BadResponse,
    BenchGame,
    OutOfGames,
    describe,
    load,
    logged_in_headers,
    make_player,
    move_form,
    next_action,
    random_csrf_secret,
    started_game,
    tail,
)
from games.engine import action_from_dict, action_to_dict, new_game  # noqa: E402

# The run plays the code at HEAD (plus this benchmark's own files as they are in the checkout),
# copied to its temporary directory: a checkout that changes meanwhile does not change what a
# host runs, nor what a restarted host runs. MULTIHOST_WORKDIR is set once it is there.
OWN_FILES = ["bench/multihost.py", "bench/netns.py", "bench/tcp_proxy.py"]
CHECKOUT = Path(os.environ.get("MULTIHOST_CHECKOUT", ROOT))
LOG_DIR = CHECKOUT / "var" / "bench" / "multihost"
PG_BIN = (
    sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]
    if Path("/usr/lib/postgresql").exists()
    else None
)
HOSTS = {"db": 2, "redis": 3, "proxy": 10, "web1": 11, "web2": 12, "push": 20, "worker": 30}
CLIENT = ("client", 100)
WEB_PORT, PUSH_PORT, PG_PORT, REDIS_PORT = 8000, 8001, 5432, 6379
BOTH_PORT, ONE_PORT = 8000, 8081  # the proxy's routes: web1 and web2, web1 only
MOVES_PER_GAME_AT_LEAST = 60
MOVES_PER_SECOND_PER_CLIENT_AT_MOST = 40
RETRY_PAUSE = 0.05
ATTEMPTS_AT_MOST = 200  # 10 s of retries and more: longer than a host takes to fail over


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=6, help="client threads, a game each")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers per web host")
    parser.add_argument("--seconds", type=float, default=30, help="per host count, in all")
    parser.add_argument("--rounds", type=int, default=3, help="turns of one host, two hosts")
    parser.add_argument("--warmup", type=float, default=3, help="unmeasured seconds first")
    parser.add_argument("--kill-seconds", type=float, default=30, help="the run with a kill")
    parser.add_argument("--json", action="store_true", help="no progress lines on stderr")
    return parser.parse_args()


# -- the hosts ---------------------------------------------------------------------------------


class Site:
    """The lab's hosts and the processes running on them."""

    def __init__(self, lab: Lab, workdir: Path, workers: int) -> None:
        self.lab = lab
        self.workdir = workdir
        self.workers = workers
        self.processes: dict[str, subprocess.Popen] = {}
        self.secret_key = secrets.token_urlsafe(50)

    def address(self, host: str) -> str:
        return self.lab.hosts[host]

    @property
    def database_url(self) -> str:
        return f"postgres://postgres@{self.address('db')}:{PG_PORT}/hanabi"

    @property
    def redis_url(self) -> str:
        return f"redis://{self.address('redis')}:{REDIS_PORT}/0"

    def environment(self, host: str) -> dict:
        """What a deployment sets on each host (docs/OPERATIONS.md, "Running on several
        machines"): the same everywhere but VAR_DIR, which is the host's own disk."""
        var_dir = self.workdir / f"var-{host}"
        var_dir.mkdir(exist_ok=True)
        environment = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DATABASE_URL", "REDIS_URL", "EMAIL_URL", "DJANGO_SETTINGS_MODULE"}
        }
        web_hosts = ",".join(self.address(name) for name in ("proxy", "web1", "web2", "push"))
        environment.update(
            DJANGO_SETTINGS_MODULE="hanabi_site.settings",
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            SECRET_KEY=self.secret_key,
            DEBUG="false",
            ALLOWED_HOSTS=web_hosts,
            SITE_URL=f"http://{self.address('proxy')}:{WEB_PORT}",
            STATIC_ROOT=str(self.workdir / "static"),
            VAR_DIR=str(var_dir),
            LOG_LEVEL="WARNING",
            WEB_CONCURRENCY=str(self.workers),
        )
        return environment

    def log(self, host: str) -> Path:
        return LOG_DIR / f"{host}.log"

    def start(self, host: str, command: list[str], **popen) -> subprocess.Popen:
        process = self.lab.start(host, command, self.log(host), **popen)
        self.processes[host] = process
        return process

    # PostgreSQL and Redis -----------------------------------------------------------------

    def start_postgresql(self) -> None:
        if PG_BIN is None:
            raise RuntimeError("no PostgreSQL under /usr/lib/postgresql/*/bin")
        data, sockets = self.workdir / "pgdata", self.workdir / "pgsocket"
        for folder in (data, sockets):
            folder.mkdir()
            shutil.chown(folder, "postgres", "postgres")
        as_postgres = ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"]
        subprocess.run(
            [*as_postgres, str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres"]
            + ["--auth=trust", "--encoding=UTF8", "--no-sync"],
            check=True,
            capture_output=True,
        )
        with open(data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {self.lab.subnet}.0/24 trust\n")
        self.start(
            "db",
            [*as_postgres, str(PG_BIN / "postgres"), "-D", str(data)]
            + ["-c", f"listen_addresses={self.address('db')}", "-c", f"port={PG_PORT}"]
            + ["-c", f"unix_socket_directories={sockets}"],
        )

    def start_redis(self) -> None:
        folder = self.workdir / "redis"
        folder.mkdir()
        self.start(
            "redis",
            ["redis-server", "--bind", self.address("redis"), "--port", str(REDIS_PORT)]
            + ["--save", "", "--appendonly", "no", "--protected-mode", "no"]
            + ["--dir", str(folder)],
        )

    def wait_for_services(self) -> None:
        import psycopg
        import redis

        deadline = time.monotonic() + 60
        server = f"postgres://postgres@{self.address('db')}:{PG_PORT}/postgres"
        while True:
            try:
                with psycopg.connect(server, autocommit=True, connect_timeout=2) as connection:
                    connection.execute("CREATE DATABASE hanabi")
                break
            except psycopg.OperationalError:
                self.check_running("db")
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
        client = redis.Redis.from_url(self.redis_url)
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                self.check_running("redis")
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        client.close()

    def check_running(self, host: str) -> None:
        process = self.processes[host]
        if process.poll() is not None:
            raise RuntimeError(f"{host} exited ({process.returncode}):\n{tail(self.log(host))}")

    # The Procfile's processes -------------------------------------------------------------

    def start_web(self, host: str) -> subprocess.Popen:
        # Procfile: gunicorn hanabi_site.wsgi --bind 0.0.0.0:${PORT:-8000} --workers ...
        return self.start(
            host,
            [sys.executable, "-m", "gunicorn", "hanabi_site.wsgi"]
            + ["--bind", f"0.0.0.0:{WEB_PORT}", "--workers", str(self.workers)],
            cwd=ROOT,
            env=self.environment(host),
        )

    def start_push(self) -> None:
        # Procfile: uvicorn hanabi_site.asgi:application --host 0.0.0.0 --port ...
        self.start(
            "push",
            [sys.executable, "-m", "uvicorn", "hanabi_site.asgi:application"]
            + ["--host", "0.0.0.0", "--port", str(PUSH_PORT), "--timeout-graceful-shutdown", "5"],
            cwd=ROOT,
            env=self.environment("push"),
        )

    def start_worker(self) -> None:
        # Procfile: celery -A hanabi_site worker --loglevel=INFO
        self.start(
            "worker",
            [sys.executable, "-m", "celery", "-A", "hanabi_site", "worker", "--loglevel=INFO"],
            cwd=ROOT,
            env=self.environment("worker"),
        )

    def start_proxy(self) -> None:
        web = [f"{self.address(host)}:{WEB_PORT}" for host in ("web1", "web2")]
        self.start(
            "proxy",
            [sys.executable, str(ROOT / "bench" / "tcp_proxy.py")]
            + ["--route", f"0.0.0.0:{BOTH_PORT}={','.join(web)}"]
            + ["--route", f"0.0.0.0:{ONE_PORT}={web[0]}"]
            + ["--route", f"0.0.0.0:{PUSH_PORT}={self.address('push')}:{PUSH_PORT}"]
            + ["--health-path", "/healthz", "--health-interval", "1"]
            + ["--stats", str(self.workdir / "proxy.json")],
        )

    def wait_until_healthy(self, host: str, port: int, via: str | None = None) -> float:
        """Seconds until GET /healthz (the database and the broker reachable) answers 200 from
        the host (or through the proxy, `via`)."""
        started = time.monotonic()
        target = self.address(via or host)
        while True:
            try:
                if send(target, port, "GET", "/healthz").status == 200:
                    return time.monotonic() - started
            except (OSError, http.client.HTTPException):
                pass
            self.check_running(host)
            if time.monotonic() - started > 90:
                raise RuntimeError(f"{host} not healthy within 90 s:\n{tail(self.log(host))}")
            time.sleep(0.2)

    def kill(self, host: str) -> None:
        """SIGKILL to the host's server, master and workers at once: a machine that dies."""
        process = self.processes[host]
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def proxy_stats(self) -> dict:
        path = self.workdir / "proxy.json"
        path.unlink(missing_ok=True)
        self.processes["proxy"].send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                return json.loads(path.read_text())
            except (FileNotFoundError, json.JSONDecodeError):
                time.sleep(0.05)
        raise RuntimeError("the proxy wrote no counters")

    def cpu_seconds(self) -> dict:
        """CPU used so far by each host's processes (by pid), by this one (the clients), and
        by the whole machine (everyone's processes: the machine is shared)."""
        used = {host: self.lab.cpu_seconds(host) for host in HOSTS}
        times = os.times()
        used["client"] = {os.getpid(): times.user + times.system}
        used["machine"] = {0: machine_busy_seconds()}
        return used


def cpu_used(before: dict, after: dict) -> dict[str, float]:
    """Each host's CPU seconds between the two readings: the processes alive at the second
    (a process killed between them takes its seconds with it: a lower bound for its host)."""
    return {
        host: sum(seconds - before.get(host, {}).get(pid, 0.0) for pid, seconds in pids.items())
        for host, pids in after.items()
    }


# -- HTTP and the clients ----------------------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes


def send(host: str, port: int, method: str, path: str, headers=None, body=None) -> Response:
    connection = http.client.HTTPConnection(host, port, timeout=20)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return Response(response.status, response.headers, response.read())
    finally:
        connection.close()


@dataclass
class Tally:
    """What the clients did in one part of the run."""

    name: str
    committed: int = 0  # moves the clients saw committed
    confirmed_by_stale: int = 0  # of which: a retry was refused as stale (the first applied)
    requests: int = 0
    retries: int = 0
    failures: collections.Counter = field(default_factory=collections.Counter)
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # first attempt to committed, s
    elapsed: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.committed += other.committed
        self.confirmed_by_stale += other.confirmed_by_stale
        self.requests += other.requests
        self.retries += other.retries
        self.failures.update(other.failures)
        self.errors += other.errors
        self.latencies += other.latencies
        self.elapsed += other.elapsed
        for host, seconds in other.cpu.items():
            self.cpu[host] = self.cpu.get(host, 0.0) + seconds

    @property
    def moves_per_second(self) -> float:
        return self.committed / self.elapsed if self.elapsed else 0.0

    def summary(self) -> dict:
        latencies = sorted(self.latencies)
        p95 = (
            statistics.quantiles(latencies, n=20, method="inclusive")[18]
            if len(latencies) > 1
            else math.nan
        )
        return {
            "seconds": round(self.elapsed, 1),
            "moves_committed": self.committed,
            "moves_per_second": round(self.moves_per_second, 1),
            "move_median_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
            "move_p95_ms": round(p95 * 1000, 1),
            "requests": self.requests,
            "failed_requests": sum(self.failures.values()),
            "failures": dict(self.failures),
            "retries": self.retries,
            "confirmed_by_stale_refusal": self.confirmed_by_stale,
            "errors": len(self.errors),
            # Cores busy on average: each host's processes, all the hosts together, and the
            # whole machine (the hosts and everyone else's work on it).
            "cpu_cores_used": {
                host: round(seconds / self.elapsed, 2)
                for host, seconds in self.cpu.items()
                if host != "machine"
            },
            "cpu_cores_used_by_the_hosts": round(
                sum(s for host, s in self.cpu.items() if host != "machine") / self.elapsed, 2
            ),
            "cpu_cores_busy_on_the_machine": round(self.cpu.get("machine", 0) / self.elapsed, 2),
        }


class Player:
    """Plays its queue of games one move at a time, both seats in turn, as the turn page's
    form posts a move; asks again, the same form with the same turn, after an answer that
    leaves the outcome unknown. Records every move it saw committed."""

    def __init__(self, host: str, games: list[BenchGame], csrf: str) -> None:
        self.host = host
        self.games = iter(games)
        self.csrf = csrf
        self.committed: dict[int, list[tuple[int, dict]]] = {}  # game -> (turn, action)
        self.unresolved: list[tuple[int, int]] = []  # (game, turn) given up on
        self.next_game()

    def next_game(self) -> None:
        self.game = next(self.games, None)
        if self.game is not None:
            self.state = new_game(OPTIONS, seed=self.game.seed)
            self.rng = random.Random(self.game.seed)
            self.committed[self.game.game_id] = []

    def move(self, port: int, tally: Tally) -> None:
        if self.game is None:
            raise OutOfGames("a client played every game prepared for it")
        action = next_action(self.state, self.rng)
        turn = self.state.turn
        path = f"{self.game.path}move/"
        headers = {
            **logged_in_headers(self.game.sessions[self.state.current_seat], self.csrf),
            "Content-Type": "application/x-www-form-urlencoded",
        }
        body = urlencode(move_form(action, turn))
        started = time.perf_counter()
        unknown = False  # an earlier attempt may have been applied
        for attempt in range(ATTEMPTS_AT_MOST):
            if attempt:
                tally.retries += 1
                time.sleep(RETRY_PAUSE)
            tally.requests += 1
            try:
                response = send(self.host, port, "POST", path, headers, body)
            except (OSError, http.client.HTTPException) as error:
                tally.failures[type(error).__name__] += 1
                unknown = True
                continue
            refused = "messages=" in (response.headers.get("Set-Cookie") or "")
            back_to_game = response.status == 302 and response.headers.get("Location") == (
                self.game.path
            )
            if back_to_game and not refused:
                break
            if unknown and (response.status == 409 or (back_to_game and refused)):
                # Refused as stale (or, after the game's last move, as over): only this
                # client plays this game, so the attempt before was applied.
                tally.confirmed_by_stale += 1
                break
            if response.status >= 500:
                tally.failures[f"HTTP {response.status}"] += 1
                # The proxy's 502: no host took the connection, nothing was sent.
                unknown = unknown or response.status != 502
                continue
            game = self.game
            self.next_game()  # the server's game and ours may differ now: leave this one
            raise BadResponse(f"move in game {game.game_id}, turn {turn}: {describe(response)}")
        else:
            self.unresolved.append((self.game.game_id, turn))
            self.next_game()
            raise BadResponse(f"move: no answer after {ATTEMPTS_AT_MOST} attempts")
        tally.committed += 1
        tally.latencies.append(time.perf_counter() - started)
        self.committed[self.game.game_id].append((turn, action_to_dict(action)))
        self.state.apply(action)
        if self.state.is_over:
            self.next_game()


class Deadline:
    """When the clients stop (perf_counter). While held (by what runs beside them), they
    play on; `release` says how much longer they play from then."""

    def __init__(self, seconds: float, held: bool) -> None:
        self.at = time.perf_counter() + seconds
        self.held = held

    def release(self, seconds_from_now: float = 0.0) -> None:
        self.at = max(self.at, time.perf_counter() + seconds_from_now)
        self.held = False

    def passed(self) -> bool:
        return not self.held and time.perf_counter() >= self.at


def play(
    name: str, site: Site, players: list[Player], port: int, seconds: float, during=None
) -> Tally:
    """Every player in its own thread, one move after another, for `seconds` through the
    proxy's `port`; `during`, if given, runs in this thread meanwhile (it gets the start time
    and the deadline, held until it returns or releases it)."""
    tally = Tally(name)
    lock = threading.Lock()
    deadline = Deadline(seconds, held=during is not None)
    ended: list[float] = []

    def loop(player: Player) -> None:
        own = Tally(name)
        while not deadline.passed():
            try:
                player.move(port, own)
            except OutOfGames as error:
                own.errors.append(str(error))
                break
            except BadResponse as error:
                own.errors.append(str(error))
        with lock:
            tally.add(own)
            ended.append(time.perf_counter())

    cpu_before = site.cpu_seconds()
    threads = [threading.Thread(target=loop, args=(p,), daemon=True) for p in players]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    if during is not None:
        try:
            during(started, deadline)
        finally:
            deadline.release()
    for thread in threads:
        thread.join()
    tally.elapsed = max(ended) - started
    cpu_after = site.cpu_seconds()
    tally.cpu = cpu_used(cpu_before, cpu_after)
    return tally


# -- preparing and checking --------------------------------------------------------------------


def prepare_games(args: argparse.Namespace) -> list[list[BenchGame]]:
    """Migrate (the Procfile's `release`), collect the static files, and make each client's
    players and games through the services, in this process."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    seconds = args.warmup + args.seconds * 2 + args.kill_seconds
    per_client = math.ceil(seconds * MOVES_PER_SECOND_PER_CLIENT_AT_MOST / MOVES_PER_GAME_AT_LEAST)
    queues = []
    for client in range(args.clients):
        users = [make_player(f"multihost-{client}-{letter}") for letter in "ab"]
        queues.append([started_game(users) for _ in range(per_client)])
    from django.db import connections

    connections.close_all()
    return queues


def check_database(players: list[Player], queues: list[list[BenchGame]]) -> dict:
    """Every move a client saw committed is in the database once, as it was sent."""
    from django.db import connections

    from games.models import Game, Move

    recorded: dict[int, list[tuple[int, dict]]] = {}
    for player in players:
        recorded.update(player.committed)
    game_ids = [game.game_id for queue in queues for game in queue]
    rows = collections.defaultdict(list)
    for game_id, turn, action in Move.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "turn", "action"
    ):
        rows[game_id].append((turn, action))
    turns = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "turn"))
    check = collections.Counter()
    for game_id in game_ids:
        stored = sorted(rows[game_id], key=lambda row: row[0])
        seen = recorded.get(game_id, [])
        stored_turns = [turn for turn, _ in stored]
        stored_by_turn = dict(stored)
        seen_turns = {turn for turn, _ in seen}
        check["games_played"] += bool(seen)
        check["moves_in_database"] += len(stored)
        check["moves_clients_saw_committed"] += len(seen)
        check["games_with_a_gap_in_turns"] += stored_turns != list(range(len(stored)))
        check["duplicated_turns"] += len(stored_turns) - len(set(stored_turns))
        check["games_whose_turn_counter_differs"] += turns[game_id] != len(stored)
        for turn, action in seen:
            if turn not in stored_by_turn:
                check["lost"] += 1
            elif action_from_dict(stored_by_turn[turn]) != action_from_dict(action):
                check["stored_with_another_action"] += 1
        check["rows_no_client_saw_committed"] += sum(t not in seen_turns for t in stored_turns)
    connections.close_all()
    keys = [
        "games_played",
        "moves_clients_saw_committed",
        "moves_in_database",
        "lost",
        "duplicated_turns",
        "rows_no_client_saw_committed",
        "stored_with_another_action",
        "games_with_a_gap_in_turns",
        "games_whose_turn_counter_differs",
    ]
    result = {key: check[key] for key in keys}
    result["unresolved_moves"] = sum(len(player.unresolved) for player in players)
    result["ok"] = all(result[key] == 0 for key in keys[3:] + ["unresolved_moves"]) and (
        result["moves_clients_saw_committed"] == result["moves_in_database"]
    )
    return result


# -- the run -----------------------------------------------------------------------------------


def run(args: argparse.Namespace, lab: Lab, workdir: Path, say) -> dict:
    lab.open()
    for host, octet in HOSTS.items():
        lab.add_host(host, octet)
    lab.add_host(*CLIENT)
    site = Site(lab, workdir, args.workers)
    say("starting PostgreSQL and Redis in their namespaces…")
    site.start_postgresql()
    site.start_redis()
    lab.enter("client")  # from here on, this process is the client host
    site.wait_for_services()
    os.environ.update(site.environment("client"))
    os.environ.pop("EMAIL_URL", None)
    say("migrating, creating players and games…")
    queues = prepare_games(args)
    say("starting web1, web2, push, worker and the proxy…")
    for host in ("web1", "web2"):
        site.start_web(host)
    site.start_push()
    site.start_worker()
    site.start_proxy()
    started_in = {
        host: round(site.wait_until_healthy(host, WEB_PORT), 1) for host in ("web1", "web2")
    }
    started_in["push"] = round(site.wait_until_healthy("push", PUSH_PORT), 1)
    site.wait_until_healthy("proxy", BOTH_PORT)
    site.wait_until_healthy("proxy", PUSH_PORT)  # the push host, through the proxy
    csrf = random_csrf_secret()
    players = [Player(site.address("proxy"), queue, csrf) for queue in queues]
    load_before = load()

    say(f"warming up ({args.warmup:g} s), then {args.rounds} rounds of one and two web hosts…")
    warmup = play("warm-up", site, players, BOTH_PORT, args.warmup)
    one, two = Tally("one web host"), Tally("two web hosts")
    rounds = []
    for _ in range(args.rounds):
        part_one = play(one.name, site, players, ONE_PORT, args.seconds / args.rounds)
        part_two = play(two.name, site, players, BOTH_PORT, args.seconds / args.rounds)
        one.add(part_one)
        two.add(part_two)
        rounds.append(
            {
                "one": round(part_one.moves_per_second, 1),
                "two": round(part_two.moves_per_second, 1),
            }
        )

    connections_after_scaling = postgresql_connections(site)
    say(f"playing {args.kill_seconds:g} s with web1 killed a third of the way in…")
    events: dict = {}

    def kill_and_return(started: float, deadline: Deadline) -> None:
        time.sleep(max(0.0, started + args.kill_seconds / 3 - time.perf_counter()))
        events["proxy_before_kill"] = site.proxy_stats()
        site.kill("web1")
        events["killed_monotonic"] = time.monotonic()
        events["killed_at_s"] = round(time.perf_counter() - started, 1)
        time.sleep(max(0.0, started + 2 * args.kill_seconds / 3 - time.perf_counter()))
        events["restarted_at_s"] = round(time.perf_counter() - started, 1)
        site.start_web("web1")
        events["healthy_after_s"] = round(site.wait_until_healthy("web1", WEB_PORT), 1)
        # On a loaded machine gunicorn takes a while to start: the clients play on until web1
        # has been back for a third of the run, whatever the length that makes it.
        events["proxy_at_return"] = site.proxy_stats()
        deadline.release(args.kill_seconds / 3)

    killed = play("web1 killed", site, players, BOTH_PORT, args.kill_seconds, kill_and_return)
    events["proxy_at_end"] = site.proxy_stats()
    connections_at_end = postgresql_connections(site)
    load_after = load()

    say("checking the database against what the clients saw…")
    check = check_database(players, queues)
    broker_left = broker_queue_length(site.redis_url)
    return report(
        args,
        site,
        {
            "warmup": warmup,
            "one": one,
            "two": two,
            "rounds": rounds,
            "killed": killed,
            "events": events,
            "check": check,
            "started_in": started_in,
            "load": (load_before, load_after),
            "broker_left": broker_left,
            "connections": {
                "after_the_scaling_runs": connections_after_scaling,
                "at_the_end": connections_at_end,
            },
        },
    )


def postgresql_connections(site: Site) -> dict[str, int]:
    """The site's open connections to PostgreSQL, by the host they come from."""
    import psycopg

    by_address = {address: host for host, address in site.lab.hosts.items()}
    server = f"postgres://postgres@{site.address('db')}:{PG_PORT}/postgres"
    with psycopg.connect(server, connect_timeout=5) as connection:
        rows = connection.execute(
            "SELECT host(client_addr), count(*) FROM pg_stat_activity"
            " WHERE datname = 'hanabi' AND pid <> pg_backend_pid() GROUP BY 1"
        ).fetchall()
    return {by_address.get(address, address): count for address, count in sorted(rows)}


def broker_queue_length(redis_url: str) -> int:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return client.llen("celery")
    finally:
        client.close()


def web1_connections(stats: dict, site: Site) -> int:
    return stats["backends"].get(f"{site.address('web1')}:{WEB_PORT}", {}).get("connections", 0)


def out_of_rotation(changes: list, since: float) -> float | None:
    """Seconds from the health check's first failure after `since` to its next success."""
    down = next((at for at, healthy in changes if not healthy and at >= since), None)
    up = next((at for at, healthy in changes if healthy and down is not None and at > down), None)
    return round(up - down, 1) if down is not None and up is not None else None


def report(args: argparse.Namespace, site: Site, parts: dict) -> dict:
    one, two, killed, events = parts["one"], parts["two"], parts["killed"], parts["events"]
    back_after = web1_connections(events["proxy_at_end"], site) - web1_connections(
        events["proxy_at_return"], site
    )
    route = events["proxy_at_end"]["routes"][f"0.0.0.0:{BOTH_PORT}"]
    web1 = events["proxy_at_end"]["backends"][f"{site.address('web1')}:{WEB_PORT}"]
    errors = sum(len(tally.errors) for tally in (parts["warmup"], one, two, killed))
    return {
        "command": " ".join([".venv/bin/python", "bench/multihost.py", *sys.argv[1:]]),
        "code": os.environ.get("MULTIHOST_CODE", "the checkout"),
        "clients": args.clients,
        "gunicorn_workers_per_web_host": args.workers,
        "cpus": os.cpu_count(),
        "load_before": parts["load"][0],
        "load_after": parts["load"][1],
        "seconds_to_healthy": parts["started_in"],
        "scaling": {
            "one_web_host": one.summary(),
            "two_web_hosts": two.summary(),
            "ratio_two_over_one": round(two.moves_per_second / one.moves_per_second, 2)
            if one.moves_per_second
            else None,
            "rounds_moves_per_second": parts["rounds"],
        },
        "web1_killed": {
            **killed.summary(),
            "killed_at_s": events["killed_at_s"],
            "restarted_at_s": events["restarted_at_s"],
            "web1_healthy_after_restart_s": events["healthy_after_s"],
            "web1_connections_after_its_return": back_after,
            "web1_out_of_rotation_s": out_of_rotation(
                web1["health_changes"], events["killed_monotonic"]
            ),
            "proxy_failovers_in_all": route["failovers"],
            "proxy_bad_gateways_in_all": route["bad_gateway"],
        },
        "database_check": parts["check"],
        "postgresql_connections_by_host": parts["connections"],
        "celery_tasks_left_in_queue": parts["broker_left"],
        "errors": errors,
        "error_messages": dict(
            collections.Counter(
                e for t in (parts["warmup"], one, two, killed) for e in t.errors
            ).most_common(5)
        ),
    }


def interrupted(*_) -> None:
    """SIGTERM unwinds like Ctrl-C, so that everything is stopped on the way out."""
    raise KeyboardInterrupt


def copy_code_and_run_it(args_given: list[str]) -> None:
    """Copy HEAD's tree (and OWN_FILES from the checkout) into a new temporary directory and
    run this benchmark from there, in this process (exec)."""
    workdir = Path(tempfile.mkdtemp(prefix="multihost-"))
    workdir.chmod(0o755)  # PostgreSQL's user reaches its directories inside
    code = workdir / "code"
    code.mkdir()
    try:
        tree = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "HEAD"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(code)], input=tree, check=True)
        for name in OWN_FILES:
            shutil.copy2(ROOT / name, code / name)
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", *OWN_FILES],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    environment = {
        **os.environ,
        "MULTIHOST_WORKDIR": str(workdir),
        "MULTIHOST_CHECKOUT": str(ROOT),
        "MULTIHOST_CODE": commit
        + (" (with the checkout's bench/multihost.py…)" if changed else ""),
    }
    script = str(code / "bench" / "multihost.py")
    os.execve(sys.executable, [sys.executable, script, *args_given], environment)


def main() -> int:
    args = parse_args()
    if os.geteuid() != 0:
        print("bench/multihost.py makes network namespaces: run it as root", file=sys.stderr)
        return 2
    if "MULTIHOST_WORKDIR" not in os.environ:
        copy_code_and_run_it(sys.argv[1:])
    workdir = Path(os.environ["MULTIHOST_WORKDIR"])
    # Celery's Django fixup puts the working directory first on sys.path: the copy's, not
    # the checkout's, so that this process too imports only the copied code.
    os.chdir(ROOT)
    signal.signal(signal.SIGTERM, interrupted)
    say = (lambda *_: None) if args.json else (lambda text: print(text, file=sys.stderr))
    lab = Lab()
    try:
        if removed := remove_stale_labs():
            say(f"deleted namespaces left by an earlier run: {', '.join(removed)}")
        LOG_DIR.mkdir(parents=True, exist_ok=True)
        for old in LOG_DIR.glob("*.log"):
            old.unlink()
        result = run(args, lab, workdir, say)
    finally:
        say("stopping every host and deleting the namespaces…")
        lab.close()
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result, indent=2))
    return 0 if result["database_check"]["ok"] and not result["errors"] else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted: every host stopped, the namespaces deleted", file=sys.stderr)
        sys.exit(130)
