"""Command line: ``python -m games.bots selfplay ...``

    python -m games.bots selfplay --players 3 --games 1000 --seed 1 [--multicolour M]
        [--until-perfect] [--fuses F] [--empty-clues] [--jobs J] [--json]
    python -m games.bots selfplay --games 1000 --seed 1        # the table: 2-5 players x
    python -m games.bots selfplay --table --games 1000 --seed 1  # every variant of RULES.md

One run prints the average score (a strike-out scores 0), the perfect-game rate, the
strike-out rate, the rate of every losing ending (strike-outs, and defeats with play until
perfect) and games per second. The same seed gives the same games, whatever ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from games.engine import MULTICOLOUR_VARIANTS, GameOptions, InvalidOptions

from .selfplay import SelfPlayRun, selfplay

# The rows of the table: every variant of RULES.md.
TABLE_VARIANTS: list[tuple[str, dict]] = [
    ("no variant", {}),
    ("sixth suit", {"multicolour": 1}),
    ("sixth suit, one of each", {"multicolour": 2}),
    ("wild multicolour", {"multicolour": 3}),
    ("until perfect", {"until_perfect": True}),
]
TABLE_PLAYERS = (2, 3, 4, 5)


def _describe(run: SelfPlayRun) -> str:
    return (
        f"{run.games} games, {run.options.describe()}, seed {run.seed}: "
        f"average {run.mean_score:.2f} of {run.options.max_score}, "
        f"perfect {100 * run.perfect_rate:.1f}%, strike-outs {100 * run.strikeout_rate:.1f}%, "
        f"lost {100 * run.loss_rate:.1f}%, {run.games_per_second:.1f} games/s"
    )


def _table_header() -> str:
    return (
        "| players | variant | games | average | perfect | strike-outs | lost | games/s |\n"
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    )


def _table_row(name: str, run: SelfPlayRun) -> str:
    return (
        f"| {run.options.players} | {name} | {run.games} | "
        f"{run.mean_score:.2f} / {run.options.max_score} | {100 * run.perfect_rate:.1f}% | "
        f"{100 * run.strikeout_rate:.1f}% | {100 * run.loss_rate:.1f}% | "
        f"{run.games_per_second:.1f} |"
    )


def cmd_selfplay(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 1
    jobs = args.jobs or os.cpu_count() or 1
    if args.players is not None and not args.table:
        try:
            options = GameOptions(
                players=args.players,
                multicolour=args.multicolour,
                until_perfect=args.until_perfect,
                fuses=args.fuses,
                empty_clues=args.empty_clues,
            )
        except InvalidOptions as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        run = selfplay(options, args.games, args.seed, jobs=jobs)
        print(json.dumps(run.to_dict()) if args.json else _describe(run))
        return 0

    common = {"fuses": args.fuses, "empty_clues": args.empty_clues}
    players = TABLE_PLAYERS if args.players is None else (args.players,)
    rows = []
    if not args.json:
        print(f"{args.games} games per row, seed {args.seed}")
        print(_table_header())
    for name, variant in TABLE_VARIANTS:
        for n in players:
            options = GameOptions(players=n, **variant, **common)
            run = selfplay(options, args.games, args.seed, jobs=jobs)
            if args.json:
                rows.append({"variant": name, **run.to_dict()})
            else:
                print(_table_row(name, run), flush=True)
    if args.json:
        print(json.dumps(rows))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.bots", description="Bot seats: self-play benchmark."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("selfplay", help="let the bots play whole games together")
    run.add_argument(
        "--players", type=int, help="2-6; omit it for the table of 2-5 players x every variant"
    )
    run.add_argument("--table", action="store_true", help="the table of every variant")
    run.add_argument("--games", type=int, default=1000)
    run.add_argument("--seed", type=int, default=1)
    run.add_argument(
        "--multicolour",
        type=int,
        default=0,
        choices=sorted(MULTICOLOUR_VARIANTS),
        help="0 none, 1 sixth suit, 2 sixth suit with one of each, 3 wild multicolour",
    )
    run.add_argument("--until-perfect", action="store_true")
    run.add_argument("--fuses", type=int, default=3, choices=(1, 2, 3))
    run.add_argument("--empty-clues", action="store_true")
    run.add_argument("--jobs", type=int, default=0, help="processes (default: one per CPU)")
    run.add_argument("--json", action="store_true", help="print JSON instead")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return cmd_selfplay(args)


if __name__ == "__main__":
    sys.exit(main())
