"""What a finished game weighs in PostgreSQL, table by table, before and after the outbox
purge (outbox/purge.py). Not a test: it prints figures.

    .venv/bin/python bench/disk.py                    # one 2-player game, 24-hour turns
    .venv/bin/python bench/disk.py --games 10 --players 3 --json

What it does:

1. Recreates the PostgreSQL database `hanabi_bench_disk` (server from --pg, default
   postgres://postgres@127.0.0.1:5432) and migrates it; drops it at the end (--keep keeps
   it). No broker: Celery runs the tasks in the process (task_always_eager), emails go to
   memory.
2. Plays --games games of --players people to the end through the services, as the site
   does (`lobby.create_game`, `join_game`, `start_game`, then `play.submit_action` for each
   turn, each player choosing the move the site's bot would make in their place), with a
   time limit of --time-limit hours a turn (so each turn writes its your-turn email and its
   reminder, as in a game played by email). Then every outbox row is carried out, as the
   workers would have within the hour (each turn's email is due 90 s after the move; the
   reminders later): every row is done, the state the purge finds a week on.
3. Measures, for every table with rows, the rows and their bytes: the sum of
   `pg_column_size(t.*)`, each row's stored size (tuple header and data, as stored:
   compressed values compressed, values moved out to TOAST counted in full). Not counted:
   the 4-byte line pointer of each row, alignment padding, free space in pages, indexes.
   Games' tables (`games_*`, which includes the outbox's `games_outbox`) are the game's
   size; the others (users, sessions, migrations…) are shown apart and not in the total.
4. Runs `purge_done(older_than=timedelta(0))` (every done row: the game is over and has no
   dedupe key that can come back; see outbox/purge.py) and measures again.

Figures are per game (the totals divided by --games).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import sys
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.services import drop_database, recreate_database  # noqa: E402

# Django is imported inside the functions that need it: its settings read the environment,
# which main() sets first.

VAR_DIR = ROOT / "var" / "bench"
OUTBOX = "games_outbox"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1, help="games played (figures per game)")
    parser.add_argument("--players", type=int, default=2, choices=range(2, 6))
    parser.add_argument("--time-limit", type=int, default=24, help="hours a turn; 0: none")
    parser.add_argument("--seed", type=int, default=1234, help="the first game's deal")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    parser.add_argument("--database", default="hanabi_bench_disk", help="dropped, recreated")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a report")
    return parser.parse_args()


def configure_environment(args: argparse.Namespace) -> None:
    """Production's settings (DEBUG off, PostgreSQL) with the benchmark's database."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="hanabi_site.settings",
        DATABASE_URL=f"{args.pg.rstrip('/')}/{args.database}",
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="false",
        VAR_DIR=str(VAR_DIR),
        LOG_LEVEL="WARNING",
        EMAIL_URL="memorymail://localhost",  # never a real server
        ANALYSIS_TIME_LIMIT_SECONDS="2",  # the analysis's row is as big after 2 s as after 20
    )
    os.environ.pop("REDIS_URL", None)
    VAR_DIR.mkdir(parents=True, exist_ok=True)


# -- the games ------------------------------------------------------------------------------


def play_games(args: argparse.Namespace) -> list[int]:
    from accounts.models import User
    from games.engine import GameOptions, action_to_dict
    from games.models import Game
    from games.services import lobby, play

    people = [
        User.objects.create_user(
            f"disk-{n}@bench.invalid", secrets.token_urlsafe(), display_name=f"P{n}"
        )
        for n in range(args.players)
    ]
    ids = []
    for number in range(args.games):
        game = lobby.create_game(
            people[0],
            GameOptions(players=args.players),
            Game.Visibility.INVITE,
            turn_time_limit=args.time_limit or None,
        )
        Game.objects.filter(pk=game.pk).update(seed=args.seed + number)
        for person in people[1:]:
            lobby.join_game(game.pk, person, game.invite_code)
        lobby.start_game(game.pk, people[0])
        game.refresh_from_db()
        while game.is_playing():
            seat = game.seats.select_related("user").get(position=game.current_seat)
            action = action_to_dict(play.bot_action(game, seat))
            play.submit_action(game.pk, seat.user, action, game.turn)
            game.refresh_from_db()
        ids.append(game.pk)
    return ids


def carry_out_every_row() -> int:
    """Every row due and run, as the workers would have done by now; how many rows."""
    from django.utils import timezone

    from outbox import delivery
    from outbox.models import Outbox

    Outbox.objects.filter(done_at=None).update(due_at=timezone.now())
    for pk in Outbox.objects.filter(done_at=None).values_list("pk", flat=True):
        delivery.run(pk)
    left = Outbox.objects.filter(done_at=None).count()
    if left:
        raise RuntimeError(f"{left} outbox rows could not be carried out")
    return Outbox.objects.count()


# -- the measures ---------------------------------------------------------------------------


def measure(games: int) -> dict:
    """{table: {"rows", "bytes"}} per game, for every table with rows."""
    from django.db import connection

    tables = connection.introspection.table_names()
    sizes = {}
    with connection.cursor() as cursor:
        for table in sorted(tables):
            name = connection.ops.quote_name(table)
            cursor.execute(f"SELECT count(*), coalesce(sum(pg_column_size(t.*)), 0) FROM {name} t")
            rows, size = cursor.fetchone()
            if rows:
                sizes[table] = {"rows": rows / games, "bytes": int(size) / games}
    return sizes


def summary(sizes: dict) -> dict:
    game = {table: size for table, size in sizes.items() if table.startswith("games_")}
    total = sum(size["bytes"] for size in game.values())
    outbox = game.get(OUTBOX, {"rows": 0, "bytes": 0})
    return {
        "tables": game,
        "total_bytes": total,
        "outbox_bytes": outbox["bytes"],
        "outbox_rows": outbox["rows"],
        "outbox_share": outbox["bytes"] / total if total else 0.0,
        "not_per_game": {t: s for t, s in sizes.items() if not t.startswith("games_")},
    }


def machine() -> dict:
    import django
    from django.db import connection

    return {
        "python": platform.python_version(),
        "django": django.get_version(),
        "postgresql": connection.cursor().connection.info.parameter_status("server_version"),
        "machine": platform.machine(),
    }


def run(args: argparse.Namespace) -> dict:
    import django
    from django.core.management import call_command

    django.setup()
    from games.models import Game, Move
    from hanabi_site.celery import app
    from outbox.purge import purge_done

    app.conf.task_always_eager = True  # no broker: tasks run here, after each commit
    call_command("migrate", verbosity=0)

    ids = play_games(args)
    rows = carry_out_every_row()
    before = summary(measure(args.games))
    purged = purge_done(older_than=timedelta(0))
    if purged != rows:
        raise RuntimeError(f"purged {purged} of {rows} done outbox rows")
    after = summary(measure(args.games))
    finished = Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED)
    return {
        "command": " ".join([".venv/bin/python", "bench/disk.py", *sys.argv[1:]]),
        "machine": machine(),
        "games": args.games,
        "players": args.players,
        "time_limit_hours": args.time_limit,
        "turns_per_game": Move.objects.count() / args.games,
        "scores": list(finished.order_by("pk").values_list("score", flat=True)),
        "purged_rows": purged,
        "before": before,
        "after": after,
    }


# -- the report -----------------------------------------------------------------------------


def print_report(result: dict) -> None:
    before, after = result["before"], result["after"]
    print(
        f"{result['games']} finished game(s) of {result['players']} players, "
        f"{result['turns_per_game']:.0f} turns each (scores {result['scores']}), "
        f"{result['time_limit_hours'] or 'no'}-hour turns; per game:\n"
    )
    print(f"{'table':<24} {'rows':>7} {'bytes before':>13} {'bytes after':>12}")
    for table in sorted(before["tables"], key=lambda t: -before["tables"][t]["bytes"]):
        size = before["tables"][table]
        later = after["tables"].get(table, {"bytes": 0})["bytes"]
        print(f"{table:<24} {size['rows']:>7.0f} {size['bytes']:>13,.0f} {later:>12,.0f}")
    print(f"{'total':<24} {'':>7} {before['total_bytes']:>13,.0f} {after['total_bytes']:>12,.0f}")
    print(
        f"\nthe outbox: {before['outbox_rows']:.0f} rows, {before['outbox_bytes']:,.0f} bytes, "
        f"{before['outbox_share']:.0%} of the game before the purge; "
        f"{after['outbox_share']:.0%} after ({result['purged_rows']} rows purged)."
    )
    saved = before["total_bytes"] - after["total_bytes"]
    print(f"the game takes {saved:,.0f} bytes less ({saved / before['total_bytes']:.0%}).")
    others = ", ".join(f"{t} {s['bytes']:,.0f}" for t, s in before["not_per_game"].items())
    print(f"\nnot counted (not the game's), bytes per game: {others}")
    print(f"\n{result['command']}\n{result['machine']}")


def main() -> int:
    args = parse_args()
    configure_environment(args)
    recreate_database(args.pg, args.database)
    try:
        result = run(args)
    finally:
        if not args.keep:
            from django.db import connections

            connections.close_all()
            drop_database(args.pg, args.database)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
