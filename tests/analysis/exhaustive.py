"""An exhaustive search through the engine alone (``copy``, ``legal_actions``, ``apply``) on
small endgames, against which the team analysis' answers and bounds are checked."""

from __future__ import annotations

import random

from games.engine import GameOptions, Play, new_game


class TooBig(Exception):
    pass


def engine_key(state) -> tuple:
    """What the future depends on: all but the clue knowledge, the history and card order
    within a hand and the discard pile (no rule reads them)."""
    return (
        state.turn % state.players,
        tuple(tuple(sorted(hand)) for hand in state.hands),
        state.cards_drawn,
        state.fireworks,
        state.clue_tokens,
        state.fuses_left,
        state.turns_left,
        tuple(sorted(state.discards)),
        state.end,
    )


def exhaustive(state, memo: dict, limit: int) -> int:
    if state.is_over:
        return state.score
    key = engine_key(state)
    if key in memo:
        return memo[key]
    if len(memo) > limit:
        raise TooBig
    best = 0
    seen = set()
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        child_key = engine_key(child)
        if child_key in seen:
            continue
        seen.add(child_key)
        best = max(best, exhaustive(child, memo, limit))
        if best >= state.max_reachable_score:
            break
    memo[key] = best
    return best


def endgame(options: GameOptions, seed: int, rng: random.Random, cards_left: int, p_play: float):
    """A random game played until ``cards_left`` cards remain (it may have ended first)."""
    state = new_game(options, seed=seed)
    while not state.is_over and state.deck_size > cards_left:
        legal = state.legal_actions()
        good = [
            a
            for a in legal
            if isinstance(a, Play)
            and state.fireworks[state.card(a.card_id).suit] == state.card(a.card_id).rank - 1
        ]
        if good and rng.random() < p_play:
            action = rng.choice(good)
        else:
            other = [a for a in legal if not isinstance(a, Play)]
            action = rng.choice(other) if other and rng.random() < 0.97 else rng.choice(legal)
        state.apply(action)
    return state
