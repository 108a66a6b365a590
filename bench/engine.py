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
* views after 60 moves (2 players; 5 players with the sixth suit): ``view_for`` called again
  on the same state (what the state keeps makes it cost in proportion to the hands), and a
  request's engine work: replay the 60 moves, then ``view_for``.

The machine is shared: absolute figures vary from run to run, compare ratios.

    python bench/engine.py --baseline DIR   # this engine against an older copy of it

compares the rebuild, view and copy figures of this engine with those of the engine in
DIR/games/engine (an older version, say ``mkdir DIR && git archive HEAD games/engine | tar -x
-C DIR``), both loaded in the same process and timed in alternation, so that the machine's
load weighs on both alike: it prints each figure's median for both and the median of the
per-round ratios (new / old).
"""

from __future__ import annotations

import argparse
import importlib.util
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
    views = []
    for options, seed in ((GameOptions(2), 11), (GameOptions(5, multicolour=1), 12)):
        moves = careful_random_game(options, seed).actions[:60]
        state = replay(options, seed, moves)
        names = ["Ann", "Bob", "Cid", "Dee", "Eve"][: options.players]

        def request(options=options, seed=seed, moves=moves, names=names):
            return view_for(replay(options, seed, moves), 1, names)

        views.append(
            {
                "game": f"{options.describe()}, {len(moves)} moves",
                "view_for_us": round(
                    per_call(repeat, calls, lambda s=state, n=names: view_for(s, 1, n)) * 1e6, 1
                ),
                "replay_us": round(
                    per_call(repeat, calls, lambda o=options, s=seed, m=moves: replay(o, s, m))
                    * 1e6,
                    1,
                ),
                "replay_and_view_for_us": round(per_call(repeat, calls, request) * 1e6, 1),
            }
        )
    results["views"] = views
    return results


def load_engine(directory: str):
    """The engine in ``directory``/games/engine, as a package of its own (its imports are
    relative), beside the current one."""
    init = Path(directory) / "games" / "engine" / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        "baseline_engine", init, submodule_search_locations=[str(init.parent)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_engine"] = module
    spec.loader.exec_module(module)
    return module


def compare(baseline, repeat: int, calls: int) -> dict:
    """The baseline engine (old) and this one (new) on the same games, timed in alternation."""
    import games.engine as current

    games = [
        ("2 players", {"players": 2}, 11, 60),
        ("5 players, sixth suit", {"players": 5, "multicolour": 1}, 12, 60),
        ("3 players, finished", {"players": 3}, 2024, None),
    ]
    cases: dict[str, list] = {}
    for label, arguments, seed, moves in games:
        dicts = [
            action_to_dict(action)
            for action in careful_random_game(GameOptions(**arguments), seed).actions[:moves]
        ]
        label = f"{label}, {len(dicts)} moves"
        for engine in (baseline, current):
            options = engine.GameOptions(**arguments)
            actions = [engine.action_from_dict(d) for d in dicts]
            state = engine.replay(options, seed, actions)
            names = ["Ann", "Bob", "Cid", "Dee", "Eve"][: options.players]
            view_for_ = engine.view_for
            replay_ = engine.replay

            def request(o=options, s=seed, a=actions, n=names, r=replay_, v=view_for_):
                return v(r(o, s, a), 1, n)

            for what, function, batch in (
                ("replay", lambda o=options, s=seed, a=actions, r=replay_: r(o, s, a), calls),
                (
                    "replay from JSON dicts",
                    lambda o=options, s=seed, d=dicts, r=replay_: r(o, s, d),
                    calls,
                ),
                (
                    "view_for (same state again)",
                    lambda s=state, n=names, v=view_for_: v(s, 1, n),
                    calls,
                ),
                ("replay, then view_for", request, calls),
                ("copy()", state.copy, calls * 20),
            ):
                cases.setdefault(f"{label}: {what}", []).append((function, batch))
    times: dict[str, tuple[list, list]] = {key: ([], []) for key in cases}
    for round_ in range(repeat):
        for key, pair in cases.items():
            order = (0, 1) if round_ % 2 == 0 else (1, 0)
            for which in order:
                function, batch = pair[which]
                started = time.perf_counter()
                for _ in range(batch):
                    function()
                times[key][which].append((time.perf_counter() - started) / batch * 1e6)
    rows = []
    for key, (old, new) in times.items():
        rows.append(
            {
                "figure": key,
                "old_us": round(statistics.median(old), 2),
                "new_us": round(statistics.median(new), 2),
                "ratio": round(statistics.median(b / a for a, b in zip(old, new, strict=True)), 3),
            }
        )
    return {"python": platform.python_version(), "repeat": repeat, "rows": rows}


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
    for row in results["views"]:
        print(f"\nview: {row['game']}")
        print(f"  view_for, same state again    {row['view_for_us']:>8} µs")
        print(f"  replay                        {row['replay_us']:>8} µs")
        print(f"  replay, then view_for         {row['replay_and_view_for_us']:>8} µs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="repetitions (the median is kept)")
    parser.add_argument("--games", type=int, default=2000, help="random games per repetition")
    parser.add_argument("--calls", type=int, default=200, help="calls per timed batch")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--baseline", metavar="DIR", help="compare with the engine in DIR/games/engine"
    )
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.games, args.calls = 3, 200, 20
    if args.baseline:
        results = compare(load_engine(args.baseline), args.repeat * 3, max(args.calls // 2, 10))
        if args.json:
            print(json.dumps(results, indent=2, ensure_ascii=False))
        else:
            print(f"Python {results['python']}; median of {results['repeat']} alternating rounds")
            print(f"{'':<62} {'old µs':>9} {'new µs':>9} {'new/old':>8}")
            for row in results["rows"]:
                print(
                    f"{row['figure']:<62} {row['old_us']:>9} {row['new_us']:>9} {row['ratio']:>8}"
                )
        return 0
    results = bench(args.repeat, args.games, args.calls)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        print_table(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
