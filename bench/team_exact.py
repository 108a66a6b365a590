"""Benchmark of the exact best score of a seeing team: the search (games/analysis/team.py)
with a short time limit, then, where it leaves bounds, the second method (team.settle, the
SAT formula of games/analysis/team_exact.py). Not a test: it prints figures.

    .venv/bin/python bench/team_exact.py --players 2,3,4,5 --decks 1000
    .venv/bin/python bench/team_exact.py --players 2 --seeds 133,375,396 --verbose
    .venv/bin/python bench/team_exact.py --players 2,5 --decks 100 --cross-check --sat-limit 120

For each player count, on the standard decks of seeds 0..decks-1 (``new_deck``): decks,
how many ended exact, how many needed the second method, and the median / 95th percentile /
max seconds per deck (search and second method together); with --verbose, each deck the
second method was asked about. The machine may be shared: compare ratios, not times.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from games.analysis import team_exact  # noqa: E402
from games.analysis.team import _played_out, analyse_deal, best_score  # noqa: E402
from games.analysis.team_model import Deal, from_engine  # noqa: E402
from games.engine import GameOptions, new_game  # noqa: E402
from games.engine.shuffle import new_deck  # noqa: E402


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def run(players: int, seeds: list[int], search_s: float, sat_s: float, verbose: bool) -> dict:
    options = GameOptions(players)
    seconds = []
    exact = second = 0
    open_seeds, second_seeds = [], []
    started = time.perf_counter()
    for seed in seeds:
        result = analyse_deal(
            options, new_deck(options, seed), time_limit=search_s, sat_time_limit=sat_s
        )
        seconds.append(result.seconds)
        exact += result.exact
        if result.sat_seconds:
            second += 1
            second_seeds.append(seed)
        if not result.exact:
            open_seeds.append(seed)
        if verbose and result.settled_by != "search":
            print(
                f"  {players}p seed {seed}: {result.lower}..{result.upper} "
                f"settled by {result.settled_by or 'nothing'}, search {search_s:g} s + "
                f"SAT {result.sat_seconds:.1f} s",
                file=sys.stderr,
                flush=True,
            )
    return {
        "players": players,
        "decks": len(seeds),
        "exact": exact,
        "second_method": second,
        "second_method_seeds": second_seeds,
        "open_seeds": open_seeds,
        "median_s": statistics.median(seconds),
        "p95_s": _percentile(seconds, 0.95),
        "max_s": max(seconds),
        "total_s": time.perf_counter() - started,
    }


def cross_check(players: int, seeds: list[int], sat_s: float) -> dict:
    """On decks the search settles (10 s), the formula must reach the same best with a line
    the engine replays, and prove best + 1 out of reach: the two methods agree exactly."""
    options = GameOptions(players)
    agree, disagree, unknown, skipped, seconds = 0, [], [], 0, []
    for seed in seeds:
        state = new_game(options, deck=new_deck(options, seed))
        searched = best_score(state, time_limit=10)
        if not searched.exact:
            skipped += 1
            continue
        deal = Deal(options, state.deck)
        st = from_engine(deal, state)
        started = time.perf_counter()
        yes = team_exact.reaches(deal, st, searched.lower, sat_s)
        verdicts = [yes.verdict]
        if yes.verdict == team_exact.YES:
            _, game = _played_out(state, yes.moves)
            verdicts.append(game.score)
        if searched.lower < options.max_score:
            verdicts.append(team_exact.reaches(deal, st, searched.lower + 1, sat_s).verdict)
        seconds.append(time.perf_counter() - started)
        expected = [team_exact.YES, searched.lower]
        if searched.lower < options.max_score:
            expected.append(team_exact.NO)
        if verdicts == expected:
            agree += 1
        elif team_exact.UNKNOWN in verdicts:
            unknown.append(seed)
        else:
            disagree.append(seed)
            print(f"  {players}p seed {seed}: {verdicts} != {expected}", file=sys.stderr)
    return {
        "players": players,
        "decks": len(seeds),
        "agree": agree,
        "disagree": disagree,
        "unknown": unknown,
        "search_open": skipped,
        "median_s": statistics.median(seconds),
        "max_s": max(seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="2", help="a player count or a list: 2,3,4,5")
    parser.add_argument("--decks", type=int, default=200, help="seeds 0..decks-1")
    parser.add_argument("--seeds", default="", help="these seeds instead: 133,375,396")
    parser.add_argument("--search-limit", type=float, default=1.0, help="the search's seconds")
    parser.add_argument("--sat-limit", type=float, default=300.0, help="the second method's")
    parser.add_argument("--json", action="store_true", help="one JSON object per player count")
    parser.add_argument(
        "--cross-check", action="store_true", help="the formula against the search (JSON)"
    )
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else list(range(args.decks))
    if args.cross_check:
        for players in [int(p) for p in args.players.split(",")]:
            print(json.dumps(cross_check(players, seeds, args.sat_limit)), flush=True)
        return
    if not args.json:
        print(
            f"Python {platform.python_version()}, search {args.search_limit:g} s, "
            f"then SAT up to {args.sat_limit:g} s"
        )
        columns = f"{'players':>7} {'decks':>6} {'exact':>6} {'SAT':>4}"
        print(f"{columns} {'median s':>9} {'p95 s':>7} {'max s':>7}")
    for players in [int(p) for p in args.players.split(",")]:
        row = run(players, seeds, args.search_limit, args.sat_limit, args.verbose)
        if args.json:
            print(json.dumps(row), flush=True)
            continue
        print(
            f"{players:>7} {row['decks']:>6} {row['exact']:>6} {row['second_method']:>4} "
            f"{row['median_s']:>9.4f} {row['p95_s']:>7.4f} {row['max_s']:>7.2f}",
            flush=True,
        )
        if row["second_method_seeds"]:
            print(f"{'':>7} second method asked: seeds {row['second_method_seeds']}")
        if row["open_seeds"]:
            print(f"{'':>7} still open: seeds {row['open_seeds']}")


if __name__ == "__main__":
    main()
