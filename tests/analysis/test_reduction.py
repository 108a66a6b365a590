"""Theorem 7's reduction from 3-SAT: the paper's figures, the instance's parameters, and
"winnable iff satisfiable" checked with the DP of Theorem 6 and with the proof's own strategy."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from games.analysis import dp, search
from games.analysis.reduction import (
    Formula,
    assignment_from_play_sequence,
    associated_colours,
    clause_gadget,
    instance_from_formula,
    literal_colour,
    satisfiable,
    sigma1,
    sigma2,
    values_count,
    variable_gadget,
)
from games.analysis.solitaire import Action, Card, Step, check_play_sequence

FIGURE_FORMULA = Formula(3, ((1, -2, 3), (1, 2, -3)))  # W1 = x1 ∨ ¬x2 ∨ x3, W2 = x1 ∨ x2 ∨ ¬x3
DUMMY = 7  # colour "d" of the figures: 2v + 1 with v = 3

# Figure 1, row by row: the numbers, then the colours.
FIGURE_1 = (
    "2   2 2 1 3 4 5 1 3 4 5   2 2 1 3 4 5 1 3 4 5   2 2 1 3 4 5 1 3 4 5   1",
    "d   1 2 1 1 1 1 2 2 2 2   3 4 3 3 3 3 4 4 4 4   5 6 5 5 5 5 6 6 6 6   d",
)

# Figure 2, block by block as printed: (numbers, colours). A colour cell naming several colours
# ("1,4,5") means the numbers are repeated in each of them, in that order.
FIGURE_2_C1 = [
    ("4 5 3", "d d d"),
    ("6 7 8 9 10", "1,4,5"),
    ("5 6 7 8 9 10 2 3 4", "2,3,6"),
    ("7 8 6", "d d d"),
    ("3 3 3", "1 4 5"),
    ("2 4 5 6", "1 1 1 1"),
    ("2 4 5 6", "4 4 4 4"),
    ("2 4 5 6", "5 5 5 5"),
]
FIGURE_2_C2 = [
    ("10 11 9", "d d d"),
    ("11 12 13 14 15", "1,3,6"),
    ("10 11 12 13 14 15 7 8 9", "2,4,5"),
    ("13 14 12", "d d d"),
    ("8 8 8", "1 3 6"),
    ("7 9 10 11", "1 1 1 1"),
    ("7 9 10 11", "3 3 3 3"),
    ("7 9 10 11", "6 6 6 6"),
]


def colour_of(cell: str) -> int:
    return DUMMY if cell == "d" else int(cell)


def row(numbers: str, colours: str) -> list[Card]:
    values = [int(value) for value in numbers.split()]
    if "," in colours:
        return [(value, colour_of(k)) for k in colours.split(",") for value in values]
    cells = colours.split()
    assert len(cells) == len(values)
    return [(value, colour_of(k)) for value, k in zip(values, cells, strict=True)]


def figure_2(blocks: list[tuple[str, str]]) -> list[Card]:
    return [card for numbers, colours in blocks for card in row(numbers, colours)]


# The paper's figures ------------------------------------------------------------------------


def test_figure_1_variable_phase() -> None:
    assert sigma1(FIGURE_FORMULA) == row(*FIGURE_1)
    assert variable_gadget(2) == row("2 2 1 3 4 5 1 3 4 5", "3 4 3 3 3 3 4 4 4 4")


def test_figure_2_clause_gadgets() -> None:
    blocks = figure_2(FIGURE_2_C1), figure_2(FIGURE_2_C2)
    assert clause_gadget(FIGURE_FORMULA, 1) == blocks[0][3:]  # C_1 follows its dump 4 5 3
    assert clause_gadget(FIGURE_FORMULA, 2) == blocks[1][3:]
    assert sigma2(FIGURE_FORMULA) == blocks[0] + blocks[1]
    assert associated_colours((1, -2, 3)) == (1, 4, 5)
    assert associated_colours((1, 2, -3)) == (1, 3, 6)


def test_figure_3_dummy_cards() -> None:
    """σ1's hand reduction, then dumps 6j-2, 6j-1, 6j-3 before C_j and 6j+1, 6j+2, 6j inside."""
    formula = Formula(4, ((1, 2, 3), (-2, 3, 4), (1, -3, -4), (-1, -2, 4)))
    cards = instance_from_formula(formula).cards
    dummy = [value for value, colour in cards if colour == 2 * formula.v + 1]
    expected = [2, 1]
    for j in range(1, formula.m + 1):
        expected += [6 * j - 2, 6 * j - 1, 6 * j - 3, 6 * j + 1, 6 * j + 2, 6 * j]
    assert dummy == expected
    assert sorted(dummy) == list(range(1, 6 * formula.m + 3))  # n = 6m + 2 for m >= 3


def test_the_figures_instance() -> None:
    instance = instance_from_formula(FIGURE_FORMULA)
    assert (instance.h, instance.r, instance.c, instance.n) == (2, 2, 7, 15)
    padding = list(instance.cards[len(sigma1(FIGURE_FORMULA)) + len(sigma2(FIGURE_FORMULA)) :])
    # Values o_2 + 7 .. n in each variable colour, then the dummy's 6m + 3 .. n (m = 2 < 3).
    assert padding == [(v, k) for k in range(1, 7) for v in range(12, 16)] + [(15, DUMMY)]


# The instance's parameters ------------------------------------------------------------------


def test_literal_colours() -> None:
    assert [literal_colour(literal) for literal in (1, -1, 2, -2, 5, -5)] == [1, 2, 3, 4, 9, 10]


@pytest.mark.parametrize(("m", "n"), [(1, 10), (2, 15), (3, 20), (4, 26), (8, 50)])
def test_values_count(m: int, n: int) -> None:
    clauses = [(1, 2, 3)] * m
    assert values_count(Formula(3, tuple(clauses))) == n


def test_parameters_of_random_formulas() -> None:
    rng = random.Random(3)
    for _ in range(40):
        formula = random_formula(rng, rng.randint(3, 7), rng.randint(1, 9))
        instance = instance_from_formula(formula)
        v, m = formula.v, formula.m
        assert (instance.h, instance.r, instance.c) == (2, 2, 2 * v + 1)
        assert instance.n == max(6 * m + 2, 5 * m + 5)
        size = instance.N
        assert size <= 2 * (2 * v + 1) * instance.n  # the paper's bound on N
        dummy = [value for value, colour in instance.cards if colour == 2 * v + 1]
        assert sorted(dummy) == list(range(1, instance.n + 1))  # each dummy card exactly once


@pytest.mark.parametrize(
    "clauses",
    [(), ((1, 2),), ((1, 1, 2),), ((1, -1, 2),), ((0, 1, 2),), ((1, 2, 4),)],
)
def test_bad_formulas(clauses) -> None:
    with pytest.raises(ValueError):
        Formula(3, clauses)


def test_satisfiable_by_brute_force() -> None:
    every_sign = tuple(
        tuple(sign * variable for sign, variable in zip(signs, (1, 2, 3), strict=True))
        for signs in itertools.product((1, -1), repeat=3)
    )
    assert satisfiable(Formula(3, every_sign)) is None
    for dropped in range(8):
        clauses = every_sign[:dropped] + every_sign[dropped + 1 :]
        assignment = satisfiable(Formula(3, clauses))
        # The only assignment left is the one falsifying exactly the dropped clause.
        assert assignment == {i: every_sign[dropped][i - 1] < 0 for i in (1, 2, 3)}


# Satisfiable formulas give winnable instances: the strategy of the paper's proof --------------


def random_formula(rng: random.Random, v: int, m: int) -> Formula:
    clauses = []
    for _ in range(m):
        variables = rng.sample(range(1, v + 1), 3)
        clauses.append(tuple(x if rng.random() < 0.5 else -x for x in variables))
    return Formula(v, tuple(clauses))


def proof_strategy(formula: Formula, assignment: dict[int, bool]) -> list[Step]:
    """The play sequence of Lemmas 8-10 for a satisfying assignment (smart play: a playable card
    is played at once, followed by the stored cards it frees)."""
    instance = instance_from_formula(formula)
    v, dummy = formula.v, 2 * formula.v + 1
    level = [0] * (dummy + 1)
    stored: dict[Card, int] = {}
    steps: list[Step] = []
    chosen_twos = {(2, 2 * i - 1 if assignment[i] else 2 * i) for i in range(1, v + 1)}
    end_of_sigma1 = len(sigma1(formula))
    starts = []  # where each C_j starts, after its dump
    position = end_of_sigma1
    for j in range(1, formula.m + 1):
        starts.append(position + 3)
        position += 3 + len(clause_gadget(formula, j))

    def wanted(index: int, card: Card) -> bool:
        value, colour = card
        if colour == dummy:
            return True
        if index < end_of_sigma1:
            return card in chosen_twos
        j = sum(start <= index for start in starts)
        if j == 0 or index >= starts[j - 1] + len(clause_gadget(formula, j)):
            return False  # padding: every card there is played in turn
        o, behind = 5 * (j - 1), level[colour] == 5 * (j - 1) + 1
        associated = colour in associated_colours(formula.clauses[j - 1])
        if associated:  # the 3 of a colour whose literal is false
            return behind and value == o + 3
        return behind and value in (o + 5, o + 6)  # stored until 2, 3, 4 come

    for index, card in enumerate(instance.cards):
        value, colour = card
        if level[colour] == value - 1:
            steps.append(Step(Action.PLAY, index))
            level[colour] = value
            while (level[colour] + 1, colour) in stored:
                level[colour] += 1
                steps.append(Step(Action.PLAY, stored.pop((level[colour], colour))))
        elif wanted(index, card) and card not in stored:
            steps.append(Step(Action.STORE, index))
            stored[card] = index
        else:
            steps.append(Step(Action.DISCARD, index))
    return steps


def test_proof_strategy_wins_on_satisfiable_formulas() -> None:
    """Satisfiable ⇒ winnable on formulas far beyond the DP's reach (v up to 7, m up to 8)."""
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        formula = random_formula(rng, rng.randint(3, 7), rng.randint(1, 8))
        instance = instance_from_formula(formula)
        for values in itertools.product((False, True), repeat=formula.v):
            assignment = dict(enumerate(values, start=1))
            if not formula.satisfied_by(assignment):
                continue
            steps = proof_strategy(formula, assignment)
            check_play_sequence(instance, steps)
            assert assignment_from_play_sequence(formula, steps) == assignment
            checked += 1
            break
    assert checked > 50


def test_proof_strategy_fails_on_a_falsified_clause() -> None:
    """The same strategy with an assignment falsifying W_2 loses: only two of its three 3s fit."""
    formula = FIGURE_FORMULA
    steps = proof_strategy(formula, {1: False, 2: False, 3: True})  # falsifies W2 = x1 ∨ x2 ∨ ¬x3
    with pytest.raises(ValueError, match="not won|not playable|stored"):
        check_play_sequence(instance_from_formula(formula), steps)


# Winnable iff satisfiable, decided by the DP of Theorem 6 ------------------------------------


def dp_decides(formula: Formula) -> None:
    instance = instance_from_formula(formula)
    started = time.process_time()
    steps = dp.solve(instance)
    seconds = time.process_time() - started
    expected = satisfiable(formula)
    assert (steps is not None) == (expected is not None), formula
    if steps is not None:
        check_play_sequence(instance, steps)
        assert formula.satisfied_by(assignment_from_play_sequence(formula, steps))
    print(f"v={formula.v} m={formula.m} N={instance.N}: {seconds:.1f}s")


@pytest.mark.parametrize("seed", [1, 2])
def test_dp_on_one_clause(seed: int) -> None:
    dp_decides(random_formula(random.Random(seed), 3, 1))


@pytest.mark.slow
def test_dp_on_the_figures_formula() -> None:
    dp_decides(FIGURE_FORMULA)


@pytest.mark.slow
def test_dp_on_an_unsatisfiable_formula() -> None:
    """All eight sign patterns over x1, x2, x3: the smallest unsatisfiable formula of this kind."""
    clauses = tuple(
        tuple(sign * variable for sign, variable in zip(signs, (1, 2, 3), strict=True))
        for signs in itertools.product((1, -1), repeat=3)
    )
    formula = Formula(3, clauses)
    assert satisfiable(formula) is None
    dp_decides(formula)


@pytest.mark.slow
def test_the_exact_search_decides_larger_random_formulas() -> None:
    """Beyond the DP's reach (v >= 4), the exact solitaire search -- checked against brute
    force and the DP on small instances -- wins the reduction's instance exactly when the
    formula is satisfiable, on random formulas on both sides of the 3-SAT threshold."""
    rng = random.Random(3)  # a seed whose draw holds both satisfiable and unsatisfiable ones
    outcomes = set()
    for v, m in [(3, 14), (3, 16), (3, 18), (4, 6), (4, 9), (4, 12), (5, 8), (5, 10)]:
        formula = random_formula(rng, v, m)
        instance = instance_from_formula(formula)
        result = search.solve(instance)
        expected = satisfiable(formula) is not None
        assert result.winnable is expected, formula
        if result.steps is not None:
            assert formula.satisfied_by(assignment_from_play_sequence(formula, result.steps))
        outcomes.add(expected)
    assert outcomes == {True, False}
