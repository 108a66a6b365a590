"""Exhaustive search for SOLITAIRE HANABI: slow, simple, and meant to be obviously correct.

This is the reference answer the other algorithms are checked against, so it shares no logic with
them. A state is ``(next card to scan, multiset of stored cards, played heights)``; two copies of
the same card are interchangeable, so the memo key holds the stored cards' identities (the
``(value, colour)`` pairs), while the search itself remembers their indices to name them in steps.
From a state every move of the model is tried:

* play a stored card that is playable now;
* discard a stored card;
* scan the next card and play it (if playable), store it (if the hand has room) or discard it.

The state is won when every colour stands at ``n`` (the remaining cards are then discarded). The
only shortcut: a state loses at once when some card still to be played has no copy left, neither
stored nor ahead in the sequence (it can then never be played). Every move either scans a card or
removes a stored card, so the search terminates; states known to lose are memoised. Use it only on
small instances (N up to about 14).
"""

from __future__ import annotations

from .solitaire import Action, Card, Instance, Step

__all__ = ["solve"]

Key = tuple[int, tuple[Card, ...], tuple[int, ...]]


def solve(instance: Instance) -> list[Step] | None:
    """A winning play sequence for ``instance``, or None when no play sequence wins."""
    cards = instance.cards
    size = len(cards)
    n, c, h = instance.n, instance.c, instance.h
    losing: set[Key] = set()

    def playable(index: int, heights: tuple[int, ...]) -> bool:
        value, colour = cards[index]
        return heights[colour - 1] == value - 1

    def raised(index: int, heights: tuple[int, ...]) -> tuple[int, ...]:
        value, colour = cards[index]
        return heights[: colour - 1] + (value,) + heights[colour:]

    def hopeless(position: int, hand: tuple[int, ...], heights: tuple[int, ...]) -> bool:
        left = {cards[index] for index in hand} | set(cards[position:])
        return any(
            (value, colour) not in left
            for colour in range(1, c + 1)
            for value in range(heights[colour - 1] + 1, n + 1)
        )

    def search(position: int, hand: tuple[int, ...], heights: tuple[int, ...]) -> list[Step] | None:
        # ``hand`` is a sorted tuple of the stored cards' indices.
        if all(height == n for height in heights):
            return [Step(Action.DISCARD, index) for index in range(position, size)]
        key = (position, tuple(sorted(cards[index] for index in hand)), heights)
        if key in losing:
            return None
        if hopeless(position, hand, heights):
            losing.add(key)
            return None
        moves: list[tuple[Step, int, tuple[int, ...], tuple[int, ...]]] = []
        for index in hand:
            rest = tuple(other for other in hand if other != index)
            if playable(index, heights):
                moves.append((Step(Action.PLAY, index), position, rest, raised(index, heights)))
            moves.append((Step(Action.DISCARD, index), position, rest, heights))
        if position < size:
            after = position + 1
            if playable(position, heights):
                moves.append((Step(Action.PLAY, position), after, hand, raised(position, heights)))
            if len(hand) < h:
                moves.append((Step(Action.STORE, position), after, (*hand, position), heights))
            moves.append((Step(Action.DISCARD, position), after, hand, heights))
        for step, next_position, next_hand, next_heights in moves:
            rest = search(next_position, next_hand, next_heights)
            if rest is not None:
                return [step, *rest]
        losing.add(key)
        return None

    return search(0, (), (0,) * c)
