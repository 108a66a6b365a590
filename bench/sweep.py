"""Benchmark of the deadline sweep on PostgreSQL with many active games. Not a test: it prints
figures.

    .venv/bin/python bench/sweep.py                  # 1,000 / 10,000 / 100,000 games
    .venv/bin/python bench/sweep.py --sizes 1000,10000 --json

The point it shows: the sweep's cost does not grow with the number of games that are not
overdue, because `clock.overdue_games(now)` (the query the sweep runs every minute) is a
range scan of the partial index `game_overdue` (turn_deadline, only for games in play with a
deadline), which stops after the overdue entries.

What it does:

1. Recreates the PostgreSQL database `hanabi_bench_sweep` (server from --pg, default
   postgres://postgres@127.0.0.1:5432) and migrates it. Celery's broker is Redis database 15
   (--redis-url): the sweep's moves enqueue their outbox rows there after commit, as in
   production; no worker runs, and the queue is emptied at the end.
2. Bulk-creates players and --overdue games in play (two players each, turn 0) whose
   deadline passed a few minutes ago, then grows the number of games in play that are *not*
   overdue (deadlines spread over the next 7 days) through --sizes, running ANALYZE after
   each step as autovacuum eventually would.
3. At each size measures, each as the median of --repeat runs:
   * `overdue_games`: `clock.overdue_games(now)` through the ORM, as the sweep calls it;
   * index scan: the same SQL sent directly (what PostgreSQL itself spends);
   * seq scan: the same SQL with index scans turned off for the transaction, for contrast:
     what the sweep would cost without the index;
   and the whole `games.tasks.sweep_deadlines()` (median of --sweeps runs), which times out every
   overdue game through `clock.time_out` (a cautious move each); the overdue games are
   put back to their overdue turn 0 between runs. It checks that every run timed out all
   of them, and counts the SQL queries of one sweep. Then, with no game overdue, the idle
   sweep that beat runs every minute (the query and the outbox's due rows, nothing to do).
4. Prints the figures and `EXPLAIN (ANALYZE, BUFFERS)` of the query at each size, showing the
   plan uses `game_overdue` and reads the same few rows and buffers whatever the size.

The machine is shared: absolute figures vary from run to run; compare across sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.services import drop_database, empty_broker_queue, recreate_database  # noqa: E402

# Django is imported inside the functions that need it: its settings read the environment,
# which main() sets first.

VAR_DIR = ROOT / "var" / "bench"
BATCH = 5000
PLAYERS = 1000  # distinct users; each game seats two of them


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        default="1000,10000,100000",
        help="numbers of games in play that are not overdue, comma separated, increasing",
    )
    parser.add_argument("--overdue", type=int, default=20, help="overdue games (fixed)")
    parser.add_argument("--repeat", type=int, default=200, help="runs of each query measure")
    parser.add_argument("--sweeps", type=int, default=7, help="runs of the whole sweep")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    parser.add_argument("--database", default="hanabi_bench_sweep", help="dropped, recreated")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/15")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a report")
    args = parser.parse_args()
    args.sizes = [int(size) for size in args.sizes.split(",")]
    if args.sizes != sorted(args.sizes):
        parser.error("--sizes must increase: games are added, never removed")
    return args


def configure_environment(args: argparse.Namespace) -> None:
    """Production's settings (DEBUG off, PostgreSQL, Redis) with the benchmark's database."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="hanabi_site.settings",
        DATABASE_URL=f"{args.pg.rstrip('/')}/{args.database}",
        REDIS_URL=args.redis_url,
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="false",
        VAR_DIR=str(VAR_DIR),
        LOG_LEVEL="WARNING",
    )
    os.environ.pop("EMAIL_URL", None)  # no email is sent, but never to a real server
    VAR_DIR.mkdir(parents=True, exist_ok=True)


# -- the data -------------------------------------------------------------------------------


def create_players() -> list:
    from accounts.models import User

    User.objects.bulk_create(
        User(email=f"sweep-{n}@bench.invalid", display_name=f"P{n}", password="!")
        for n in range(PLAYERS)
    )
    return list(User.objects.order_by("pk").values_list("pk", flat=True))


def create_games(players: list[int], count: int, deadline_of, start: int = 0) -> list[int]:
    """`count` two-player games in play at turn 0, seat 0 to move, with their seats; the
    deadline of the i-th is deadline_of(i). Bulk-created: the services would take hours."""
    from django.utils import timezone

    from games.engine import GameOptions
    from games.models import Game, Seat, TimeoutPolicy, new_invite_code, new_seed

    options = GameOptions(players=2)
    now = timezone.now()
    ids: list[int] = []
    for first in range(start, start + count, BATCH):
        numbers = range(first, min(first + BATCH, start + count))
        games = Game.objects.bulk_create(
            Game(
                options=options.to_dict(),
                seed=new_seed(),
                status=Game.Status.PLAYING,
                visibility=Game.Visibility.INVITE,
                invite_code=new_invite_code(),
                creator_id=players[n % len(players)],
                turn=0,
                current_seat=0,
                max_score=options.max_score,
                started_at=now,
                turn_time_limit=168,
                timeout_policy=TimeoutPolicy.AUTO_MOVE,
                turn_started_at=deadline_of(n) - timedelta(hours=168),
                turn_deadline=deadline_of(n),
            )
            for n in numbers
        )
        Seat.objects.bulk_create(
            Seat(game_id=game.pk, position=position, user_id=players[(n + position) % len(players)])
            for n, game in zip(numbers, games, strict=True)
            for position in (0, 1)
        )
        ids += [game.pk for game in games]
    return ids


def overdue_deadline(n: int):
    from django.utils import timezone

    return timezone.now() - timedelta(minutes=1 + n)


def future_deadline(n: int):
    """Spread over the next 7 days, in a scrambled order (as games come and go)."""
    from django.utils import timezone

    return timezone.now() + timedelta(minutes=1 + (n * 7919) % (7 * 24 * 60))


def put_back_overdue(ids: list[int]) -> None:
    """Undo a sweep: the overdue games back at turn 0, past their deadline."""
    from django.db import transaction

    from games.models import Game, Move, Seat
    from outbox.models import Outbox

    with transaction.atomic():
        Move.objects.filter(game_id__in=ids).delete()
        Outbox.objects.all().delete()  # only the sweeps made any
        Seat.objects.filter(game_id__in=ids).update(timeouts_in_a_row=0, is_bot=False)
        for n, game_id in enumerate(ids):
            deadline = overdue_deadline(n)
            Game.objects.filter(pk=game_id).update(
                turn=0,
                current_seat=0,
                score=0,
                turn_started_at=deadline - timedelta(hours=168),
                turn_deadline=deadline,
            )


def analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        # INDEX_CLEANUP ON: the entries of the overdue games' old row versions (the previous
        # size's sweeps) would otherwise stay in the small partial index, as VACUUM skips
        # index cleanup when so few pages have dead rows.
        cursor.execute("VACUUM (ANALYZE, INDEX_CLEANUP ON) games_game")
        cursor.execute("VACUUM (ANALYZE, INDEX_CLEANUP ON) games_seat")


# -- the measures ---------------------------------------------------------------------------


def median_ms(function, repeat: int) -> float:
    function()  # warm the caches once
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def the_sweeps_query(now) -> str:
    """The SQL that clock.overdue_games(now) sends, exactly as sent."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.services import clock

    with CaptureQueriesContext(connection) as captured:
        clock.overdue_games(now)
    (query,) = captured.captured_queries
    return query["sql"]


def run_sql(sql: str, seq_scan: bool = False) -> list:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        if seq_scan:
            for setting in ("enable_indexscan", "enable_indexonlyscan", "enable_bitmapscan"):
                cursor.execute(f"SET LOCAL {setting} = off")
        cursor.execute(sql)
        return cursor.fetchall()


def explain(sql: str) -> str:
    rows = run_sql(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
    return "\n".join(row[0] for row in rows)


def measure_size(args, size: int, overdue_ids: list[int]) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games import tasks
    from games.models import Game, MadeBy, Move
    from games.services import clock

    now = timezone.now()
    found = clock.overdue_games(now)
    if sorted(game_id for game_id, _ in found) != sorted(overdue_ids):
        raise SystemExit(f"overdue_games found {len(found)} games, not the {len(overdue_ids)}")
    sql = the_sweeps_query(now)
    playing = Game.objects.filter(status=Game.Status.PLAYING).count()

    query_ms = median_ms(lambda: clock.overdue_games(now), args.repeat)
    index_ms = median_ms(lambda: run_sql(sql), args.repeat)
    seq_ms = median_ms(lambda: run_sql(sql, seq_scan=True), max(args.repeat // 10, 5))
    plan = explain(sql)
    seq_plan = "\n".join(row[0] for row in run_sql(f"EXPLAIN {sql}", seq_scan=True))

    sweep_times = []
    sweep_sql_times = []
    sweep_queries = 0
    for run in range(args.sweeps):
        put_back_overdue(overdue_ids)
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as captured:
            result = tasks.sweep_deadlines()
        sweep_times.append(time.perf_counter() - start)
        sweep_queries = len(captured.captured_queries)
        sweep_sql_times.append(sum(float(query["time"]) for query in captured.captured_queries))
        timed_out = Move.objects.filter(game_id__in=overdue_ids, made_by=MadeBy.TIMEOUT).count()
        if result != len(overdue_ids) or timed_out != len(overdue_ids):
            raise SystemExit(f"sweep run {run} timed out {timed_out} games: {result}")
    # Now no game is overdue: what the sweep costs every minute when there is nothing to do.
    if tasks.sweep_deadlines():
        raise SystemExit("a sweep found overdue games after the overdue ones were timed out")
    idle_ms = median_ms(tasks.sweep_deadlines, max(args.repeat // 4, 5))
    put_back_overdue(overdue_ids)

    return {
        "not_overdue": size,
        "games_in_play": playing,
        "overdue": len(overdue_ids),
        "overdue_games_ms": round(query_ms, 3),
        "sql_index_scan_ms": round(index_ms, 3),
        "sql_seq_scan_ms": round(seq_ms, 3),
        "idle_sweep_ms": round(idle_ms, 3),
        "sweep_ms": round(statistics.median(sweep_times) * 1000, 1),
        "sweep_ms_per_overdue_game": round(
            statistics.median(sweep_times) * 1000 / len(overdue_ids), 2
        ),
        "sweep_queries": sweep_queries,
        "sweep_sql_ms": round(statistics.median(sweep_sql_times) * 1000, 1),
        "slowest_sweep_queries": sorted(
            captured.captured_queries, key=lambda query: -float(query["time"])
        )[:3],
        "uses_game_overdue": "game_overdue" in plan,
        "plan": plan,
        "plan_without_index": seq_plan,
    }


def machine() -> dict:
    import django
    from django.db import connection

    return {
        "python": platform.python_version(),
        "django": django.get_version(),
        "postgresql": connection.cursor().connection.info.parameter_status("server_version"),
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
    }


# -- the report -----------------------------------------------------------------------------


def print_report(result: dict) -> None:
    print(f"sweep benchmark: {result['machine']}")
    print(f"command: {result['command']}")
    print(
        f"{result['overdue']} overdue games; medians of {result['repeat']} query runs and "
        f"{result['sweeps']} sweeps\n"
    )
    header = (
        f"{'not overdue':>12} {'in play':>8} {'overdue_games()':>16} {'SQL, index':>11} "
        f"{'SQL, seq scan':>14} {'idle sweep':>11} {'sweep of the overdue':>21} "
        f"{'per game':>9} {'queries':>8}"
    )
    print(header)
    for row in result["rows"]:
        print(
            f"{row['not_overdue']:>12,} {row['games_in_play']:>8,} "
            f"{row['overdue_games_ms']:>13.3f} ms {row['sql_index_scan_ms']:>8.3f} ms "
            f"{row['sql_seq_scan_ms']:>11.3f} ms {row['idle_sweep_ms']:>8.3f} ms "
            f"{row['sweep_ms']:>18.1f} ms "
            f"{row['sweep_ms_per_overdue_game']:>6.2f} ms {row['sweep_queries']:>8}"
        )
    for row in result["rows"]:
        print(f"\nEXPLAIN (ANALYZE, BUFFERS), {row['not_overdue']:,} games not overdue:")
        print(row["plan"])
    last = result["rows"][-1]
    print(f"\nWithout the index ({last['not_overdue']:,} games not overdue), the plan would be:")
    print(last["plan_without_index"])


def main() -> int:
    args = parse_args()
    configure_environment(args)
    recreate_database(args.pg, args.database)

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)

    started = time.perf_counter()
    players = create_players()
    overdue_ids = create_games(players, args.overdue, overdue_deadline)
    rows = []
    present = 0
    for size in args.sizes:
        create_games(players, size - present, future_deadline, start=args.overdue + present)
        present = size
        analyze()
        rows.append(measure_size(args, size, overdue_ids))
        if not args.json:
            print(f"measured with {size:,} games not overdue", file=sys.stderr)
    result = {
        "command": " ".join([".venv/bin/python", "bench/sweep.py", *sys.argv[1:]]),
        "machine": machine(),
        "overdue": args.overdue,
        "repeat": args.repeat,
        "sweeps": args.sweeps,
        "rows": rows,
        "seconds": round(time.perf_counter() - started, 1),
        "tasks_dropped_from_broker": empty_broker_queue(args.redis_url),
    }
    if not args.keep:
        from django.db import connections

        connections.close_all()
        drop_database(args.pg, args.database)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_report(result)
    ok = all(row["uses_game_overdue"] for row in rows)
    if not ok:
        print("\nTHE QUERY DID NOT USE THE game_overdue INDEX", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
