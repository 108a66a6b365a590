"""Benchmark of the full-information team analysis (games/analysis/team.py). Not a test: it
prints figures.

    .venv/bin/python bench/team_analysis.py --players 2 --decks 200 --time-limit 10
    .venv/bin/python bench/team_analysis.py --players 2,3,4,5 --decks 200 --json

For each player count it runs ``analyse_deal`` on the standard decks of seeds 0..decks-1
(``games.engine.shuffle.new_deck``) and prints: decks, % exact (the bounds met), % proven
winnable (a line reaching the maximum was found), % not proven unwinnable (upper bound at the
maximum), % decided within ``--within`` seconds (1 by default: the bounds met that soon),
the distribution of best scores (``lower``; ``~`` marks decks whose bounds did not meet,
shown as lower..upper), and the median / 90th percentile / max seconds per deck.
The machine may be shared: compare ratios rather than absolute times.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from games.analysis.team import analyse_deal  # noqa: E402
from games.engine import GameOptions  # noqa: E402
from games.engine.shuffle import new_deck  # noqa: E402


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def run(players: int, decks: int, time_limit: float, verbose: bool, within: float = 1.0) -> dict:
    options = GameOptions(players)
    top = options.max_score
    seconds = []
    exact = won = maybe = quick = 0
    scores: Counter = Counter()
    open_decks = []
    slow_decks = []
    started = time.perf_counter()
    for seed in range(decks):
        result = analyse_deal(options, new_deck(options, seed), time_limit=time_limit)
        seconds.append(result.seconds)
        exact += result.exact
        quick += result.exact and result.seconds <= within
        won += result.lower == top
        maybe += result.upper == top
        if result.exact:
            scores[str(result.lower)] += 1
            if result.seconds > within:
                slow_decks.append(seed)
        else:
            scores[f"~{result.lower}..{result.upper}"] += 1
            open_decks.append(seed)
        if verbose and (not result.exact or result.lower < top):
            print(
                f"  {players}p seed {seed}: {result.lower}..{result.upper} "
                f"{'exact' if result.exact else 'open'} {result.nodes} nodes "
                f"{result.seconds:.2f} s",
                file=sys.stderr,
                flush=True,
            )
    return {
        "players": players,
        "decks": decks,
        "time_limit": time_limit,
        "exact_pct": 100 * exact / decks,
        "within_s": within,
        "decided_within_pct": 100 * quick / decks,
        "winnable_pct": 100 * won / decks,
        "upper_at_max_pct": 100 * maybe / decks,
        "scores": dict(sorted(scores.items(), key=lambda kv: kv[0].lstrip("~"), reverse=True)),
        "open_seeds": open_decks,
        "slow_seeds": slow_decks,
        "median_s": statistics.median(seconds),
        "p90_s": _percentile(seconds, 0.9),
        "max_s": max(seconds),
        "total_s": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="2", help="a player count or a list: 2,3,4,5")
    parser.add_argument("--decks", type=int, default=200)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument(
        "--within", type=float, default=1.0, help="count the decks decided within this many s"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per player count")
    parser.add_argument("--verbose", action="store_true", help="each open or lost deck")
    args = parser.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    if not args.json:
        print(f"Python {platform.python_version()}, time limit {args.time_limit} s per deck")
        print(
            f"{'players':>7} {'decks':>5} {'exact':>7} {f'≤{args.within:g} s':>7} "
            f"{'won':>7} {'≤max':>7} "
            f"{'median s':>9} {'p90 s':>7} {'max s':>7}  best scores"
        )
    for players in counts:
        row = run(players, args.decks, args.time_limit, args.verbose, args.within)
        if args.json:
            print(json.dumps(row), flush=True)
            continue
        scores = ", ".join(f"{score}: {count}" for score, count in row["scores"].items())
        print(
            f"{players:>7} {row['decks']:>5} {row['exact_pct']:>6.1f}% "
            f"{row['decided_within_pct']:>6.1f}% "
            f"{row['winnable_pct']:>6.1f}% {row['upper_at_max_pct']:>6.1f}% "
            f"{row['median_s']:>9.4f} {row['p90_s']:>7.4f} {row['max_s']:>7.2f}  {scores}",
            flush=True,
        )
        if row["open_seeds"]:
            print(f"{'':>7} open (bounds did not meet): seeds {row['open_seeds']}")
        if row["slow_seeds"]:
            print(f"{'':>7} decided after {args.within:g} s: seeds {row['slow_seeds']}")


if __name__ == "__main__":
    main()
