"""Theorem 6 of Baffier et al.: the dynamic programme for the general case.

The table is the paper's ``DP[s, H, p_1, ..., p_{c-1}]``: after scanning the first ``s`` cards,
with the stored cards being *exactly* the set ``H`` and colours ``1 .. c-1`` standing at *exactly*
``p_1 .. p_{c-1}``, the entry is the largest number of cards of colour ``c`` that can have been
played (``-inf``, here: no entry, when no play sequence meets the constraints). The instance is
won iff ``DP[N, ∅, n, ..., n] == n``. Each entry is ``max(D, S, P)`` (Lemma 5), where, for the
``s``-th card ``(a, k)``:

* ``D = DP[s-1, H, p]`` (the card is discarded);
* ``S = DP[s-1, H \\ {(a, k)}, p]`` (the card is stored; see correction 1);
* ``P`` (the card is played, followed by a run of stored cards of its colour):
  ``-inf`` if ``k < c`` and ``a > p_k``; ``DP[s-1, H ∪ {(a+1, k) .. (p_k, k)}, p with p_k = a-1]``
  if ``k < c`` and ``a <= p_k``; and for ``k = c`` the paper's maximisation
  ``max_{t in 0..h} {a + t : DP[s-1, H ∪ {(a+1, c) .. (a+t, c)}, p] >= a - 1}``.

Base case: ``DP[0, ∅, 0, ..., 0] = 0`` and every other entry with ``s = 0`` is ``-inf``; the
recurrence then holds for every ``s >= 1`` (no brute force for small ``s`` is needed). The backward
search of ``solve`` is the paper's Remark: it walks the same recurrences back from the final entry.

What exactly the table ranges over. ``H`` is a *set* of card identities ``(value, colour)``, and
stored cards are played only in the run right after a scanned card of their colour is played. Any
winning play sequence can be put in that form without losing (a card stored but never played can
be discarded instead; two stored copies of one card are never both needed; a stored card is
playable exactly when the last card of its colour was played, so it can be played right then), so
the final entry still decides the instance. Colour ``c`` is the one the table maximises; the test
``>= a - 1`` in ``P`` is right because the entries are closed downwards in colour ``c``: turning
the plays of colour ``c`` above some value into discards keeps a play sequence legal, with the same
hand and no larger hand at any time.

Corrections to a literal reading of the paper (each keeps the table, the recurrences' shape and the
bound):

1. ``S``. The paper sets ``S = -inf`` when ``|H| >= h`` and otherwise ``DP[s-1, H \\ {(a, k)}, p]``,
   arguing that storing "only makes sense if (a, k) ∉ H". With ``H`` the hand *after* card ``s``,
   the stored card is in ``H``, so the condition is ``(a, k) ∈ H`` (``S = -inf`` otherwise: that
   case is a discard, already ``D``), and ``|H| = h`` must be allowed: storing into a hand of
   ``h - 1`` cards fills it. Read literally, every hand holds at most ``h - 1`` cards.
   Counter-example: ``h = 1``, ``σ = (2, 1), (1, 1)``, ``n = 2``, ``c = 1`` is won by storing
   ``(2, 1)``, playing ``(1, 1)`` and then ``(2, 1)``; the literal recurrence gives
   ``DP[1, {(2, 1)}] = -inf`` and so ``DP[2, ∅] = 1 < n``.
2. ``P`` for ``k < c``: the run is ``(a+1, k) .. (p_k, k)`` (the paper prints ``p_s``), and it must
   be disjoint from ``H`` and fit with it in the hand (``|H| + p_k - a <= h``), since the run was
   stored and is played now; likewise the run ``(a+1, c) .. (a+t, c)`` for ``k = c`` (the paper's
   ``t <= h`` bound is then implied by ``|H| + t <= h``), with ``a + t <= n``.
3. The entries are non-negative (an entry is ``0`` when no card of colour ``c`` can be played), not
   "positive" as the paper says; ``-inf`` stays the mark of infeasibility.

Computing the table. It is built bottom-up, layer ``s`` from layer ``s-1``, storing only finite
entries: the candidate keys of layer ``s`` are the keys that ``D``, ``S`` or ``P`` can reach from a
finite entry of layer ``s-1``, and each candidate is then evaluated by the recurrences above
(``O(h)`` look-ups, ``O(h)`` hand updates as ``|H| <= h``). With ``prune=False`` this is the whole
finite part of the table, at most ``(N+1) Σ_{i<=h} C(nc, i) (n+1)^(c-1)`` entries (``paper_bound``;
the paper's count ``N Σ C(nc, i) n^(c-1)`` with the indices' true ranges ``0..N`` and ``0..n``),
each computed in ``O(h)`` steps: the paper's time and space bounds (counting, as the paper does,
the ``c - 1`` indices of an entry as ``O(1)`` work; here they are a tuple).

With ``prune=True`` (the default) only the entries that a winning play sequence can pass through
are kept: ``_Needed`` drops an entry when a sound test shows that none does (a value some colour
still needs is neither stored nor ahead; a stored card can never be played; or the cards that must
be held at some moment exceed ``h``). The test fails at value ``x`` of colour ``c`` only if it fails
at every smaller value, so, by induction along any winning sequence, each of its entries is kept
with a value at least its colour-``c`` count; every kept value is achieved by some play sequence.
Hence ``DP[N, ∅, n, ..., n]`` is unchanged, and the backward walk of ``solve`` only meets kept
entries. Kept entries may hold less than the paper's value when the best sequences reaching them
cannot win (their values only matter for winning sequences). The test costs ``O(c h log(ch))`` per
candidate (at most ``h`` intervals per colour plus the hand), a factor ``c log(ch)`` over the
paper's ``O(h)`` in the worst case, but it keeps far fewer entries: on the smallest instance of the
Theorem 7 reduction (3 variables, 1 clause: ``N = 121``, ``c = 7``, ``n = 10``) about 135,000
entries instead of 4.6 million, within 0.3% of the entries that are both reachable and on some
winning sequence (135,181).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from .solitaire import Action, Card, Instance, Step

__all__ = ["Table", "build_table", "paper_bound", "solve", "table_entries", "winnable"]

Hand = tuple[Card, ...]  # sorted, distinct card identities
Key = tuple[Hand, tuple[int, ...]]  # (H, (p_1, ..., p_{c-1}))

NEG_INF = float("-inf")
_UNKNOWN = object()


def _with(hand: Hand, cards: tuple[Card, ...]) -> Hand:
    return tuple(sorted(hand + cards))


def _without(hand: Hand, cards: tuple[Card, ...]) -> Hand:
    return tuple(card for card in hand if card not in cards)


def _run(first: int, last: int, colour: int) -> tuple[Card, ...]:
    """The stored run ``(first, colour) .. (last, colour)`` (empty when ``last < first``)."""
    return tuple((value, colour) for value in range(first, last + 1))


@dataclass
class Table:
    """The finite entries of ``DP``: ``layers[s]`` maps ``(H, p)`` to the colour-``c`` count."""

    instance: Instance
    layers: list[dict[Key, int]]

    @property
    def entries(self) -> int:
        return sum(len(layer) for layer in self.layers)

    def get(self, s: int, hand: Hand, p: tuple[int, ...]) -> float:
        return self.layers[s].get((hand, p), NEG_INF)

    @property
    def final(self) -> float:
        """``DP[N, ∅, n, ..., n]``."""
        instance = self.instance
        return self.get(instance.N, (), (instance.n,) * (instance.c - 1))


class _Recurrence:
    """The paper's D, S and P for one instance, read from the previous layer of the table."""

    def __init__(self, instance: Instance) -> None:
        self.instance = instance
        self.h, self.n, self.c = instance.h, instance.n, instance.c

    def discard(self, prev: dict[Key, int], hand: Hand, p: tuple[int, ...]) -> float:
        return prev.get((hand, p), NEG_INF)

    def store(self, prev: dict[Key, int], card: Card, hand: Hand, p: tuple[int, ...]) -> float:
        if card not in hand:  # correction 1: the stored card is part of H
            return NEG_INF
        return prev.get((_without(hand, (card,)), p), NEG_INF)

    def play_runs(self, card: Card, hand: Hand, p: tuple[int, ...]) -> list[tuple[Key, int]]:
        """The entries of layer ``s-1`` that ``P`` reads, each with its ``t``.

        For ``k < c``: at most one, ``DP[s-1, H ∪ {(a+1, k) .. (p_k, k)}, .., a-1, ..]`` (``t`` is
        ``p_k - a``); for ``k = c``: ``DP[s-1, H ∪ {(a+1, c) .. (a+t, c)}, p]`` for each ``t`` in
        ``0..h`` whose run is disjoint from ``H``, fits in the hand and stays within ``n``.
        """
        a, k = card
        h = self.h
        if k < self.c:
            top = p[k - 1]
            if a > top or len(hand) + top - a > h:
                return []
            run = tuple((value, k) for value in range(a + 1, top + 1))
            if any(other in hand for other in run):
                return []
            return [((_with(hand, run) if run else hand, p[: k - 1] + (a - 1,) + p[k:]), top - a)]
        reads = [((hand, p), 0)]
        run: tuple[Card, ...] = ()
        for t in range(1, min(h - len(hand), self.n - a) + 1):
            if (a + t, k) in hand:
                break
            run += ((a + t, k),)
            reads.append(((_with(hand, run), p), t))
        return reads

    def play(self, prev: dict[Key, int], card: Card, hand: Hand, p: tuple[int, ...]) -> float:
        a, k = card
        reads = self.play_runs(card, hand, p)
        if k < self.c:
            return prev.get(reads[0][0], NEG_INF) if reads else NEG_INF
        # The paper's max over t of a + t such that DP[s-1, H ∪ run(t), p] >= a - 1.
        best = NEG_INF
        for key, t in reads:
            if prev.get(key, NEG_INF) >= a - 1:
                best = a + t
        return best

    def value(self, prev: dict[Key, int], card: Card, hand: Hand, p: tuple[int, ...]) -> float:
        """Lemma 5: ``DP[s, H, p] = max(P, S, D)``."""
        return max(
            self.play(prev, card, hand, p),
            self.store(prev, card, hand, p),
            self.discard(prev, hand, p),
        )

    def candidates(self, prev: dict[Key, int], card: Card) -> set[Key]:
        """The keys of layer ``s`` that D, S or P can reach from a finite entry of layer ``s-1``."""
        a, k = card
        h, c = self.h, self.c
        keys: set[Key] = set()
        for (hand, p), x in prev.items():
            keys.add((hand, p))  # D
            if len(hand) < h and card not in hand:  # S
                keys.add((_with(hand, (card,)), p))
            playable = p[k - 1] == a - 1 if k < c else x >= a - 1
            if not playable:
                continue
            top = a  # P, followed by each prefix of the stored run a+1, a+2, ...
            while True:
                after = _without(hand, _run(a + 1, top, k))
                keys.add((after, p[: k - 1] + (top,) + p[k:] if k < c else p))
                if (top + 1, k) not in hand:
                    break
                top += 1
        return keys


class _Needed:
    """Which entries can lie on a winning play sequence (the entries the final entry needs).

    Only play sequences in the table's form matter, in which moreover every stored card is played
    (a card stored and never played can be discarded instead). Along such a sequence, with colour
    ``k`` standing at ``L`` after ``s`` cards:

    * the next card of colour ``k`` played is a *scanned* ``(L+1, k)`` (stored cards are played
      only in the run after a scanned card of their colour), so a copy must lie ahead, at or after
      position ``e``: the first copy of ``(L+1, k)`` ahead (for ``k = c``, whose exact value is
      unknown, the first copy ahead of any value ``<= x + 1``, ``x`` being the entry's value);
    * every value above ``L`` is stored or ahead, and no stored card of colour ``k < c`` has a
      value ``<= L + 1`` (it could never be played);
    * a stored card of colour ``k`` stays in hand at least until position ``e`` (and, for ``k = c``,
      until the first copy ahead of a smaller value); a value ``v > L + 1`` that is not stored and
      whose copies ahead all lie before ``e`` must be stored from its last copy until ``e``.

    An entry is dropped when one of these fails, or when the intervals of cards that must be held
    overlap more than ``h`` times. Each test is sound (it fails only entries that no winning
    sequence passes through), and a failure at value ``x`` of colour ``c`` implies a failure at
    every smaller value (a smaller value needs more values, sooner, and the stored cards longer).
    """

    def __init__(self, instance: Instance) -> None:
        self.n, self.c, self.h = instance.n, instance.c, instance.h
        self.beyond = instance.N + 1  # a moment after every other
        self.colours = range(1, instance.c + 1)
        self.positions: dict[Card, list[int]] = {}
        for index, card in enumerate(instance.cards):
            self.positions.setdefault(card, []).append(index)
        self._rows: dict[int, list[list]] = {}  # s -> colour -> level -> colour(s, colour, level)
        self._first_below: dict[tuple[int, int], int | None] = {}

    def first(self, s: int, card: Card) -> int | None:
        spots = self.positions.get(card)
        if not spots or spots[-1] < s:
            return None
        return spots[bisect_left(spots, s)]

    def _last(self, s: int, card: Card) -> int | None:
        spots = self.positions.get(card)
        return spots[-1] if spots and spots[-1] >= s else None

    def first_below(self, s: int, value: int) -> int | None:
        """The first position ``>= s`` of a card of colour ``c`` with a value below ``value``."""
        key = (s, value)
        if key not in self._first_below:
            spots = [self.first(s, (u, self.c)) for u in range(1, value)]
            self._first_below[key] = min((p for p in spots if p is not None), default=None)
        return self._first_below[key]

    def colour(self, s: int, k: int, level: int) -> tuple[int, tuple[int, ...], tuple] | None:
        """For colour ``k`` at ``level``: ``(e, missing values, forced (last copy, value))``, or
        None when no winning sequence can have colour ``k`` there after ``s`` cards."""
        result = None
        if level < self.n:
            # The first copy ahead of (level + 1, k); for colour c, of any value <= level + 1.
            end = self.first(s, (level + 1, k)) if k < self.c else self.first_below(s, level + 2)
            if end is not None:
                missing, forced = [], []
                for value in range(level + 1, self.n + 1):
                    last = self._last(s, (value, k))
                    if last is None:
                        missing.append(value)
                    elif last < end and value > level + 1:
                        forced.append((last, value))
                if len(missing) + len(forced) <= self.h:
                    starts = tuple(last for last, _ in forced)
                    result = (end, tuple(missing), tuple(forced), starts, (end,) * len(starts))
        else:
            result = (-1, (), (), (), ())
        return result

    def needed(self, s: int, hand: Hand, p: tuple[int, ...], x: int) -> bool:
        h = self.h
        rows = self._rows.get(s)
        if rows is None:
            rows = self._rows[s] = [[_UNKNOWN] * (self.n + 1) for _ in range(self.c + 1)]
        levels = (*p, x)
        held = {k for _, k in hand}
        starts: list[int] = []
        ends: list[int] = []
        for k, level, row in zip(self.colours, levels, rows[1:], strict=True):
            info = row[level]
            if info is _UNKNOWN:
                info = row[level] = self.colour(s, k, level)
            if info is None:
                return False
            if k not in held:
                if info[1]:  # a value neither ahead nor stored
                    return False
                starts += info[3]
                ends += info[4]
                continue
            end, missing, forced = info[:3]
            for value in missing:
                if (value, k) not in hand:
                    return False
            for last, value in forced:
                if (value, k) not in hand:
                    starts.append(last)
                    ends.append(end)
        for value, k in hand:
            level = levels[k - 1]
            end = rows[k][level][0]
            if k < self.c:
                if value <= level + 1:
                    return False
            else:
                until = self.first_below(s, value)
                if until is None:
                    return False
                end = max(until, end)
            starts.append(s)
            ends.append(end)
        if len(starts) <= h:
            return True
        # At each moment t, the cards held are the intervals with start <= t < end.
        starts.sort()
        ends.sort()
        ends.append(self.beyond)
        ended = 0
        for begun, moment in enumerate(starts, start=1):
            while ends[ended] <= moment:
                ended += 1
            if begun - ended > h:
                return False
        return True


def build_table(instance: Instance, *, prune: bool = True) -> Table:
    """Every finite (and, with ``prune``, live) entry of ``DP``, layer by layer."""
    recurrence = _Recurrence(instance)
    needed = _Needed(instance) if prune else None
    start: Key = ((), (0,) * (instance.c - 1))
    layers: list[dict[Key, int]] = [{start: 0}]
    if needed is not None and not needed.needed(0, *start, 0):
        layers[0] = {}
    for s, card in enumerate(instance.cards, start=1):
        prev = layers[-1]
        layer: dict[Key, int] = {}
        for key in recurrence.candidates(prev, card):
            hand, p = key
            value = recurrence.value(prev, card, hand, p)
            if value == NEG_INF:  # cannot happen: every candidate has a finite source
                raise AssertionError(f"candidate {key} of layer {s} has no finite source")
            value = int(value)
            if needed is None or needed.needed(s, hand, p, value):
                layer[key] = value
        layers.append(layer)
    return Table(instance, layers)


def table_entries(instance: Instance, *, prune: bool = True) -> int:
    """How many entries of ``DP`` were computed (the finite ones kept, over all layers)."""
    return build_table(instance, prune=prune).entries


def paper_bound(instance: Instance) -> int:
    """The count of nontrivial entries in the proof of Theorem 6, ``N × Σ_{i<=h} C(nc, i) ×
    n^(c-1)``, taken with ``s`` in ``0..N`` and ``p_k`` in ``0..n`` as the table's indices are."""
    from math import comb

    n, c, h = instance.n, instance.c, instance.h
    hands = sum(comb(n * c, i) for i in range(min(h, n * c) + 1))
    return (instance.N + 1) * hands * (n + 1) ** (c - 1)


def winnable(instance: Instance, *, prune: bool = True) -> bool:
    """Theorem 6: the instance is won iff ``DP[N, ∅, n, ..., n] == n``."""
    return build_table(instance, prune=prune).final == instance.n


def solve(instance: Instance, *, prune: bool = True) -> list[Step] | None:
    """A winning play sequence read back from the table (the paper's Remark), or None."""
    table = build_table(instance, prune=prune)
    n, c, h = instance.n, instance.c, instance.h
    if table.final != n:
        return None
    recurrence = _Recurrence(instance)
    # Walk back from DP[N, ∅, n..n] with a target y for colour c: some play sequence reaches the
    # current (s, H, p) with colour c at exactly y, because the entries are closed downwards.
    hand: Hand = ()
    p = (n,) * (c - 1)
    y = n
    choices: list[tuple[Action, tuple[Card, ...]]] = []  # per card, backwards: action and run
    for s in range(instance.N, 0, -1):
        prev = table.layers[s - 1]
        card = instance.cards[s - 1]
        a, k = card
        if recurrence.discard(prev, hand, p) >= y:
            choices.append((Action.DISCARD, ()))
            continue
        if recurrence.store(prev, card, hand, p) >= y:
            choices.append((Action.STORE, ()))
            hand = _without(hand, (card,))
            continue
        for key, t in recurrence.play_runs(card, hand, p):
            before = prev.get(key, NEG_INF)
            if k < c and before >= y or k == c and a + t == y and before >= a - 1:
                choices.append((Action.PLAY, _run(a + 1, a + t, k)))
                hand, p = key
                if k == c:
                    y = a - 1
                break
        else:
            raise AssertionError(f"no recurrence explains entry {s} of the table (h={h})")
    if hand or any(p) or y:
        raise AssertionError("the walk back does not end at DP[0, ∅, 0..0] = 0")
    steps: list[Step] = []
    stored: dict[Card, int] = {}  # identity -> index of the stored copy
    for index, (action, run) in enumerate(reversed(choices)):
        steps.append(Step(action, index))
        if action is Action.STORE:
            stored[instance.cards[index]] = index
        for other in run:
            steps.append(Step(Action.PLAY, stored.pop(other)))
    return steps
