"""Play by email under load: replies to turn emails processed per second by a real worker on
this machine. Not a test: it prints figures.

    .venv/bin/python bench/inbound_mail.py                   # 200 replies to 40 games, 3 times
    .venv/bin/python bench/inbound_mail.py --pool solo       # a solo worker instead
    .venv/bin/python bench/inbound_mail.py --replies 100 --repeat 1 --json

What it does:

1. Recreates the PostgreSQL database `hanabi_bench_inbound` (--pg, --database), migrates it
   (`manage.py migrate`), and, in this process (django.setup() on that database), creates
   --repeat sets of --games started games, two- and three-player in turn (--players), each
   with players of their own whose address is verified, through games.services.lobby as the
   site does: every measure plays games of its own, fresh.
2. Starts, each in a process of its own and with the same environment (DEBUG=true,
   NOTIFY_DELAY_SECONDS=0, CELERY_QUEUE a queue of this run's own on Redis, --redis-url):
   * an SMTP sink in this process (aiosmtpd), which counts the emails the site sends (the
     answers to the replies and the next players' turn emails: EMAIL_URL points at it);
   * the receiver, `manage.py receive_mail --port <free port>`;
   * a Celery worker on the run's queue, `--pool prefork --concurrency 2` by default (what
     the Procfile's `celery worker` runs on this 2-CPU machine), or --pool solo;
   then waits until the worker answers a ping and has sent the games' first turn emails,
   and warms up: one reply to each of 8 games of its own, the whole way, not measured.
3. Each measure (--repeat of them) has two parts, one after the other, against that worker:
   * baseline: --replies `games.tasks.ping` tasks, one per game at a time (the same rounds
     as the replies), each sent and its result fetched from Redis, the result backend:
     what the worker, the broker and this machine do for a task that does nothing;
   * replies: --replies replies over SMTP, in rounds of one reply per game (a reply can only
     be written once the game's previous move has landed): each round, --senders threads
     send the round's replies, each over an SMTP connection of its own (as mail servers
     deliver), then the bench waits until the worker has processed every one of them
     (the InboundMessage is no longer "received") before the next round. Each reply is a
     legal command for its seat and turn, chosen from the game's state followed in this
     process: in turn a "play 1" (only when it cannot make the third misplay, which would
     end the game), a "clue <next seat> <rank of their slot-1 card>" and a "discard <oldest
     slot>", each replaced by another kind when the rules do not allow it now.
   Once the last reply is processed, the bench waits until every outbox row is done: each
   reply also makes the worker send an answer and the next player's turn email (three
   tasks in all per reply, two emails).
4. Checks: every SMTP delivery answered 250; every reply made exactly the move it asked for
   (a Move at its game and turn, with the expected action), so that moves equal replies;
   no InboundMessage is left "received"; every reply was answered ("your move is made");
   no outbox row failed. Any failure is printed and the exit status is 1.
5. Prints, for each measure and their median: the receiver's acceptance (messages per second
   over the rounds' sending windows: from the first connection to the last 250; and the
   median time from connecting to the 250), end-to-end (replies per second, from the first
   connection of the measure to the last reply's processed_at, and the time from each 250
   to the reply's processed_at, median and 95th percentile), settled (the same, until every
   answer and turn email is sent), the baseline (pings per second), and the ratio
   replies per second ÷ pings per second; and the CPU time the worker (its main process and
   pool) used per reply (the three tasks) and per ping, and the receiver per reply, read
   from /proc: a worker that waits (on PostgreSQL, on SMTP) uses less than its wall time.
   Then the problems found in the receiver's and the worker's output (lines with ERROR,
   CRITICAL or Traceback), which is kept under var/bench/inbound/.

Everything is taken down at the end, also on an error or Ctrl-C: the worker and the receiver
are stopped (SIGTERM to their process groups, SIGKILL if they linger), the database dropped.
All of this shares the machine: the bench, the receiver, the worker, PostgreSQL and Redis
run on the same CPUs, so compare the ratio more than the absolute figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import platform
import secrets
import signal
import smtplib
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import compat32
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# Django is imported inside the functions that need it: its settings read the environment,
# which main() sets first. The engine has no Django import.

from bench.services import add_service_arguments, drop_database, recreate_database  # noqa: E402
from games.engine import Clue, Discard, GameOptions, GameState, Play, action_to_dict  # noqa: E402

LOG_DIR = ROOT / "var" / "bench" / "inbound"
POLL_SECONDS = 0.02
WARM_UP_GAMES = 8
MOVED_ANSWER = "your move is made"  # in the subject of the answer to a reply that moved
TURN_EMAIL = "Your turn"  # the start of a turn email's subject


class BenchError(Exception):
    """The bench could not measure (a refused reply, a worker that does not answer…)."""


# -- options and environment ----------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replies", type=int, default=200, help="replies sent per measure")
    parser.add_argument("--games", type=int, default=40, help="games per measure (one round)")
    parser.add_argument("--players", default="2,3", help="players per game, in turn")
    parser.add_argument("--senders", type=int, default=4, help="SMTP sender threads")
    parser.add_argument("--pool", choices=("prefork", "solo"), default="prefork")
    parser.add_argument("--concurrency", type=int, default=2, help="prefork's processes")
    parser.add_argument("--repeat", type=int, default=3, help="measures; medians reported")
    parser.add_argument("--round-timeout", type=float, default=120, help="seconds per round")
    add_service_arguments(parser, database="hanabi_bench_inbound")
    args = parser.parse_args()
    args.players = [int(number) for number in args.players.split(",")]
    if args.replies < 1 or args.games < 1 or args.senders < 1 or args.repeat < 1:
        parser.error("--replies, --games, --senders and --repeat must be at least 1")
    return args


def environment(args: argparse.Namespace, sink_port: int, queue: str) -> dict[str, str]:
    """What this process and its children read their settings from: the test's way of
    pointing a worker and a receiver at one database, one SMTP server and one queue."""
    return {
        "DJANGO_SETTINGS_MODULE": "hanabi_site.settings",
        "DATABASE_URL": f"{args.pg.rstrip('/')}/{args.database}",
        "REDIS_URL": args.redis_url,
        "EMAIL_URL": f"smtp://127.0.0.1:{sink_port}",
        "CELERY_QUEUE": queue,
        "NOTIFY_DELAY_SECONDS": "0",
        "DEBUG": "true",
        # The same key everywhere: the reply addresses this process makes are the worker's.
        "SECRET_KEY": secrets.token_urlsafe(50),
        "MAIL_DOMAIN": "hanabi.example",
        # Replies are vouched for as behind a site's own mail server (its
        # Authentication-Results on top): the worker has no DNS here to check DKIM.
        "INBOUND_TRUSTED_AUTHSERV_IDS": TRUSTED_MTA,
    }


TRUSTED_MTA = "mx.bench.example"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# -- the SMTP sink for the site's own emails ------------------------------------------------


class CountingSink:
    """aiosmtpd's handler: takes every message and counts them by kind of subject."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.other_subjects: list[str] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        subject = str(BytesHeaderParser(policy=compat32).parsebytes(raw).get("Subject", ""))
        subject = " ".join(subject.split())
        if MOVED_ANSWER in subject:
            kind = "answers"
        elif subject.startswith(TURN_EMAIL):
            kind = "turn emails"
        else:
            kind = "other"
        with self.lock:
            self.counts[kind] += 1
            if kind == "other" and len(self.other_subjects) < 5:
                self.other_subjects.append(subject)
        return "250 OK"

    def snapshot(self) -> Counter[str]:
        with self.lock:
            return Counter(self.counts)


@contextmanager
def smtp_sink(handler=None) -> Iterator[tuple[CountingSink, int]]:
    """An SMTP server on a free port whose messages go to `handler` (a CountingSink unless
    another is given)."""
    from aiosmtpd.controller import Controller

    handler = handler or CountingSink()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def forget_queue(redis_url: str, queue: str) -> None:
    """Take the run's queue (and what kombu keeps about it) out of Redis."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
    finally:
        client.close()


# -- the receiver and the worker ------------------------------------------------------------


@contextmanager
def process(name: str, command: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen]:
    """A child in a session of its own (Ctrl-C in the terminal reaches only this script,
    which then stops it), its output in LOG_DIR/<name>.log; stopped on the way out."""
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    with open(LOG_DIR / f"{name}.log", "w") as log:
        child = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield child
    finally:
        stop(child)


def stop(child: subprocess.Popen) -> None:
    """SIGTERM to the child's process group (a prefork worker's pool with it), SIGKILL if it
    lingers."""
    if child.poll() is not None:
        return
    try:
        os.killpg(child.pid, signal.SIGTERM)
        child.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    except ProcessLookupError:
        pass


def tail(name: str, lines: int = 30) -> str:
    path = LOG_DIR / f"{name}.log"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) used so far by a process and its children (a prefork
    worker's pool), from /proc."""

    def used(stat: str) -> tuple[int, float]:
        # "pid (command) state ppid … utime stime …": the command may hold spaces.
        fields = stat.rsplit(")", 1)[1].split()
        return int(fields[1]), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    total = 0.0
    for path in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent, seconds = used(path.read_text())
        except (OSError, IndexError, ValueError):  # gone meanwhile
            continue
        if int(path.parent.name) == pid or parent == pid:
            total += seconds
    return total


def worker_command(args: argparse.Namespace, queue: str) -> list[str]:
    pool = [f"--pool={args.pool}"]
    if args.pool == "prefork":
        pool.append(f"--concurrency={args.concurrency}")
    # The Procfile's worker, on the run's queue; without mingle, gossip and heartbeats as in
    # tests/celery_helpers.py: other workers on the same Redis are none of this one's business.
    return [
        *[sys.executable, "-m", "celery", "-A", "hanabi_site", "worker", "--queues", queue],
        *pool,
        *["--loglevel=INFO", "--without-mingle", "--without-gossip", "--without-heartbeat"],
    ]


def wait_for_port(port: int, child: subprocess.Popen, name: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if child.poll() is not None or time.monotonic() > deadline:
                raise BenchError(f"the {name} did not start:\n{tail(name)}") from None
            time.sleep(0.1)


def wait_for_worker(worker: subprocess.Popen, seconds: float = 60) -> None:
    from games.tasks import ping

    deadline = time.monotonic() + seconds
    result = ping.apply_async(("ready",))
    while not result.ready():
        if worker.poll() is not None or time.monotonic() > deadline:
            raise BenchError(f"the worker did not answer a ping:\n{tail('worker')}")
        time.sleep(0.1)
    if result.get() != "ready":
        raise BenchError("the worker answered a ping wrongly")
    result.forget()


def outbox_pending() -> int:
    from outbox.models import Outbox

    return Outbox.objects.filter(done_at=None).count()


def wait_until_outbox_done(seconds: float) -> float:
    """Wait until every outbox row is done; when (time.perf_counter())."""
    deadline = time.monotonic() + seconds
    while outbox_pending():
        if time.monotonic() > deadline:
            raise BenchError(f"{outbox_pending()} outbox rows still not done after {seconds} s")
        time.sleep(POLL_SECONDS)
    return time.perf_counter()


# -- the games ------------------------------------------------------------------------------


@dataclass
class BenchGame:
    game_id: int
    users: list[tuple[int, str]]  # (id, email) of each seat's player, by position
    state: GameState  # followed here, move by move, as the replies make them

    @property
    def players(self) -> int:
        return len(self.users)


def prepare_games(count: int, players: list[int], prefix: str) -> list[BenchGame]:
    """`count` started games through the lobby services, each with players of its own."""
    from allauth.account.models import EmailAddress

    from accounts.models import User
    from games.models import Game
    from games.services import lobby

    games = []
    sizes = itertools.cycle(players)
    for index in range(count):
        people = []
        for seat in range(next(sizes)):
            # No password: hashing one would take longer than everything else here.
            user = User.objects.create_user(
                f"{prefix}-{index}-{seat}@example.org",
                None,
                display_name=f"P{prefix}{index}s{seat}",
            )
            EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
            people.append(user)
        game = lobby.create_game(
            people[0], GameOptions(players=len(people)), Game.Visibility.INVITE
        )
        for user in people[1:]:
            lobby.join_game(game.pk, user, game.invite_code)
        game = lobby.start_game(game.pk, people[0])
        game.refresh_from_db()
        # The start shuffles the players into their seats.
        seats = game.seats.select_related("user").order_by("position")
        users = [(seat.user_id, seat.user.email) for seat in seats]
        games.append(BenchGame(game.pk, users, game.load_state()))
    return games


def next_command(state: GameState) -> tuple[str, Play | Clue | Discard]:
    """A legal command for the current seat, and the action it must make: a play, a clue or
    a discard in turn (by the turn number), another kind when this one is not allowed now;
    never a misplay that would be the game's last."""
    seat = state.current_seat
    hand = state.hand(seat)
    first = state.card(hand[0])
    target = (seat + 1) % state.players
    rank = state.card(state.hand(target)[0]).rank
    options = {
        "play": ("play 1", Play(hand[0])),
        "clue": (f"clue {target + 1} {rank}", Clue(target, rank=rank)),
        "discard": (f"discard {len(hand)}", Discard(hand[-1])),
    }
    if state.fuses_left <= 1 and state.fireworks[first.suit] != first.rank - 1:
        del options["play"]  # it would be the third misplay: the end of the game
    kinds = ["play", "clue", "discard"]
    start = state.turn % len(kinds)
    for kind in kinds[start:] + kinds[:start]:
        if kind in options and state.is_legal(options[kind][1]):
            return options[kind]
    raise BenchError(f"no command for turn {state.turn}")  # cannot happen: a clue or discard


# -- one reply ------------------------------------------------------------------------------


@dataclass
class Reply:
    game: BenchGame
    turn: int
    seat: int
    command: str
    action: Play | Clue | Discard
    message_id: str
    to: str
    sender: str
    raw: bytes
    started: float = 0.0  # time.perf_counter() when the connection was opened
    accepted: float = 0.0  # time.perf_counter() at the 250 after DATA
    accepted_wall: float = 0.0  # time.time() at the same moment, to compare with the database
    error: str = ""


def compose(game: BenchGame, tag: str) -> Reply:
    from games.reply_address import reply_address

    state = game.state
    seat = state.current_seat
    user_id, sender = game.users[seat]
    command, action = next_command(state)
    to = reply_address(game.game_id, seat, state.turn, user_id)
    message_id = f"<bench-{tag}-{game.game_id}-{state.turn}@client.example>"
    # A top-posted reply as a mail client writes it (tests/mailplay/conftest.py: reply()).
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = f"Re: Your turn in Hanabi game {game.game_id}"
    message["Message-ID"] = message_id
    quote = "On Tue, 24 Nov 2026 at 09:12, Hanabi <hanabi@localhost> wrote:\n> play 5\n"
    message.set_content(f"{command}\n\n{quote}")
    domain = sender.rpartition("@")[2]
    verdict = f"Authentication-Results: {TRUSTED_MTA}; dmarc=pass header.from={domain}\r\n"
    raw = verdict.encode() + message.as_bytes()
    return Reply(game, state.turn, seat, command, action, message_id, to, sender, raw)


def deliver(reply: Reply, port: int) -> Reply:
    """One SMTP connection for the message, as a mail server delivers it."""
    reply.started = time.perf_counter()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
            refused = smtp.sendmail(reply.sender, [reply.to], reply.raw)
            reply.accepted = time.perf_counter()
            reply.accepted_wall = time.time()
            if refused:
                reply.error = f"refused: {refused}"
    except (OSError, smtplib.SMTPException) as error:
        reply.error = f"{type(error).__name__}: {error}"
    return reply


# -- the measures ---------------------------------------------------------------------------


@dataclass
class Measure:
    acceptance_per_second: float = 0.0
    acceptance_median_ms: float = 0.0
    processed_per_second: float = 0.0
    latency_median_ms: float = 0.0
    latency_p95_ms: float = 0.0
    settled_per_second: float = 0.0
    baseline_per_second: float = 0.0
    ratio: float = 0.0
    worker_cpu_ms_per_reply: float = 0.0
    worker_cpu_ms_per_ping: float = 0.0
    receiver_cpu_ms_per_reply: float = 0.0
    rounds: int = 0
    replies: int = 0
    games_ended: int = 0
    emails: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def baseline(count: int, per_round: int, timeout: float) -> float:
    """Pings per second: `count` games.tasks.ping, `per_round` at a time (the replies'
    rounds), each round's results fetched before the next is sent."""
    from games.tasks import ping

    started = time.perf_counter()
    done = 0
    pings = []
    while done < count:
        tokens = [f"ping-{done + index}" for index in range(min(per_round, count - done))]
        results = [ping.apply_async((token,)) for token in tokens]
        # One get() after another: Redis tells each result as it comes (ResultSet's
        # join_native would poll Redis every half second instead).
        if [result.get(timeout=timeout) for result in results] != tokens:
            raise BenchError("a ping came back with the wrong token")
        done += len(tokens)
        pings.extend(results)
    seconds = time.perf_counter() - started
    for result in pings:
        result.forget()  # rather than leave it in Redis for CELERY_RESULT_EXPIRES
    return count / seconds


def wait_until_processed(message_ids: list[str], timeout: float) -> None:
    from mailplay.models import InboundMessage

    deadline = time.monotonic() + timeout
    messages = InboundMessage.objects.filter(message_id__in=message_ids)
    while messages.exclude(status=InboundMessage.Status.RECEIVED).count() < len(message_ids):
        if time.monotonic() > deadline:
            waiting = (
                len(message_ids) - messages.exclude(status=InboundMessage.Status.RECEIVED).count()
            )
            raise BenchError(f"{waiting} replies not processed after {timeout} s")
        time.sleep(POLL_SECONDS)


def send_replies(
    games: list[BenchGame],
    count: int,
    args: argparse.Namespace,
    port: int,
    tag: str,
    measure: Measure,
) -> tuple[list[Reply], float, float]:
    """The rounds of replies; the replies, the seconds spent sending (the rounds' windows
    from the first connection to the last 250), and when the first connection opened
    (time.time())."""
    replies: list[Reply] = []
    sending = 0.0
    first_wall = time.time()
    with ThreadPoolExecutor(args.senders) as senders:
        while len(replies) < count:
            playing = [game for game in games if not game.state.is_over]
            batch = [compose(game, tag) for game in playing[: count - len(replies)]]
            if not batch:
                raise BenchError("every game ended before the last reply: use more --games")
            delivered = list(senders.map(lambda reply: deliver(reply, port), batch))
            failed = [reply for reply in delivered if reply.error]
            if failed:
                raise BenchError(f"{len(failed)} replies not accepted, e.g. {failed[0].error}")
            sending += max(r.accepted for r in delivered) - min(r.started for r in delivered)
            wait_until_processed([reply.message_id for reply in batch], args.round_timeout)
            for reply in batch:
                reply.game.state.apply(reply.action)
            replies.extend(batch)
            measure.rounds += 1
    return replies, sending, first_wall


def check(replies: list[Reply], games: list[BenchGame], measure: Measure) -> None:
    """Every reply made the move it asked for, and nothing else moved."""
    from games.models import Move
    from mailplay.models import InboundMessage
    from outbox.models import Outbox

    by_id = {
        message.message_id: message
        for message in InboundMessage.objects.filter(
            message_id__in=[reply.message_id for reply in replies]
        )
    }
    moves = {
        (move.game_id, move.turn): move
        for move in Move.objects.filter(game_id__in=[game.game_id for game in games])
    }
    problems = measure.problems
    if len(by_id) != len(replies):
        problems.append(f"{len(replies)} replies sent, {len(by_id)} stored")
    not_moved = Counter(m.status for m in by_id.values() if m.status != "moved")
    if not_moved:
        example = next(m.outcome for m in by_id.values() if m.status != "moved")
        problems.append(f"replies that made no move: {dict(not_moved)}, e.g. {example!r}")
    if len(moves) != len(replies):
        problems.append(f"{len(replies)} replies sent, {len(moves)} moves made")
    wrong = [
        reply
        for reply in replies
        if (move := moves.get((reply.game.game_id, reply.turn))) is None
        or move.action != action_to_dict(reply.action)
        or move.seat != reply.seat
    ]
    if wrong:
        problems.append(f"{len(wrong)} replies did not make their move, e.g. {wrong[0].command}")
    waiting = InboundMessage.objects.filter(status=InboundMessage.Status.RECEIVED).count()
    if waiting:
        problems.append(f"{waiting} inbound messages left unprocessed")
    failed = Outbox.objects.exclude(last_error="").count()
    if failed:
        problems.append(f"{failed} outbox rows failed at least once")
    if measure.emails.get("answers", 0) != len(replies):
        problems.append(f"{len(replies)} replies, {measure.emails.get('answers', 0)} answers")


def measure_once(
    games: list[BenchGame],
    args: argparse.Namespace,
    port: int,
    sink: CountingSink,
    tag: str,
    pids: dict[str, int],
) -> Measure:
    measure = Measure()
    worker_cpu = cpu_seconds(pids["worker"])
    measure.baseline_per_second = baseline(args.replies, len(games), args.round_timeout)
    measure.worker_cpu_ms_per_ping = (
        1000 * (cpu_seconds(pids["worker"]) - worker_cpu) / args.replies
    )
    worker_cpu = cpu_seconds(pids["worker"])
    receiver_cpu = cpu_seconds(pids["receiver"])

    from mailplay.models import InboundMessage

    emails_before = sink.snapshot()
    started = time.perf_counter()
    replies, sending, first_wall = send_replies(games, args.replies, args, port, tag, measure)
    settled = wait_until_outbox_done(args.round_timeout)
    measure.emails = dict(sink.snapshot() - emails_before)
    # Each reply's whole work: its processing, its answer and the next player's turn email.
    worker_cpu = cpu_seconds(pids["worker"]) - worker_cpu
    measure.worker_cpu_ms_per_reply = 1000 * worker_cpu / args.replies
    receiver_cpu = cpu_seconds(pids["receiver"]) - receiver_cpu
    measure.receiver_cpu_ms_per_reply = 1000 * receiver_cpu / args.replies

    processed_at: dict[str, datetime] = dict(
        InboundMessage.objects.filter(
            message_id__in=[reply.message_id for reply in replies]
        ).values_list("message_id", "processed_at")
    )
    measure.replies = len(replies)
    measure.games_ended = sum(game.state.is_over for game in games)
    measure.acceptance_per_second = len(replies) / sending
    measure.acceptance_median_ms = 1000 * statistics.median(
        reply.accepted - reply.started for reply in replies
    )
    done = [processed_at.get(reply.message_id) for reply in replies]
    if None not in done:
        last = max(moment.timestamp() for moment in done)
        measure.processed_per_second = len(replies) / (last - first_wall)
        latencies = [
            1000 * (moment.timestamp() - reply.accepted_wall)
            for reply, moment in zip(replies, done, strict=True)
        ]
        measure.latency_median_ms = statistics.median(latencies)
        measure.latency_p95_ms = percentile(latencies, 0.95)
    measure.settled_per_second = len(replies) / (settled - started)
    measure.ratio = measure.processed_per_second / measure.baseline_per_second
    check(replies, games, measure)
    return measure


# -- output ---------------------------------------------------------------------------------

ROWS = [
    ("acceptance_per_second", "receiver accepts (messages/s)", "{:.1f}"),
    ("acceptance_median_ms", "  connect to 250, median (ms)", "{:.1f}"),
    ("processed_per_second", "end to end: replies processed/s", "{:.2f}"),
    ("latency_median_ms", "  250 to processed, median (ms)", "{:.0f}"),
    ("latency_p95_ms", "  250 to processed, p95 (ms)", "{:.0f}"),
    ("settled_per_second", "settled: answers and turn emails sent, replies/s", "{:.2f}"),
    ("baseline_per_second", "baseline: ping tasks round-tripped/s", "{:.1f}"),
    ("ratio", "processed/s ÷ ping tasks/s", "{:.3f}"),
    ("worker_cpu_ms_per_reply", "worker CPU per reply, with its 2 emails (ms)", "{:.0f}"),
    ("worker_cpu_ms_per_ping", "worker CPU per ping (ms)", "{:.1f}"),
    ("receiver_cpu_ms_per_reply", "receiver CPU per reply (ms)", "{:.1f}"),
]


def medians(measures: list[Measure]) -> dict[str, float]:
    return {key: statistics.median(getattr(m, key) for m in measures) for key, _, _ in ROWS}


def log_problems(name: str) -> list[str]:
    path = LOG_DIR / f"{name}.log"
    if not path.exists():
        return []
    words = ("ERROR", "CRITICAL", "Traceback")
    return [
        line
        for line in path.read_text(errors="replace").splitlines()
        if any(word in line for word in words)
    ]


def print_table(args: argparse.Namespace, report: dict) -> None:
    measures = report["measures"]
    print(
        f"{args.replies} replies to {args.games} games ({'/'.join(map(str, args.players))} "
        f"players) per measure, {args.senders} sender threads (an SMTP connection per "
        f"message), worker {report['worker']}; {platform.node()}, {os.cpu_count()} CPUs"
    )
    heads = [f"run {index + 1}" for index in range(len(measures))] + ["median"]
    width = max(len(label) for _, label, _ in ROWS)
    print(f"{'':<{width}} " + " ".join(f"{head:>9}" for head in heads))
    for key, label, form in ROWS:
        values = [measure[key] for measure in measures] + [report["median"][key]]
        print(f"{label:<{width}} " + " ".join(f"{form.format(v):>9}" for v in values))
    rounds = ", ".join(str(measure["rounds"]) for measure in measures)
    print(f"rounds per measure: {rounds}; emails sent by the site: {measures[-1]['emails']}")
    for name, lines in report["log_problems"].items():
        if lines:
            print(f"{name} log ({LOG_DIR / name}.log): {len(lines)} lines like {lines[0]!r}")
    for problem in report["problems"]:
        print(f"PROBLEM: {problem}")


# -- main -----------------------------------------------------------------------------------


def run(args: argparse.Namespace, stack: ExitStack) -> dict:
    load_average = os.getloadavg()
    run_id = uuid.uuid4().hex[:8]
    queue = f"bench-inbound-{run_id}"
    sink, sink_port = stack.enter_context(smtp_sink())
    env = environment(args, sink_port, queue)
    os.environ.update(env)
    stack.callback(forget_queue, args.redis_url, queue)

    recreate_database(args.pg, args.database)
    stack.callback(drop_database, args.pg, args.database)
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
        cwd=ROOT,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
    )
    if migrated.returncode:
        raise BenchError(f"migrate failed:\n{migrated.stdout}{migrated.stderr}")

    import django

    django.setup()
    # The settings log INFO to the console: not every SMTP command of the sink.
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    from django.db import connections

    stack.callback(connections.close_all)  # before the database is dropped (LIFO)
    game_sets = [
        prepare_games(args.games, args.players, f"m{index}") for index in range(args.repeat)
    ]
    warm_up = prepare_games(WARM_UP_GAMES, args.players, "w")
    port = free_port()
    receiver = stack.enter_context(
        process("receiver", [sys.executable, "manage.py", "receive_mail", "--port", str(port)], env)
    )
    worker = stack.enter_context(process("worker", worker_command(args, queue), env))
    wait_for_port(port, receiver, "receiver")
    wait_for_worker(worker)
    wait_until_outbox_done(args.round_timeout)  # the games' first turn emails
    # Warm-up, not measured: a reply to each warm-up game goes the whole way (the receiver's
    # threads and connections, the worker's first processing and answers).
    send_replies(warm_up, len(warm_up), args, port, f"{run_id}-warm", Measure())
    wait_until_outbox_done(args.round_timeout)

    measures = []
    for index, games in enumerate(game_sets):
        pids = {"worker": worker.pid, "receiver": receiver.pid}
        measures.append(measure_once(games, args, port, sink, f"{run_id}-{index}", pids))
        if worker.poll() is not None or receiver.poll() is not None:
            raise BenchError("the worker or the receiver stopped during the measure")
    return {"measures": measures, "queue": queue, "load_average": load_average}


def main() -> None:
    args = parse_args()
    # SIGTERM as Ctrl-C (and Ctrl-C even where a shell started this with SIGINT ignored):
    # the ExitStack takes everything down either way.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.default_int_handler)
    worker = f"{args.pool}" + (f" ×{args.concurrency}" if args.pool == "prefork" else "")
    with ExitStack() as stack:
        try:
            result = run(args, stack)
        except BenchError as error:
            stack.close()
            print(f"bench failed: {error}", file=sys.stderr)
            for name in ("receiver", "worker"):
                print(f"-- {name} log, last lines:\n{tail(name)}", file=sys.stderr)
            sys.exit(2)
        except KeyboardInterrupt:
            stack.close()
            print("interrupted: the worker and the receiver stopped, the database dropped")
            sys.exit(130)
    measures = [measure.__dict__ for measure in result["measures"]]
    report = {
        "replies": args.replies,
        "games": args.games,
        "players": args.players,
        "senders": args.senders,
        "worker": worker,
        "repeat": args.repeat,
        "cpus": os.cpu_count(),
        "load_average_at_start": result["load_average"],
        "load_average_at_end": os.getloadavg(),
        "measures": measures,
        "median": medians(result["measures"]),
        "problems": [p for m in result["measures"] for p in m.problems],
        "log_problems": {name: log_problems(name) for name in ("receiver", "worker")},
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(args, report)
    if report["problems"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
