"""A queue per kind of work (issue 24): how long a bot's move and a turn email wait while four
finished games' deal analyses run, with the analyses on the default queue (as before) and on
a queue of their own. Not a test: it prints figures.

    .venv/bin/python bench/queues.py                         # 3 measures each, 5 s analyses
    .venv/bin/python bench/queues.py --repeat 5 --analysis-seconds 20 --json

What it does:

1. Recreates the PostgreSQL database `hanabi_bench_queues` (--pg, --database), migrates it,
   and in this process (django.setup() on that database) creates two players whose address
   is verified. An SMTP sink in this process notes when each email arrives (EMAIL_URL).
2. For each configuration, starts real workers from the Procfile's own commands (by the
   shell, CELERY_QUEUE a queue of this run's own on Redis, --redis-url), each in a process of
   its own, and waits until each answers a ping:
   * "one queue": the Procfile's `worker` alone (prefork, one process per CPU), which takes
     every task, the analyses too: this process sends the analysis rows to the default
     queue, as the outbox did before issue 24;
   * "own queue": the same `worker`, and the Procfile's `analysis` worker (one process) on
     `<queue>-analysis`, where the outbox sends the analysis rows.
3. Each measure (--repeat of them per configuration) sets up games of its own and waits
   until the workers are idle: four games one misplay from their end, on a deck the search
   cannot settle (every 1 at the bottom), so that each analysis runs for --analysis-seconds
   (ANALYSIS_TIME_LIMIT_SECONDS in the workers; the site's default is 20); a game against a
   bot, the person to move; a game of two people. Then the four last misplays are made one
   after the other (four analyses and eight game-over emails), then the person's move that
   makes the bot's move due (BOT_MOVE_DELAY_SECONDS=0) and a move that makes the other
   person's turn email due (NOTIFY_DELAY_SECONDS=0). Measured from each move's commit: until
   the bot's move is done (its outbox row), until the turn email reaches the SMTP sink. The
   measure ends when every outbox row is done (the analyses too).
4. Prints each measure and the medians per configuration, and how long the analyses ran.

The workers, PostgreSQL, Redis and this process share this machine's CPUs: the "one queue"
delays are what the analyses' CPU time costs the other work when they share the worker.
Everything is taken down at the end, also on an error or Ctrl-C: workers stopped, the run's
queues taken out of Redis, the database dropped. Workers' output: var/bench/inbound/queues-*.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# Django is imported inside the functions that need it: its settings read the environment,
# which main() sets first. The engine has no Django import.

from bench.inbound_mail import BenchError, forget_queue, process, smtp_sink, tail  # noqa: E402
from bench.inbound_mail import environment as inbound_environment  # noqa: E402
from bench.services import add_service_arguments, drop_database, recreate_database  # noqa: E402
from games.engine import Clue, GameOptions, Play, action_to_dict, new_deck  # noqa: E402

POLL_SECONDS = 0.02
CONFIGURATIONS = ("one queue", "own queue")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="measures per configuration")
    parser.add_argument("--analysis-seconds", type=float, default=5.0, help="each analysis")
    add_service_arguments(parser, database="hanabi_bench_queues")
    args = parser.parse_args()
    if args.repeat < 1 or args.analysis_seconds <= 0:
        parser.error("--repeat must be at least 1 and --analysis-seconds positive")
    return args


def environment(args: argparse.Namespace, sink_port: int, queue: str) -> dict[str, str]:
    """What this process and the workers read their settings from: play by email's bench's,
    with analyses of the chosen length and bots that move at once."""
    return {
        **inbound_environment(args, sink_port, queue),
        "ANALYSIS_TIME_LIMIT_SECONDS": str(args.analysis_seconds),
        "BOT_MOVE_DELAY_SECONDS": "0",
    }


# -- the SMTP sink --------------------------------------------------------------------------


class ArrivalSink:
    """aiosmtpd's handler: notes when each message arrives, and to whom."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.arrivals: list[tuple[float, list[str]]] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        with self.lock:
            self.arrivals.append((time.time(), list(envelope.rcpt_tos)))
        return "250 OK"

    def first_to(self, address: str, since: float) -> float | None:
        """When the first message to `address` since `since` (time.time()) arrived."""
        with self.lock:
            return next((t for t, to in self.arrivals if t > since and address in to), None)


# -- the workers ----------------------------------------------------------------------------


def procfile_process(name: str, env: dict[str, str]):
    """The Procfile's process, run by the shell as honcho and Heroku do (bench/inbound_mail.py
    starts and stops it; its output in var/bench/inbound/queues-<name>.log)."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        process_name, _, command = line.partition(":")
        if process_name.strip() == name:
            path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
            shell = ["sh", "-c", f"exec {command.strip()}"]
            return process(f"queues-{name}", shell, {**env, "PATH": path})
    raise BenchError(f"the Procfile has no process {name!r}")


def wait_for_worker(name: str, worker: subprocess.Popen, queue: str, seconds: float = 90) -> None:
    from games.tasks import ping

    deadline = time.monotonic() + seconds
    result = ping.apply_async(("ready",), queue=queue)
    while not result.ready():
        if worker.poll() is not None or time.monotonic() > deadline:
            raise BenchError(f"the {name} worker did not answer a ping:\n{tail(f'queues-{name}')}")
        time.sleep(0.1)
    result.forget()


def analyses_on_the_default_queue() -> None:
    """The outbox as before issue 24, in this process (which writes and sends the rows)."""
    from outbox import registry

    analysis = registry._kinds["analysis"]
    registry._kinds["analysis"] = dataclasses.replace(analysis, queue=registry.DEFAULT_QUEUE)


def wait_until_outbox_done(seconds: float) -> None:
    from outbox.models import Outbox

    deadline = time.monotonic() + seconds
    while Outbox.objects.filter(done_at=None).exists():
        if time.monotonic() > deadline:
            raise BenchError(f"outbox rows still not done after {seconds} s")
        time.sleep(POLL_SECONDS)


# -- the games ------------------------------------------------------------------------------


def players() -> tuple:
    """Alice and Bob end games and play the bot; Carol and Dave play each other (so that the
    turn email is the only email Dave gets)."""
    from allauth.account.models import EmailAddress

    from accounts.models import User

    people = []
    for name in ("alice", "bob", "carol", "dave"):
        # No password: hashing one would take longer than everything else here.
        user = User.objects.create_user(f"{name}@example.org", None, display_name=name.title())
        EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
        people.append(user)
    return tuple(people)


def unsettled_deck() -> list[list]:
    """Every 1 at the bottom: the team search cannot settle this deal's best score, so its
    analysis runs for its whole time limit; and every play from a starting hand misfires."""
    deck = new_deck(GameOptions(players=2), 5)
    ordered = [card for card in deck if card.rank != 1] + [card for card in deck if card.rank == 1]
    return [list(card) for card in ordered]


def mover(game):
    game.refresh_from_db()
    return game.seats.select_related("user").get(position=game.current_seat).user


def started(creator, other=None, deck: list | None = None, bots: int = 0):
    from games.models import Game
    from games.services import lobby

    game = lobby.create_game(creator, GameOptions(players=2), Game.Visibility.INVITE, bots=bots)
    Game.objects.filter(pk=game.pk).update(deck=deck)
    if other is not None:
        lobby.join_game(game.pk, other, game.invite_code)
    lobby.start_game(game.pk, creator)
    game.refresh_from_db()
    return game


def one_misplay_from_the_end(game) -> dict:
    """Two misplays made; the third, which ends the game, returned."""
    from games.services import play

    while True:
        game.refresh_from_db()
        state = game.load_state()
        misplay = action_to_dict(Play(state.hand(state.current_seat)[0]))
        if state.fuses_left == 1:
            return misplay
        play.submit_action(game.pk, mover(game), misplay, game.turn)


def a_clue(game) -> dict:
    state = game.load_state()
    return action_to_dict(next(a for a in state.legal_actions() if isinstance(a, Clue)))


@dataclasses.dataclass
class Measure:
    bot_move_seconds: float
    turn_email_seconds: float
    analysis_seconds: list[float]


def measure(people: tuple, sink: ArrivalSink, analysis_seconds: float) -> Measure:
    from games.services import play
    from outbox.models import Outbox

    alice, bob, carol, dave = people
    ending = [started(alice, bob, deck=unsettled_deck()) for _ in range(4)]
    last_moves = [one_misplay_from_the_end(game) for game in ending]
    bot_game = started(alice, bots=1)  # a bot that moves first does so now
    people_game = started(carol, dave)
    wait_until_outbox_done(120)

    if mover(bot_game) != alice:
        raise BenchError("the bot's game should wait for Alice's move")
    bot_turn = bot_game.turn + 1

    for game, last_move in zip(ending, last_moves, strict=True):
        play.submit_action(game.pk, mover(game), last_move, game.turn)
    play.submit_action(bot_game.pk, alice, a_clue(bot_game), bot_game.turn)
    bot_due = time.time()
    moving = time.time()
    play.submit_action(people_game.pk, mover(people_game), a_clue(people_game), people_game.turn)
    email_due = time.time()

    bot_row = Outbox.objects.get(kind="bot_move", payload__game=bot_game.pk, payload__turn=bot_turn)
    next_player = mover(people_game)
    deadline = time.monotonic() + 8 * analysis_seconds + 120
    while True:
        bot_row.refresh_from_db()
        arrived = sink.first_to(next_player.email, since=moving)
        if bot_row.done_at is not None and arrived is not None:
            break
        if time.monotonic() > deadline:
            raise BenchError("the bot's move or the turn email never came")
        time.sleep(POLL_SECONDS)
    wait_until_outbox_done(8 * analysis_seconds + 120)
    analyses = Outbox.objects.filter(kind="analysis", payload__game__in=[g.pk for g in ending])
    return Measure(
        bot_move_seconds=bot_row.done_at.timestamp() - bot_due,
        turn_email_seconds=arrived - email_due,
        analysis_seconds=[(row.done_at - row.claimed_at).total_seconds() for row in analyses],
    )


# -- the run --------------------------------------------------------------------------------


def run_configuration(
    configuration: str, args, env: dict[str, str], queue: str, people, sink
) -> list[Measure]:
    workers = ["worker"] if configuration == "one queue" else ["worker", "analysis"]
    with ExitStack() as stack:
        started_workers = {
            name: stack.enter_context(procfile_process(name, env)) for name in workers
        }
        wait_for_worker("worker", started_workers["worker"], queue)
        if "analysis" in started_workers:
            wait_for_worker("analysis", started_workers["analysis"], f"{queue}-analysis")
        return [measure(people, sink, args.analysis_seconds) for _ in range(args.repeat)]


def main() -> int:
    args = parse_args()
    queue = f"bench-queues-{uuid.uuid4().hex[:12]}"
    with ExitStack() as stack:
        sink, sink_port = stack.enter_context(smtp_sink(ArrivalSink()))
        env = environment(args, sink_port, queue)
        os.environ.update(env)
        recreate_database(args.pg, args.database)
        stack.callback(drop_database, args.pg, args.database)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, check=True
        )
        stack.callback(forget_queue, args.redis_url, queue)
        stack.callback(forget_queue, args.redis_url, f"{queue}-analysis")
        import django

        django.setup()
        from django.db import connection

        people = players()
        results = {}
        # "own queue" first: "one queue" then changes how this process routes the analyses.
        for configuration in reversed(CONFIGURATIONS):
            if configuration == "one queue":
                analyses_on_the_default_queue()
            results[configuration] = run_configuration(
                configuration, args, env, queue, people, sink
            )
        connection.close()  # before the database is dropped
    report(args, results)
    return 0


def median(values: list[float]) -> float:
    return statistics.median(values)


def report(args, results: dict[str, list[Measure]]) -> None:
    if args.json:
        print(
            json.dumps(
                {
                    "analysis_seconds": args.analysis_seconds,
                    "configurations": {
                        name: [dataclasses.asdict(m) for m in measures]
                        for name, measures in results.items()
                    },
                },
                indent=1,
            )
        )
        return
    print(
        f"\nA bot's move and a turn email, due while 4 analyses of {args.analysis_seconds:g} s "
        f"run ({args.repeat} measures each; seconds from the move that made each due):\n"
    )
    print(f"{'configuration':<12} {'bot move':>9} {'turn email':>11}   each (bot / email)")
    for name in CONFIGURATIONS:
        measures = results[name]
        each = ", ".join(f"{m.bot_move_seconds:.2f}/{m.turn_email_seconds:.2f}" for m in measures)
        print(
            f"{name:<12} {median([m.bot_move_seconds for m in measures]):>9.2f} "
            f"{median([m.turn_email_seconds for m in measures]):>11.2f}   {each}"
        )
    for name in CONFIGURATIONS:
        ran = [seconds for m in results[name] for seconds in m.analysis_seconds]
        print(f"analyses ({name}): median {median(ran):.2f} s each, {len(ran)} in all")
    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    sys.exit(main())
