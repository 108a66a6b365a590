"""Benchmark of the profile and history pages with 100,000 finished games. Not a test: it
prints figures.

    .venv/bin/python bench/profiles.py                  # 100,000 games, 300 requests a page
    .venv/bin/python bench/profiles.py --games 20000 --requests 100 --json

What it does:

1. Recreates the PostgreSQL database `hanabi_bench_profiles` (server from --pg) and migrates
   it, with production's settings (DEBUG off, Redis for the cache and sessions: --redis-url)
   and bench.site_settings's URLs, which add the trivial view; collects the static files.
2. Bulk-creates --players people and --games finished games of 2–6 seats (random variants,
   scores and endings over a year; a bot in about one seat in six); one person, the "heavy"
   player, sits at a tenth of all tables. Then `players.rebuild.rebuild_all()` computes
   every figure (timed), and ANALYZE.
3. Measures in this process, through Django's test client (the whole middleware stack, no
   HTTP server), in --rounds turns so that every page sees the same moments of a shared
   machine's load: the trivial view (/bench/trivial/: the floor of a request); the heavy
   player's profile; their history's first page; its last page; a history filtered by
   partner and result; a typical player's profile. Each as median and 95th percentile of
   --requests requests, and the ratio of each to the trivial view's; with the queries per
   request.
4. Measures what a game's ending adds to its move: `players.stats.record_finished_game` for
   a four-person game, in a transaction rolled back (median of 200), and its queries.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import secrets
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.services import add_service_arguments, drop_database, recreate_database  # noqa: E402

VAR_DIR = ROOT / "var" / "bench"
BATCH = 5000
TRIVIAL = "/bench/trivial/"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--requests", type=int, default=300, help="requests of each page")
    parser.add_argument("--rounds", type=int, default=10, help="turns the requests are split in")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    add_service_arguments(parser, "hanabi_bench_profiles")
    parser.set_defaults(redis_url="redis://127.0.0.1:6379/13")
    return parser.parse_args()


def configure_environment(args: argparse.Namespace) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="bench.site_settings",
        DATABASE_URL=f"{args.pg.rstrip('/')}/{args.database}",
        REDIS_URL=args.redis_url,
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="false",
        ALLOWED_HOSTS="testserver",
        VAR_DIR=str(VAR_DIR),
        LOG_LEVEL="WARNING",
    )
    os.environ.pop("EMAIL_URL", None)
    VAR_DIR.mkdir(parents=True, exist_ok=True)


# -- the data -------------------------------------------------------------------------------

VARIANTS = [
    {},
    {},
    {},
    {"multicolour": 1},
    {"multicolour": 2},
    {"multicolour": 3},
    {"until_perfect": True},
    {"fuses": 1},
]


def create_people(count: int) -> list[int]:
    from accounts.models import User

    User.objects.bulk_create(
        User(email=f"profile-{n}@bench.invalid", display_name=f"P{n}", password="!")
        for n in range(count)
    )
    return list(User.objects.order_by("pk").values_list("pk", flat=True))


def create_games(args: argparse.Namespace, people: list[int]) -> None:
    """--games finished games with their seats, bulk-created (the services would take hours)."""
    from django.utils import timezone

    from games.engine import End, GameOptions
    from games.models import Game, Seat

    rng = random.Random(args.seed)
    heavy, others = people[0], people[1:]
    now = timezone.now()
    ends = [End.LAST_ROUND] * 6 + [End.STRIKEOUT] * 3 + [End.PERFECT, "timed_out"]
    for first in range(0, args.games, BATCH):
        specs = []
        for n in range(first, min(first + BATCH, args.games)):
            options = GameOptions(players=rng.randint(2, 6), **rng.choice(VARIANTS))
            table = rng.sample(others, options.players)
            if n % 10 == 0:
                table[0] = heavy
            seats = [None if rng.random() < 1 / 6 and i else u for i, u in enumerate(table)]
            end = rng.choice(ends)
            score = {
                End.PERFECT: options.max_score,
                End.STRIKEOUT: 0,
                "timed_out": 0,
            }.get(end, rng.randint(5, options.max_score))
            finished = now - timedelta(minutes=rng.randint(1, 365 * 24 * 60))
            game = Game(
                options=options.to_dict(),
                player_count=options.players,
                variant=options.variant_name(),
                status=Game.Status.FINISHED,
                visibility=Game.Visibility.PUBLIC if n % 3 == 0 else Game.Visibility.INVITE,
                creator_id=table[0],
                score=score,
                max_score=options.max_score,
                end=str(end),
                turn=40,
                started_at=finished - timedelta(days=2),
                finished_at=finished,
            )
            specs.append((game, seats))
        Game.objects.bulk_create([game for game, _ in specs])
        Seat.objects.bulk_create(
            Seat(game_id=game.pk, position=i, user_id=user, is_bot=user is None)
            for game, seats in specs
            for i, user in enumerate(seats)
        )


def analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


# -- the measures ---------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure_pages(args: argparse.Namespace, pages: dict[str, str], viewer_id: int) -> dict:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User

    client = Client()
    client.force_login(User.objects.get(pk=viewer_id))

    def get(path: str) -> None:
        response = client.get(path, secure=True)
        if response.status_code != 200:
            raise SystemExit(f"{path}: {response.status_code}")

    queries = {}
    for name, path in pages.items():
        get(path)  # warm: the session, the template cache
        with CaptureQueriesContext(connection) as captured:
            get(path)
        queries[name] = len(captured)
    times: dict[str, list[float]] = {name: [] for name in pages}
    per_round = max(1, args.requests // args.rounds)
    for _ in range(args.rounds):
        for name, path in pages.items():
            for _ in range(per_round):
                start = time.perf_counter()
                get(path)
                times[name].append((time.perf_counter() - start) * 1000)
    floor = statistics.median(times["trivial view"])
    floor_p95 = percentile(times["trivial view"], 0.95)
    return {
        name: {
            "path": pages[name],
            "requests": len(values),
            "median_ms": round(statistics.median(values), 2),
            "p95_ms": round(percentile(values, 0.95), 2),
            "median_vs_trivial": round(statistics.median(values) / floor, 1),
            "p95_vs_trivial": round(percentile(values, 0.95) / floor_p95, 1),
            "queries": queries[name],
        }
        for name, values in times.items()
    }


def measure_recording(people: list[int]) -> dict:
    """What the end of a four-person game adds to its move's transaction."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games.engine import End, GameOptions
    from games.models import Game, Seat
    from players.stats import record_finished_game

    options = GameOptions(players=4)
    times, counts = [], []
    for n in range(201):
        with transaction.atomic():
            game = Game.objects.create(
                options=options.to_dict(),
                status=Game.Status.FINISHED,
                creator_id=people[n % 50],
                score=17,
                max_score=25,
                end=str(End.LAST_ROUND),
                finished_at=timezone.now(),
            )
            seats = Seat.objects.bulk_create(
                Seat(game=game, position=i, user_id=people[(n + 7 * i) % len(people)])
                for i in range(4)
            )
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                record_finished_game(game, seats)
                elapsed = (time.perf_counter() - start) * 1000
            if n:  # the first warms the connection's plans
                times.append(elapsed)
                counts.append(len(captured))
            transaction.set_rollback(True)
    return {"median_ms": round(statistics.median(times), 2), "queries": max(counts)}


def main() -> None:
    args = parse_args()
    configure_environment(args)
    recreate_database(args.pg, args.database)
    try:
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)

        from players.models import GameRecord, PartnerStats
        from players.rebuild import rebuild_all

        started = time.perf_counter()
        people = create_people(args.players)
        create_games(args, people)
        created_s = time.perf_counter() - started
        started = time.perf_counter()
        rebuild_all()
        rebuild_s = time.perf_counter() - started
        analyze()

        heavy = people[0]
        typical = people[len(people) // 2]
        heavy_games = GameRecord.objects.filter(user_id=heavy).count()
        partner = PartnerStats.objects.filter(user_id=heavy).order_by("-played")[0].partner_id
        last_page = (heavy_games + 24) // 25
        pages = {
            "trivial view": TRIVIAL,
            "profile (heavy)": f"/players/{heavy}/",
            "history p.1 (heavy)": f"/players/{heavy}/games/",
            f"history p.{last_page} (heavy)": f"/players/{heavy}/games/?page={last_page}",
            "history filtered": f"/players/{heavy}/games/?partner={partner}&result=lost",
            "profile (typical)": f"/players/{typical}/",
        }
        report = {
            "games": args.games,
            "people": args.players,
            "heavy_player_games": heavy_games,
            "typical_player_games": GameRecord.objects.filter(user_id=typical).count(),
            "game_records": GameRecord.objects.count(),
            "create_s": round(created_s, 1),
            "rebuild_s": round(rebuild_s, 1),
            "pages": measure_pages(args, pages, viewer_id=people[-1]),
            "record_finished_game": measure_recording(people),
            "python": platform.python_version(),
        }
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database(args.pg, args.database)
    print_report(report, args.json)


def print_report(report: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"{report['games']:,} finished games, {report['people']:,} people, "
        f"{report['game_records']:,} game records; the heavy player has "
        f"{report['heavy_player_games']:,} games, a typical one "
        f"{report['typical_player_games']:,}"
    )
    print(f"created in {report['create_s']} s; rebuild_player_stats in {report['rebuild_s']} s")
    print(f"{'':26} {'median ms':>10} {'p95 ms':>8} {'median ×':>9} {'p95 ×':>6} {'queries':>8}")
    for name, row in report["pages"].items():
        print(
            f"{name:26} {row['median_ms']:10.2f} {row['p95_ms']:8.2f} "
            f"{row['median_vs_trivial']:9.1f} {row['p95_vs_trivial']:6.1f} {row['queries']:8}"
        )
    recording = report["record_finished_game"]
    print(
        f"a four-person game's end adds {recording['median_ms']} ms "
        f"and {recording['queries']} queries to its move"
    )


if __name__ == "__main__":
    main()
