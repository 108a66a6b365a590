"""How long the worker's per-turn analysis (games/analysis/turns.py, the review's best line)
takes for a finished game. Not a test: it prints figures.

    .venv/bin/python bench/turn_bounds.py --players 3 --games 5
    .venv/bin/python bench/turn_bounds.py --players 3 --games 5 --careless 7

Each game is the house bot's self-play from the seeds 1..games; with ``--careless N`` every
N-th move is instead the first legal discard (or the first legal move), so that some turns
lose points and the stored lines are longer. For each game it prints the turns, the
score, the seconds of ``reachable_by_turn``, how many turns' bounds met and the turns that
lost points; then the median and the largest time. The machine may be shared.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from games.analysis.turns import NODE_LIMIT, TIME_LIMIT, reachable_by_turn  # noqa: E402
from games.bots import choose_action  # noqa: E402
from games.engine import Discard, GameOptions, action_to_dict, new_game, view_for  # noqa: E402


def played(options: GameOptions, seed: int, careless: int) -> tuple[list[dict], int]:
    state = new_game(options, seed=seed)
    actions = []
    while not state.is_over:
        action = choose_action(view_for(state, state.current_seat))
        if careless and len(actions) % careless == careless - 1:
            legal = state.legal_actions()
            action = next((a for a in legal if type(a) is Discard), legal[0])
        state.apply(action)
        actions.append(action_to_dict(action))
    return actions, state.score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--careless", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT)
    parser.add_argument("--node-limit", type=int, default=NODE_LIMIT)
    args = parser.parse_args()
    options = GameOptions(players=args.players)
    times = []
    for seed in range(1, args.games + 1):
        actions, score = played(options, seed, args.careless)
        started = time.perf_counter()
        result = reachable_by_turn(options, seed, actions, args.time_limit, args.node_limit)
        seconds = time.perf_counter() - started
        times.append(seconds)
        turns = result["turns"]
        print(
            f"seed {seed}: {len(turns)} turns, score {score}, {seconds:.2f} s, "
            f"{sum(t['exact'] for t in turns)} exact, "
            f"lost at {[t['turn'] for t in turns if t['lost']]}",
            flush=True,
        )
    print(f"median {statistics.median(times):.2f} s, max {max(times):.2f} s")


if __name__ == "__main__":
    main()
