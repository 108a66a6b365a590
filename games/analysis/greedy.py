"""Lemma 1 of Baffier et al.: the greedy strategy when every card appears at most once (r = 1).

For card ``i`` of colour ``k_i`` and value ``a_i``, ``f_i`` is the largest index of a card of colour
``k_i`` whose value is at most ``a_i``: card ``i`` cannot be played before card ``f_i`` is scanned,
and the greedy strategy plays it exactly then. So card ``i`` is held over the interval
``[i, f_i]``, and ``w``, the most intervals that overlap, is the hand size the instance needs.
"""

from __future__ import annotations

from .solitaire import Action, Instance, Step

__all__ = ["overlap_width", "solve"]


def _require_unique(instance: Instance) -> None:
    if instance.r > 1:
        raise ValueError(f"the greedy strategy needs r <= 1, not r = {instance.r}")


def _complete(instance: Instance) -> bool:
    """Whether every card ``(value, colour)`` of the game is in the sequence (with r <= 1)."""
    return len(instance.cards) == instance.n * instance.c


def overlap_width(instance: Instance) -> int:
    """The paper's ``w``: the largest number of intervals ``[i, f_i]`` sharing one index.

    Only intervals with ``f_i > i`` count. An interval of length zero (``f_i == i``) belongs to a
    card whose smaller cards of its colour all come before it, so the card is playable when it is
    scanned and never occupies the hand; it is left out, as the paper's "nonempty" intervals say.
    With that convention ``w`` is exactly the largest hand the greedy strategy holds: at index
    ``j`` the counted intervals are the cards ``i <= j`` with ``f_i > j`` (an interval ending at
    ``j`` only meets a ``j`` whose card is itself playable on scan, so it takes that card's place).

    The value is defined for any instance with r <= 1, even one missing some cards: ``f_i`` then
    ranges over the cards present. Raises ValueError if r > 1. Runs in O(N + cn).
    """
    _require_unique(instance)
    n, c = instance.n, instance.c
    position = [[-1] * (n + 1) for _ in range(c + 1)]  # position[colour][value], -1 if absent
    for index, (value, colour) in enumerate(instance.cards):
        position[colour][value] = index
    # f[colour][value] = max(position[colour][1..value]): a prefix maximum per colour.
    change = [0] * (len(instance.cards) + 1)
    for colour in range(1, c + 1):
        reach = -1
        for value in range(1, n + 1):
            index = position[colour][value]
            reach = max(reach, index)
            if index >= 0 and reach > index:
                change[index] += 1
                change[reach + 1] -= 1
    width = running = 0
    for delta in change:
        running += delta
        width = max(width, running)
    return width


def solve(instance: Instance) -> list[Step] | None:
    """The greedy play sequence, or None exactly when the instance cannot be won.

    Play each card as soon as it is scanned if possible, otherwise store it; after every play,
    play the stored cards that became playable. It fails exactly when ``overlap_width > h`` or a
    card is missing. Raises ValueError if r > 1. Runs in O(N) with a c x n table for the hand.
    """
    _require_unique(instance)
    if not _complete(instance):
        return None
    n, c, h = instance.n, instance.c, instance.h
    stored = [[-1] * (n + 2) for _ in range(c + 1)]  # stored[colour][value] = index, or -1
    held = 0
    played = [0] * (c + 1)
    steps: list[Step] = []
    for index, (value, colour) in enumerate(instance.cards):
        if played[colour] != value - 1:
            if held == h:
                return None
            stored[colour][value] = index
            held += 1
            steps.append(Step(Action.STORE, index))
            continue
        steps.append(Step(Action.PLAY, index))
        played[colour] = value
        while stored[colour][value + 1] >= 0:
            value += 1
            steps.append(Step(Action.PLAY, stored[colour][value]))
            stored[colour][value] = -1
            held -= 1
        played[colour] = value
    return steps
