"""Theorem 7 of Baffier et al.: 3-SAT reduces to SOLITAIRE HANABI with h = 2 and r = 2.

A formula on variables ``x_1 .. x_v`` with clauses ``W_1 .. W_m`` becomes an instance with hand
size 2, ``2v + 1`` colours and ``σ = σ1 ∘ σ2`` followed by padding (section 5, Figures 1-3):

* Colours ``2i - 1`` and ``2i`` belong to ``x_i``; colour ``d = 2v + 1`` is the dummy colour,
  each of whose cards appears once. A *hand reduction gadget* is ``(2, d)`` before a stretch and
  ``(1, d)`` after it; a *hand dump gadget* is ``(x+1, d), (x+2, d), (x, d)``, which leaves no
  room to carry any other card past it. Dump gadgets use ever higher dummy values.
* ``σ1`` (Figure 1) is ``(2, d), V_1, ..., V_v, (1, d)`` with the variable gadget
  ``V_i = 2, 2̄, 1, 3, 4, 5, 1̄, 3̄, 4̄, 5̄`` (plain values in colour ``2i - 1``, overlined ones in
  colour ``2i``). After it, one colour of each pair stands at 5 and the other at 1: ``x_i`` is true
  iff ``(5, 2i - 1)`` was played.
* ``W_j`` is *associated* with colour ``2i - 1`` for a literal ``x_i`` and ``2i`` for ``¬x_i``.
  With the offset ``o_j = 5(j - 1)``, ``σ2`` is, for ``j = 1 .. m``, the dump gadget with dummy
  values ``6j-2, 6j-1, 6j-3`` (Figure 3) and then the clause gadget ``C_j`` (Figure 2):
  ``o_j+6 .. o_j+10`` in each associated colour; ``o_j+5 .. o_j+10, o_j+2, o_j+3, o_j+4`` in each
  other variable colour; the dump gadget ``6j+1, 6j+2, 6j``; ``o_j+3`` in the three associated
  colours; then ``o_j+2, o_j+4, o_j+5, o_j+6`` in each associated colour. The three associated
  colours, and the other colours, come in increasing order of colour, as in Figure 2.
* Padding: every variable colour, in increasing order of colour, gets the values ``o_m+7 .. n`` in
  increasing order, so that every colour that passed all clause gadgets (standing at ``o_m+6`` or
  ``o_m+10``) can finish.

Deviations from the paper, each needed for the instance to be what the paper says it is:

1. ``n``. The paper sets ``n = 6m + 2`` (the dummy colour's last value), but ``C_m`` holds values up
   to ``o_m + 10 = 5m + 5``, which exceeds ``6m + 2`` when ``m < 3``. Here ``n = max(6m + 2,
   5m + 5)``: ``6m + 2`` for ``m >= 3``, and 10 and 15 for ``m = 1`` and ``m = 2``.
2. Completing the dummy colour. The dummy gadgets end at ``6m + 2``; when ``n > 6m + 2`` (``m < 3``)
   the dummy cards ``6m+3 .. n`` are appended, in order, after the padding, so that a satisfiable
   formula still gives a winnable instance.
3. Padding from ``o_m + 7`` instead of the paper's ``o_m + 6``. No colour needs ``o_m + 6`` after
   ``C_m`` (the colours that can still finish stand at ``o_m + 6`` or ``o_m + 10``), and ``C_m``
   already holds ``(o_m + 6, k)`` twice for each associated colour ``k``, so a third copy would make
   the multiplicity 3 instead of the claimed ``r = 2``.

With these, the instance has ``h = 2`` and ``r = 2``, and it is winnable iff the formula is
satisfiable (Theorem 11).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from .solitaire import Action, Card, Instance, Step

__all__ = [
    "Formula",
    "assignment_from_play_sequence",
    "associated_colours",
    "clause_gadget",
    "hand_dump",
    "instance_from_formula",
    "literal_colour",
    "satisfiable",
    "sigma1",
    "sigma2",
    "values_count",
    "variable_gadget",
]

HAND_SIZE = 2


@dataclass(frozen=True)
class Formula:
    """A 3-CNF formula: ``v`` variables and clauses of three DIMACS literals on distinct variables.

    Literal ``i`` is ``x_i`` and ``-i`` is ``¬x_i``, for ``1 <= i <= v``.
    """

    v: int
    clauses: tuple[tuple[int, int, int], ...]

    def __post_init__(self) -> None:
        clauses = tuple(tuple(int(literal) for literal in clause) for clause in self.clauses)
        object.__setattr__(self, "clauses", clauses)
        if self.v < 1:
            raise ValueError(f"need at least one variable, not v={self.v}")
        if not clauses:
            raise ValueError("need at least one clause")
        for number, clause in enumerate(clauses, start=1):
            variables = {abs(literal) for literal in clause}
            if len(clause) != 3 or len(variables) != 3:
                raise ValueError(f"clause {number} {clause}: need three distinct variables")
            if 0 in variables or max(variables) > self.v:
                raise ValueError(f"clause {number} {clause}: literals must be ±1 .. ±{self.v}")

    @property
    def m(self) -> int:
        return len(self.clauses)

    def satisfied_by(self, assignment: dict[int, bool]) -> bool:
        return all(
            any(assignment.get(abs(literal)) == (literal > 0) for literal in clause)
            for clause in self.clauses
        )


def literal_colour(literal: int) -> int:
    """The colour associated with a literal: ``2i - 1`` for ``x_i``, ``2i`` for ``¬x_i``."""
    return 2 * literal - 1 if literal > 0 else -2 * literal


def associated_colours(clause: Iterable[int]) -> tuple[int, ...]:
    """The three colours associated with a clause, in increasing order (as in Figure 2)."""
    return tuple(sorted(literal_colour(literal) for literal in clause))


def values_count(formula: Formula) -> int:
    """``n``: the paper's ``6m + 2``, raised to ``5m + 5`` for ``m < 3`` (deviation 1)."""
    return max(6 * formula.m + 2, 5 * formula.m + 5)


def _offset(j: int) -> int:
    return 5 * (j - 1)


def hand_dump(low: int, dummy: int) -> list[Card]:
    """The hand dump gadget ``(low+1, d), (low+2, d), (low, d)``."""
    return [(low + 1, dummy), (low + 2, dummy), (low, dummy)]


def variable_gadget(i: int) -> list[Card]:
    """``V_i = 2, 2̄, 1, 3, 4, 5, 1̄, 3̄, 4̄, 5̄`` (overlined: colour ``2i``, else ``2i - 1``)."""
    plain, bar = 2 * i - 1, 2 * i
    return [(2, plain), (2, bar), (1, plain), (3, plain), (4, plain), (5, plain)] + [
        (value, bar) for value in (1, 3, 4, 5)
    ]


def sigma1(formula: Formula) -> list[Card]:
    """Figure 1: ``(2, d), V_1, ..., V_v, (1, d)``."""
    dummy = 2 * formula.v + 1
    cards: list[Card] = [(2, dummy)]
    for i in range(1, formula.v + 1):
        cards += variable_gadget(i)
    return cards + [(1, dummy)]


def clause_gadget(formula: Formula, j: int) -> list[Card]:
    """Figure 2: ``C_j`` for clause ``W_j`` (1-based), with its inner hand dump gadget."""
    o = _offset(j)
    dummy = 2 * formula.v + 1
    associated = associated_colours(formula.clauses[j - 1])
    others = [colour for colour in range(1, 2 * formula.v + 1) if colour not in associated]
    cards: list[Card] = []
    for colour in associated:
        cards += [(o + value, colour) for value in range(6, 11)]
    for colour in others:
        cards += [(o + value, colour) for value in (5, 6, 7, 8, 9, 10, 2, 3, 4)]
    cards += hand_dump(6 * j, dummy)
    cards += [(o + 3, colour) for colour in associated]
    for colour in associated:
        cards += [(o + value, colour) for value in (2, 4, 5, 6)]
    return cards


def sigma2(formula: Formula) -> list[Card]:
    """Figure 3: for each clause, a hand dump gadget ``6j-2, 6j-1, 6j-3`` and then ``C_j``."""
    dummy = 2 * formula.v + 1
    cards: list[Card] = []
    for j in range(1, formula.m + 1):
        cards += hand_dump(6 * j - 3, dummy) + clause_gadget(formula, j)
    return cards


def _padding(formula: Formula) -> list[Card]:
    """Values ``o_m+7 .. n`` in every variable colour, then the dummy's ``6m+3 .. n``."""
    n, m = values_count(formula), formula.m
    cards: list[Card] = []
    for colour in range(1, 2 * formula.v + 1):
        cards += [(value, colour) for value in range(_offset(m) + 7, n + 1)]
    return cards + [(value, 2 * formula.v + 1) for value in range(6 * m + 3, n + 1)]


def instance_from_formula(formula: Formula) -> Instance:
    """The HANABI instance of Theorem 7: ``h = 2``, ``2v + 1`` colours, ``n`` values."""
    cards = sigma1(formula) + sigma2(formula) + _padding(formula)
    return Instance(tuple(cards), HAND_SIZE, values_count(formula), 2 * formula.v + 1)


def assignment_from_play_sequence(formula: Formula, steps: Sequence[Step]) -> dict[int, bool]:
    """The truth assignment of a play sequence: ``x_i`` is true iff ``(5, 2i - 1)`` was played
    while σ1 was scanned (before the first card after σ1 is scanned), false otherwise."""
    cards = instance_from_formula(formula).cards
    end = len(sigma1(formula))
    played_plain_five = set()
    scanned = 0
    for step in steps:
        action, index = Action(step[0]), step[1]
        if index == scanned:
            if scanned == end:
                break
            scanned += 1
        if action is Action.PLAY:
            value, colour = cards[index]
            if value == 5 and colour % 2 == 1 and colour < 2 * formula.v + 1:
                played_plain_five.add((colour + 1) // 2)
    return {i: i in played_plain_five for i in range(1, formula.v + 1)}


def satisfiable(formula: Formula) -> dict[int, bool] | None:
    """A satisfying assignment found by trying all ``2^v`` assignments, or None."""
    for values in product((False, True), repeat=formula.v):
        assignment = dict(enumerate(values, start=1))
        if formula.satisfied_by(assignment):
            return assignment
    return None
