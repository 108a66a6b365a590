"""Measure the hat bot in self-play: ``python -m games.bots.hat [options]``.

    python -m games.bots.hat --players 2 3 4 5 --games 400 --seed 1
        [--multicolour M] [--until-perfect] [--fuses F] [--empty-clues] [--cold] [--json]

For each player count: the mean score (a strike-out or a defeat scores 0) with its standard
error, the perfect and strike-out rates, and the time per decision (median and maximum) of
``choose_action`` alone. ``--cold`` empties the memo before every decision, as a process that
has never seen the game would be (the website's worst case).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time

from games.engine import GameOptions, new_game, view_for

from ..selfplay import deck_seeds
from . import choose_action
from .rebuild import clear_memo


def measure(options: GameOptions, games: int, seed: int, cold: bool) -> dict:
    lost_ends = ("strikeout", "defeat_lost_card", "defeat_no_action")
    scores, ends, times = [], [], []
    for deck_seed in deck_seeds(seed, games):
        state = new_game(options, seed=deck_seed)
        while state.end is None:
            view = view_for(state, state.current_seat)
            if cold:
                clear_memo()
            started = time.perf_counter()
            action = choose_action(view)
            times.append(time.perf_counter() - started)
            state.apply(action)
        scores.append(state.score)
        ends.append(str(state.end))
    mean = statistics.fmean(scores)
    error = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
    return {
        "options": options.describe(),
        "games": games,
        "mean": round(mean, 3),
        "stderr": round(error, 3),
        "perfect": round(sum(s == options.max_score for s in scores) / games, 4),
        "strikeouts": round(ends.count("strikeout") / games, 4),
        "lost": round(sum(end in lost_ends for end in ends) / games, 4),
        "decision_ms_median": round(1000 * statistics.median(times), 2),
        "decision_ms_max": round(1000 * max(times), 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.bots.hat")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--multicolour", type=int, default=0)
    parser.add_argument("--until-perfect", action="store_true")
    parser.add_argument("--fuses", type=int, default=3)
    parser.add_argument("--empty-clues", action="store_true")
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for players in args.players:
        options = GameOptions(
            players=players,
            multicolour=args.multicolour,
            until_perfect=args.until_perfect,
            fuses=args.fuses,
            empty_clues=args.empty_clues,
        )
        result = measure(options, args.games, args.seed, args.cold)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print(
                f"{result['options']}: {result['mean']:.2f} ± {result['stderr']:.2f} "
                f"({result['games']} games), perfect {100 * result['perfect']:.1f}%, "
                f"strike-outs {100 * result['strikeouts']:.1f}%, lost {100 * result['lost']:.1f}%, "
                f"decision median {result['decision_ms_median']} ms, "
                f"max {result['decision_ms_max']} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()
