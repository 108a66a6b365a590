"""Benchmark of the rules engine (games/engine). Not a test: it prints figures.

    python bench/engine.py            # the full run (about a minute)
    python bench/engine.py --quick    # a smoke run

What it measures, each as the median of several repetitions:

* random games/s: games of uniformly random legal actions (`python -m games.engine random`);
  most end early by striking out, so they are short.
* long games/s: random games that never misplay and never discard the last copy of a needed
  card when they can avoid it, so they run to the end of the deck like real games.
* rebuild: the time to rebuild a finished long game's state from its stored actions, as the
  site does on every move (from Action objects, and from the JSON dicts a database holds).
* view, copy: building one player's view, and copying a state for a simulation.

The machine is shared: absolute figures vary from run to run, compare ratios.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import (  # noqa: E402
    Discard,
    GameOptions,
    Play,
    SplitMix64,
    action_to_dict,
    new_game,
    replay,
    view_for,
)
from games.engine.randomplay import random_games  # noqa: E402

CONFIGS = [
    GameOptions(2),
    GameOptions(3),
    GameOptions(5, multicolour=3),
    GameOptions(4, multicolour=1, until_perfect=True),
]


def careful_random_game(options: GameOptions, seed: int):
    """Random, but redrawn (up to 20 times) when the action would misplay or discard the
    last copy of a card the fireworks still need: games that last like real ones."""
    state = new_game(options, seed=seed)
    rng = SplitMix64(seed ^ 0x5EED)
    fireworks = state._fireworks
    deck = state.deck
    while state.end is None:
        legal = state.legal_actions()
        for _ in range(20):
            action = legal[rng.below(len(legal))]
            kind = type(action)
            if kind is Play or kind is Discard:
                suit, rank = deck[action.card_id]
                height = fireworks[suit]
                if kind is Play and height != rank - 1:
                    continue
                last_copy = state.copies_left(suit * 5 + rank - 1) == 1
                if kind is Discard and height < rank and last_copy:
                    continue
            break
        state.apply(action)
    return state


def median_of(repeat: int, function) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def per_call(repeat: int, calls: int, function) -> float:
    """Median over ``repeat`` batches of the mean time of one call, in seconds."""
    return median_of(repeat, lambda: [function() for _ in range(calls)]) / calls


def bench(repeat: int, games: int, calls: int) -> dict:
    results: dict = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "repeat": repeat,
    }
    random_rows = []
    for options in CONFIGS:
        seconds = median_of(repeat, lambda options=options: random_games(options, games, 1))
        run = random_games(options, games, 1)
        random_rows.append(
            {
                "options": options.describe(),
                "games_per_second": round(games / seconds),
                "mean_turns": round(run.turns / run.games, 1),
            }
        )
    results["random_games"] = random_rows

    long_rows = []
    long_games = max(games // 10, 20)
    for options in CONFIGS:

        def play_long(options=options):
            return [careful_random_game(options, seed) for seed in range(long_games)]

        seconds = median_of(repeat, play_long)
        turns = statistics.mean(state.turn for state in play_long())
        long_rows.append(
            {
                "options": options.describe(),
                "games_per_second": round(long_games / seconds),
                "mean_turns": round(turns, 1),
                "microseconds_per_action": round(seconds / long_games / turns * 1e6, 1),
            }
        )
    results["long_games"] = long_rows

    options = GameOptions(3)
    finished = careful_random_game(options, 2024)
    actions = list(finished.actions)
    dicts = [json.loads(json.dumps(action_to_dict(action))) for action in actions]
    assert replay(options, 2024, dicts).fingerprint() == finished.fingerprint()
    # A mid-game state where every kind of action is open (a token to clue, one to regain).
    upto = len(actions) // 2
    while not 0 < replay(options, 2024, actions, upto=upto).clue_tokens < 8:
        upto += 1
    mid = replay(options, 2024, actions, upto=upto)
    results["rebuild"] = {
        "game": f"{options.describe()}, {len(actions)} actions, ended {finished.end}",
        "replay_from_actions_ms": round(
            per_call(repeat, calls, lambda: replay(options, 2024, actions)) * 1e3, 3
        ),
        "replay_from_json_dicts_ms": round(
            per_call(repeat, calls, lambda: replay(options, 2024, dicts)) * 1e3, 3
        ),
        "new_game_ms": round(per_call(repeat, calls, lambda: new_game(options, seed=7)) * 1e3, 3),
        "view_for_mid_game_ms": round(per_call(repeat, calls, lambda: view_for(mid, 1)) * 1e3, 3),
        "copy_us": round(per_call(repeat, calls * 10, mid.copy) * 1e6, 2),
        "legal_actions_us": round(per_call(repeat, calls * 10, mid.legal_actions) * 1e6, 2),
    }
    return results


def print_table(results: dict) -> None:
    print(f"Python {results['python']} on {results['machine']}; median of {results['repeat']} runs")
    print("\nrandom games (uniformly random legal actions)")
    for row in results["random_games"]:
        print(
            f"  {row['options']:<44} {row['games_per_second']:>7} games/s"
            f"  ({row['mean_turns']} actions/game)"
        )
    print("\nlong random games (misplays and critical discards redrawn)")
    for row in results["long_games"]:
        print(
            f"  {row['options']:<44} {row['games_per_second']:>7} games/s"
            f"  ({row['mean_turns']} actions/game, {row['microseconds_per_action']} µs/action)"
        )
    rebuild = results["rebuild"]
    print(f"\nrebuild: {rebuild['game']}")
    print(f"  replay from Action objects    {rebuild['replay_from_actions_ms']:>8} ms")
    print(f"  replay from JSON dicts        {rebuild['replay_from_json_dicts_ms']:>8} ms")
    print(f"  new_game (deal from a seed)   {rebuild['new_game_ms']:>8} ms")
    print(f"  view_for, mid-game            {rebuild['view_for_mid_game_ms']:>8} ms")
    print(f"  copy()                        {rebuild['copy_us']:>8} µs")
    print(f"  legal_actions()               {rebuild['legal_actions_us']:>8} µs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="repetitions (the median is kept)")
    parser.add_argument("--games", type=int, default=2000, help="random games per repetition")
    parser.add_argument("--calls", type=int, default=200, help="calls per timed batch")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.games, args.calls = 3, 200, 20
    results = bench(args.repeat, args.games, args.calls)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        print_table(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
