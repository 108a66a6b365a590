"""An exact search for SOLITAIRE HANABI that is fast on real-game sizes.

It decides winnability exactly: it returns a winning play sequence (checked by
``check_play_sequence``) or proves that none exists, unless ``node_limit`` runs out. It is a
depth-first search over the decisions that really matter, with these rules. Each rule is sound:
whenever some winning continuation exists from a state, one exists that obeys the rule, so the
search loses nothing by obeying it.

1. Play at once. A scanned card that is playable is played, and after every play every stored
   card that has become playable is played. Sound by exchange: take a winning continuation and
   let ``y`` be the copy of this card ``(v, k)`` that it plays (it must play one). Play the card
   now instead and, wherever the continuation stores, plays or discards ``y``, discard it or do
   nothing. No card of colour ``k`` is played between now and ``y``'s play (``(v, k)`` is the next
   card of colour ``k``), other colours are untouched, and the hand never holds more cards.
2. Discard dead cards: a card whose value is at most its colour's height can never be played.
3. Never hold two copies of one card: only one can ever be played, so store neither twice.
4. Discard dominated cards. Let ``q`` be the next copy of the scanned card ``(v, k)``. If some card
   ``(u, k)`` with ``height_k < u < v`` has no copy stored or scanned before ``q``, the scanned
   card cannot be played before ``q`` is scanned; storing it now is no better than discarding it
   and holding copy ``q`` from then on (which frees a slot until ``q``).
5. Discard a stored card only to make room for the scanned card. Postponing the discard of a
   stored card never breaks a sequence: it only matters when the hand must take another card.
   (So when the hand is full, the choices are: discard the scanned card, or store it in place of
   one stored card. Giving up the last copy of a needed card is never tried.)
6. Prune a state when a needed card (one above its colour's height) has no copy stored or ahead.
7. Prune a state whose forced holdings exceed ``h``. For a needed card ``(v, k)``, let ``R`` be
   the first position by which every ``(u, k)``, ``height_k < u < v``, can have been seen (stored
   copies count as seen), and ``L`` the last position of a copy of ``(v, k)`` (the present, if
   the only copy is stored). If ``L < R``, some copy must be in the hand at every moment between
   ``L`` and the scan of card ``R``. If more than ``h`` of these intervals overlap, the state
   loses. (With r = 1 this is the paper's Lemma 1 width, applied to the rest of the sequence.)
8. Memoise losing states ``(scan position, heights, set of stored cards)``, with subsumption: a
   state whose stored cards are a subset of those of a known losing state (same position and
   heights) loses too, since the larger hand can mimic the smaller one by discarding.

Choices are ordered so that typical decks are won at the first try: store while the hand has
room, else evict first the card whose earliest possible play is furthest away (Belady's rule).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from .solitaire import Action, Instance, Step, check_play_sequence

__all__ = ["SearchResult", "solve"]


@dataclass(frozen=True)
class SearchResult:
    """``winnable`` is None only when ``node_limit`` ran out before an answer was found."""

    winnable: bool | None
    steps: list[Step] | None
    nodes: int


class _OutOfNodes(Exception):
    pass


def solve(instance: Instance, node_limit: int | None = None) -> SearchResult:
    """Decide whether ``instance`` can be won; ``steps`` is a checked winning sequence if so.

    ``nodes`` counts the branching states visited. With a ``node_limit``, the search gives up
    (``winnable=None``) after that many nodes.
    """
    search = _Search(instance, node_limit)
    # The search recurses a few levels per card. Python 3.11 keeps Python-to-Python calls off
    # the C stack, so a deeper limit for long sequences (the reduction's) is safe.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 8 * instance.N + 1000))
    try:
        steps = search.run()
    except _OutOfNodes:
        return SearchResult(None, None, search.nodes)
    finally:
        sys.setrecursionlimit(limit)
    if steps is not None:
        check_play_sequence(instance, steps)
    return SearchResult(steps is not None, steps, search.nodes)


class _Search:
    def __init__(self, instance: Instance, node_limit: int | None) -> None:
        self.instance = instance
        self.node_limit = node_limit
        self.nodes = 0
        n, c = instance.n, instance.c
        self.n, self.c, self.h = n, c, instance.h
        size = len(instance.cards)
        self.size = size
        # Cards as ids: colour k (0-based) and value v (1-based) give k * (n + 1) + v.
        self.ids = [(colour - 1) * (n + 1) + value for value, colour in instance.cards]
        slots = c * (n + 1)
        # ahead[p][id]: the first position >= p holding card id (size if none).
        ahead = [[size] * slots for _ in range(size + 1)]
        for position in range(size - 1, -1, -1):
            row = ahead[position + 1][:]
            row[self.ids[position]] = position
            ahead[position] = row
        self.ahead = ahead
        last = [-1] * slots
        for position, card in enumerate(self.ids):
            last[card] = position
        self.last = last
        self.losing: dict[tuple[int, tuple[int, ...]], list[frozenset[int]]] = {}

    def run(self) -> list[Step] | None:
        return self._search(0, [0] * self.c, {})

    # -- rules 4, 6 and 7 ---------------------------------------------------------------------

    def _ready(
        self, colour: int, value: int, heights: list[int], hand: dict[int, int], start: int
    ) -> int:
        """The first position by which all of colour's cards below ``value`` can have been seen.

        Cards stored, or none needed: ``start - 1``. A missing card: ``self.size`` or more.
        """
        base = colour * (self.n + 1)
        row = self.ahead[start]
        ready = start - 1
        for below in range(heights[colour] + 1, value):
            card = base + below
            if card not in hand and row[card] > ready:
                ready = row[card]
        return ready

    def _feasible(self, position: int, heights: list[int], hand: dict[int, int]) -> bool:
        """Rules 6 and 7: False when the state surely loses."""
        row = self.ahead[position]
        size, n = self.size, self.n
        events: list[tuple[int, int]] = []
        for colour in range(self.c):
            base = colour * (n + 1)
            ready = position - 1  # every card of this colour below `value` seen by then
            for value in range(heights[colour] + 1, n + 1):
                card = base + value
                held = card in hand
                first = position - 1 if held else row[card]
                if first >= size:
                    return False  # rule 6: no copy left
                final = self.last[card]
                if final < position:
                    final = position - 1  # only the stored copy is left
                if final < ready:
                    events.append((final + 1, 1))
                    events.append((ready + 1, -1))
                if first > ready:
                    ready = first
        if len(events) > 2 * self.h:
            events.sort()  # at equal positions, -1 (an interval ending) comes first
            held = 0
            for _, delta in events:
                held += delta
                if held > self.h:
                    return False
        return True

    # -- the search ---------------------------------------------------------------------------

    def _search(self, position: int, heights: list[int], hand: dict[int, int]) -> list[Step] | None:
        """Steps winning from this state (hand: id -> index of the stored card), or None.

        The caller's ``heights`` and ``hand`` are not modified.
        """
        heights = heights[:]
        hand = dict(hand)
        steps: list[Step] = []
        n, c, size, ids = self.n, self.c, self.size, self.ids
        goal = n * c
        total = sum(heights)
        while True:
            if total == goal:
                steps.extend(Step(Action.DISCARD, index) for index in range(position, size))
                return steps
            if position == size:
                return None
            card = ids[position]
            colour, value = divmod(card, n + 1)
            if value <= heights[colour] or card in hand:  # rules 2 and 3
                steps.append(Step(Action.DISCARD, position))
                position += 1
                continue
            if value == heights[colour] + 1:  # rule 1
                steps.append(Step(Action.PLAY, position))
                position += 1
                while card + 1 in hand and value < n:
                    card += 1
                    value += 1
                    steps.append(Step(Action.PLAY, hand.pop(card)))
                total += value - heights[colour]
                heights[colour] = value
                continue
            following = self.ahead[position + 1][card]  # the next copy, q in rule 4
            if (
                following < size
                and self._ready(colour, value, heights, hand, position + 1) > following
            ):  # rule 4
                steps.append(Step(Action.DISCARD, position))
                position += 1
                continue
            break
        rest = self._branch(position, heights, hand)
        if rest is None:
            return None
        steps.extend(rest)
        return steps

    def _branch(self, position: int, heights: list[int], hand: dict[int, int]) -> list[Step] | None:
        """The scanned card is needed, unplayable and not dominated: store it or not."""
        key = (position, tuple(heights))
        stored = frozenset(hand)
        known = self.losing.get(key)
        if known is not None and any(stored <= lost for lost in known):
            return None
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfNodes
        if self._feasible(position, heights, hand):
            card = self.ids[position]
            after = position + 1
            later = self.ahead[after]
            if len(hand) < self.h:
                hand[card] = position
                rest = self._search(after, heights, hand)
                del hand[card]
                if rest is not None:
                    return [Step(Action.STORE, position), *rest]
                if later[card] < self.size:
                    rest = self._search(after, heights, hand)
                    if rest is not None:
                        return [Step(Action.DISCARD, position), *rest]
            else:
                # Rule 5: evict one card of hand + {scanned}, never a last copy, Belady first.
                candidates = []
                for other in [*hand, card]:
                    if later[other] < self.size:
                        colour, value = divmod(other, self.n + 1)
                        ready = self._ready(colour, value, heights, hand, after)
                        candidates.append((ready, other))
                candidates.sort(reverse=True)
                for _, other in candidates:
                    if other == card:
                        rest = self._search(after, heights, hand)
                        if rest is not None:
                            return [Step(Action.DISCARD, position), *rest]
                        continue
                    index = hand.pop(other)
                    hand[card] = position
                    rest = self._search(after, heights, hand)
                    del hand[card]
                    hand[other] = index
                    if rest is not None:
                        return [
                            Step(Action.DISCARD, index),
                            Step(Action.STORE, position),
                            *rest,
                        ]
        self.losing.setdefault(key, []).append(stored)
        return None
