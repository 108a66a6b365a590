"""Theorem 4 of Baffier et al.: the lazy strategy for a single colour (c = 1).

Card ``i`` (value ``a_i``) is *useless* when there are ``h + 1`` values ``a_i < w_1 < ... <
w_{h+1} <= n`` none of which appears after card ``i``: playing card ``i`` would leave those
``h + 1`` cards all stored at once (Observation 2). The filtering phase (Lemma 3) removes useless
cards until none is left; the lazy strategy then plays or stores only the last kept card of each
value, and by Theorem 4 never needs more than ``h`` stored cards.
"""

from __future__ import annotations

import heapq

from .solitaire import Action, Instance, Step

__all__ = ["filter_useless", "solve"]


def _require_one_colour(instance: Instance) -> None:
    if instance.c != 1:
        raise ValueError(f"the lazy strategy needs c = 1, not c = {instance.c}")


def _last_kept(instance: Instance) -> list[int] | None:
    """``L``: for each value ``1..n`` (index 0 unused), the index of its last non-useless card.

    None when some value has no card left. Cards of value ``v`` at indices above ``L[v]`` are the
    useless ones; the others are kept.
    """
    n, h = instance.n, instance.h
    previous = []  # P: index of the previous card with the same value, or -1
    last = [-1] * (n + 1)  # L, before filtering: the last card of each value
    for index, (value, _) in enumerate(instance.cards):
        previous.append(last[value])
        last[value] = index
    if any(last[value] < 0 for value in range(1, n + 1)):
        return None  # a value with no card at all: trivially, all its cards are useless
    if h + 1 >= n:
        return last  # h + 1 witnesses above a value need n - value >= h + 1: none is useless
    # A max-heap (negated indices) of the h + 1 smallest L[j] for j above the current value.
    heap = [-last[value] for value in range(n - h, n + 1)]
    heapq.heapify(heap)
    for value in range(n - h - 1, 0, -1):
        top = -heap[0]  # h + 1 values above `value` have their last kept card at or before `top`
        index = last[value]
        while index > top:  # useless: the h + 1 values in the heap are its witnesses
            index = previous[index]
        if index < 0:
            return None
        last[value] = index
        heapq.heapreplace(heap, -index)  # index < top, so it joins the h + 1 smallest
    return last


def filter_useless(instance: Instance) -> list[int] | None:
    """The indices of the filtered sequence σ' (in increasing order), or None.

    Implements Lemma 3's filtering with the vectors P and L and a max-heap of h + 1 witnesses, in
    O(N + n log h). None means every card of some value is useless (or the value has no card), so
    the instance cannot be won. Raises ValueError if c != 1.
    """
    _require_one_colour(instance)
    last = _last_kept(instance)
    if last is None:
        return None
    return [index for index, (value, _) in enumerate(instance.cards) if index <= last[value]]


def solve(instance: Instance) -> list[Step] | None:
    """The lazy play sequence, or None when the instance cannot be won. Raises ValueError if c != 1.

    Every card but the last kept card of each value is discarded; that card is played if possible
    and stored otherwise, and every play is followed by the stored cards that became playable.
    """
    _require_one_colour(instance)
    last = _last_kept(instance)
    if last is None:
        return None
    chosen = set(last[1:])
    stored: dict[int, int] = {}  # value -> index of the stored card
    played = 0
    steps: list[Step] = []
    for index, (value, _) in enumerate(instance.cards):
        if index not in chosen:
            steps.append(Step(Action.DISCARD, index))
        elif value != played + 1:
            stored[value] = index
            steps.append(Step(Action.STORE, index))
            if len(stored) > instance.h:  # Theorem 4 says this cannot happen
                raise AssertionError(f"lazy strategy stores more than h={instance.h} cards")
        else:
            steps.append(Step(Action.PLAY, index))
            played = value
            while played + 1 in stored:
                played += 1
                steps.append(Step(Action.PLAY, stored.pop(played)))
    return steps
