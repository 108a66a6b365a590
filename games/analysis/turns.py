"""What a team that sees every card could still reach at the start of each turn of a game
(issue 30: the review's "the team could still reach 25 here if …").

``reachable_by_turn(options, deck_source, actions)`` asks ``team.best_score`` of the state
before every move of a finished game, with a modest time and node limit each, so the
answers are bounds, ``lower <= best <= upper``, true whether or not they meet. Two facts
tighten them without more search, both because the state after a move is one the team
could have chosen from the state before it:

* the best after a move is at most the best before it: an upper bound carries forwards;
* a line from the state after the move, with the move in front, is a line from the state
  before it: a lower bound (and its line) carries backwards.

A game that ended before the rules end it (time ran out) is asked from the state its last
move left too, so that its last move is not blamed for the points the clock took.

A turn *lost points* when the lower bound before its move is above the upper bound after
it: then the move certainly lowered what the team could still reach, whatever the limits
left open. The entry of such a turn keeps the line that reaches the lower bound (replayed
by the engine in ``best_score``); the others keep their bounds only.

Pure Python, no Django: games/hindsight.py runs it in the worker and stores the result.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from games.engine import GameOptions, action_from_dict, action_to_dict, replay, takes_turn

from .team import best_score

FORMAT = 1  # bump when the stored shape changes
TIME_LIMIT = 0.5  # seconds for each turn's search
NODE_LIMIT = 20_000  # nodes for each turn's search


def reachable_by_turn(
    options: GameOptions,
    deck_source: object,
    actions: Sequence[dict],
    time_limit: float = TIME_LIMIT,
    node_limit: int | None = NODE_LIMIT,
) -> dict:
    """For each move of the game (the free rearrangements of hands skipped, as the review
    counts them: the first move is turn 1), the bounds before it and after it, and, where
    the move lost points, the line from before it.

    Returns ``{"format", "seconds", "turns": [{"turn", "lower", "upper", "exact",
    "after_lower", "after_upper", "lost", "line"}]}``."""
    started = time.perf_counter()
    state = replay(options, deck_source, [])
    before: list[dict] = []  # one a move: bounds, line, and the move itself
    for data in actions:
        action = action_from_dict(data)
        if not takes_turn(action):
            state.apply(action)
            continue
        if state.is_over:
            break
        result = best_score(state, time_limit=time_limit, node_limit=node_limit)
        before.append(
            {
                "lower": result.lower,
                "upper": result.upper,
                "line": result.actions,
                "move": action_to_dict(action),
            }
        )
        state.apply(action)
    if state.is_over:
        after = {"lower": state.score, "upper": state.score, "line": []}
    else:
        # A game that ended before the rules end it (time ran out on a turn): what its last
        # move left is what the team could still have reached, not the score it stopped at.
        last = best_score(state, time_limit=time_limit, node_limit=node_limit)
        after = {"lower": last.lower, "upper": last.upper, "line": last.actions}
    # An upper bound carries forwards: after a move, at most what was reachable before it.
    for earlier, later in zip(before, [*before[1:], after], strict=True):
        later["upper"] = min(later["upper"], earlier["upper"])
    # A lower bound carries backwards: the move, then the later line.
    for entry in reversed(before):
        if after["lower"] > entry["lower"]:
            entry["lower"] = after["lower"]
            entry["line"] = [entry["move"], *after["line"]]
        entry["after_lower"], entry["after_upper"] = after["lower"], after["upper"]
        after = entry
    turns = []
    for number, entry in enumerate(before, start=1):
        lost = entry["lower"] > entry["after_upper"]
        turns.append(
            {
                "turn": number,
                "lower": entry["lower"],
                "upper": entry["upper"],
                "exact": entry["lower"] == entry["upper"],
                "after_lower": entry["after_lower"],
                "after_upper": entry["after_upper"],
                "lost": lost,
                "line": entry["line"] if lost else [],
            }
        )
    return {"format": FORMAT, "seconds": round(time.perf_counter() - started, 3), "turns": turns}
