"""The best score a team that sees every card could reach in the real game.

``best_score(state)`` answers, for a full-information state at any point of a game (the deal,
a position in the middle, the last round): what is the highest final score the players could
have reached with these hands, this deck order, their clue tokens, fuses, turn order and hand
sizes, if each of them could see every card, their own and the deck included?
``analyse_deal(options, deck)`` asks it of the deal. The problem is NP-hard, so the answer is
a pair of bounds, ``lower <= best <= upper``, found by an exact search that stops at a time
(or node) limit: when the bounds meet, the answer is exact; otherwise both are still true.
``lower`` always comes with a line of play that reaches it, replayed through the engine
before it is returned (a disagreement is a bug: ``LineMismatch``).

Pure Python, no Django. The rules engine (``games.engine``) stays the authority. The work is
done in three rooms, and ``games/analysis/README.md`` argues why each part is sound:

* ``team_model.py``: the compact model of the game that the search runs on, asking the
  engine's rule predicates on its own compact states;
* ``team_bounds.py``: the proven upper bounds (lost cards, pace, storage, the last round,
  every needed card with squeezes, the last turns);
* ``team_search.py``: the greedy policies, randomised games and the depth-first branch and
  bound with its transposition table.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.engine.actions import Clue, Discard, Play, action_to_dict
from games.engine.options import GameOptions
from games.engine.state import GameState, new_game

from .team_model import DISCARD, PLAY, Deal, from_engine
from .team_search import Solver


@dataclass(frozen=True)
class TeamResult:
    """The best score a team that sees every card can reach: ``lower <= best <= upper``.

    ``actions`` is a line of play (``action_to_dict`` dicts) from the analysed state that ends
    the game with exactly ``lower``; the engine has replayed it. ``exact`` when the bounds
    meet; ``timed_out`` when the time or node limit stopped the search first."""

    lower: int
    upper: int
    exact: bool
    actions: list[dict] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    timed_out: bool = False

    def to_dict(self) -> dict:
        return {
            "lower": self.lower,
            "upper": self.upper,
            "exact": self.exact,
            "actions": [dict(a) for a in self.actions],
            "nodes": self.nodes,
            "seconds": self.seconds,
            "timed_out": self.timed_out,
        }


class LineMismatch(AssertionError):
    """The engine disagrees with the compact model about a line: a bug in the analysis."""


def _engine_line(state: GameState, moves: Sequence[tuple[int, int]]) -> tuple[list, GameState]:
    """The moves as engine actions, applied to a copy of ``state``."""
    game = state.copy()
    actions = []
    players = game.players
    for kind, cid in moves:
        if kind == PLAY:
            action = Play(cid)
        elif kind == DISCARD:
            action = Discard(cid)
        else:
            seat = game.turn % players
            action = None
            for k in range(1, players):
                target = (seat + k) % players
                hand = game.hand(target)
                if hand:
                    action = Clue(target, rank=game.card(hand[0]).rank)
                    break
            if action is None:  # empty clues: any clue will do
                action = Clue((seat + 1) % players, rank=1)
        game.apply(action)
        actions.append(action)
    return actions, game


def best_score(
    state: GameState, time_limit: float = 10.0, node_limit: int | None = None
) -> TeamResult:
    """The best final score a team that sees every card can reach from ``state``."""
    start = time.perf_counter()
    if state.is_over:
        score = state.score
        return TeamResult(score, score, True, [], 0, time.perf_counter() - start, False)
    deal = Deal(state.options, state.deck)
    st = from_engine(deal, state)
    solver = Solver(deal, start + time_limit, node_limit)
    lower, upper, timed_out = solver.solve(st, start, time_limit)
    line = solver.best_line
    actions, game = _engine_line(state, line)
    if not game.is_over or game.score != lower:
        raise LineMismatch(f"the line should end the game with {lower}; the engine says {game!r}")
    if not lower <= upper:
        raise LineMismatch(f"lower bound {lower} above upper bound {upper}")
    return TeamResult(
        lower=lower,
        upper=upper,
        exact=lower == upper,
        actions=[action_to_dict(a) for a in actions],
        nodes=solver.nodes,
        seconds=time.perf_counter() - start,
        timed_out=timed_out,
    )


def analyse_deal(options: GameOptions, deck: Sequence, time_limit: float = 10.0) -> TeamResult:
    """best_score from the deal of ``deck`` (before anyone acts)."""
    return best_score(new_game(options, deck=deck), time_limit=time_limit)
