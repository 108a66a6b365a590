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
  bound with its transposition table;
* ``team_exact.py``: the second method, for the deals the search leaves open (``settle``):
  the whole game as a SAT formula, asked between the bounds; its lines are replayed by the
  engine like the search's.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from games.engine.actions import Clue, Discard, Play, action_to_dict
from games.engine.options import GameOptions
from games.engine.state import GameState, new_game

from . import team_exact
from .team_model import CLUE, DISCARD, NO_CARD, PLAY, Deal, from_engine
from .team_search import Solver


@dataclass(frozen=True)
class TeamResult:
    """The best score a team that sees every card can reach: ``lower <= best <= upper``.

    ``actions`` is a line of play (``action_to_dict`` dicts) from the analysed state that ends
    the game with exactly ``lower``; the engine has replayed it. ``exact`` when the bounds
    meet; ``timed_out`` when the time or node limit stopped the search first. ``settled_by``:
    "search", or "sat" when the second method (``settle``) closed the bounds the search
    left, or "" while they are open; ``sat_seconds``: the second method's time (in
    ``seconds`` too)."""

    lower: int
    upper: int
    exact: bool
    actions: list[dict] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    timed_out: bool = False
    settled_by: str = ""
    sat_seconds: float = 0.0

    def to_dict(self) -> dict:
        return {
            "lower": self.lower,
            "upper": self.upper,
            "exact": self.exact,
            "actions": [dict(a) for a in self.actions],
            "nodes": self.nodes,
            "seconds": self.seconds,
            "timed_out": self.timed_out,
            # the second method's, once it has run (a result the search settled keeps its shape)
            **(
                {"settled_by": self.settled_by, "sat_seconds": self.sat_seconds}
                if self.sat_seconds
                else {}
            ),
        }


class LineMismatch(AssertionError):
    """The engine disagrees with the compact model about a line: a bug in the analysis."""


def _engine_action(game: GameState, kind: int, cid: int):
    """A compact move as an engine action (a clue: any clue open to the player to move)."""
    if kind == PLAY:
        return Play(cid)
    if kind == DISCARD:
        return Discard(cid)
    players = game.players
    seat = game.turn % players
    for k in range(1, players):
        target = (seat + k) % players
        hand = game.hand(target)
        if hand:
            return Clue(target, rank=game.card(hand[0]).rank)
    return Clue((seat + 1) % players, rank=1)  # empty clues: any clue will do


def _engine_line(state: GameState, moves: Sequence[tuple[int, int]]) -> tuple[list, GameState]:
    """The moves as engine actions, applied to a copy of ``state``."""
    game = state.copy()
    actions = []
    for kind, cid in moves:
        action = _engine_action(game, kind, cid)
        game.apply(action)
        actions.append(action)
    return actions, game


def _played_out(state: GameState, moves: Sequence[tuple[int, int]]) -> tuple[list, GameState]:
    """The moves applied to a copy of ``state`` until the game ends, and then, if it has not,
    clues while one is open and otherwise discards to the end: neither loses a point (the
    second method's lines stop where the score is made)."""
    game = state.copy()
    actions = []
    for kind, cid in moves:
        if game.is_over:
            break
        action = _engine_action(game, kind, cid)
        game.apply(action)
        actions.append(action)
    while not game.is_over:
        hand = game.hand(game.turn % game.players)
        action = _engine_action(game, CLUE, NO_CARD)
        if not game.is_legal(action):
            action = Discard(hand[0]) if game.is_legal(Discard(hand[0])) else Play(hand[0])
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
        settled_by="search" if lower == upper else "",
    )


def _compact_move(action: dict) -> tuple[int, int]:
    if action["type"] == "play":
        return PLAY, action["card_id"]
    if action["type"] == "discard":
        return DISCARD, action["card_id"]
    return CLUE, NO_CARD


def settle(state: GameState, result: TeamResult, time_limit: float) -> TeamResult:
    """The second method: ``result`` (``best_score`` of ``state``) with its bounds closed by
    the SAT formula of ``team_exact`` where it can within ``time_limit`` seconds.

    It asks "can the score reach k?" for k between the bounds (the middle first): a yes
    comes with a line, which the engine replays (``LineMismatch`` if it falls short), and
    raises the lower bound to the line's score; a no, the solver's proof, lowers the upper
    bound to k - 1. Unknown at the time limit: the bounds stay as they are."""
    if result.exact or state.is_over:
        return result
    started = time.perf_counter()
    deal = Deal(state.options, state.deck)
    st = from_engine(deal, state)
    if not team_exact.applies(deal, st):
        return result
    lower, upper, actions = result.lower, result.upper, result.actions
    hint = [_compact_move(action) for action in actions]
    while lower < upper:
        k = (lower + upper + 1) // 2
        left = time_limit - (time.perf_counter() - started)
        answer = team_exact.reaches(deal, st, k, left, hint) if left > 0 else None
        if answer is None or answer.verdict == team_exact.UNKNOWN:
            break
        if answer.verdict == team_exact.NO:
            upper = k - 1
            continue
        line, game = _played_out(state, answer.moves)
        if game.score < k:
            raise LineMismatch(f"the formula's line should reach {k}; the engine says {game!r}")
        if game.score > upper:
            raise LineMismatch(f"a line reaching {game.score}, above the upper bound {upper}")
        lower, actions = game.score, [action_to_dict(a) for a in line]
        hint = answer.moves
    sat_seconds = time.perf_counter() - started
    return replace(
        result,
        lower=lower,
        upper=upper,
        exact=lower == upper,
        actions=actions,
        seconds=result.seconds + sat_seconds,
        settled_by="sat" if lower == upper else "",
        sat_seconds=sat_seconds,
    )


def analyse_deal(
    options: GameOptions, deck: Sequence, time_limit: float = 10.0, sat_time_limit: float = 0.0
) -> TeamResult:
    """best_score from the deal of ``deck`` (before anyone acts), then, if its bounds are
    left open and ``sat_time_limit`` is set, ``settle`` with that many seconds."""
    state = new_game(options, deck=deck)
    result = best_score(state, time_limit=time_limit)
    if sat_time_limit > 0:
        result = settle(state, result, sat_time_limit)
    return result
