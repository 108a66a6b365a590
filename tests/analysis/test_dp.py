"""Theorem 6's dynamic programme: known answers, agreement with the exhaustive search, the bound."""

from __future__ import annotations

import random
from math import comb

import pytest
from hypothesis import given, settings

from games.analysis import brute, dp
from games.analysis.solitaire import Action, Instance, Step, check_play_sequence

from .instances import instances, random_instance


def dp_answer(instance: Instance, *, prune: bool = True) -> bool:
    """The DP's verdict; any sequence it returns must be a legal winning one."""
    steps = dp.solve(instance, prune=prune)
    if steps is not None:
        check_play_sequence(instance, steps)
    return steps is not None


def check_against_brute(instance: Instance) -> None:
    expected = brute.solve(instance) is not None
    assert dp_answer(instance) == expected, instance
    assert dp_answer(instance, prune=False) == expected, instance
    assert dp.winnable(instance) == expected


def check_table_size(instance: Instance) -> None:
    """The whole table stays within the paper's count of nontrivial entries (per layer too), and
    pruning keeps a subset of it with no larger values."""
    full = dp.build_table(instance, prune=False)
    pruned = dp.build_table(instance)
    n, c, h = instance.n, instance.c, instance.h
    per_layer = sum(comb(n * c, i) for i in range(min(h, n * c) + 1)) * (n + 1) ** (c - 1)
    assert all(len(layer) <= per_layer for layer in full.layers)
    assert full.entries <= dp.paper_bound(instance)
    assert dp.table_entries(instance, prune=False) == full.entries
    assert dp.table_entries(instance) == pruned.entries <= full.entries
    for kept, whole in zip(pruned.layers, full.layers, strict=True):
        assert all(key in whole and value <= whole[key] for key, value in kept.items())
    assert pruned.final == full.final or full.final < n and pruned.final < n


# Known answers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "h", "n", "c", "winnable"),
    [
        # The counter-example to the paper's literal S (-inf when |H| >= h): storing (2, 1) fills
        # a hand of size 1, and the instance is won.
        ([(2, 1), (1, 1)], 1, 2, 1, True),
        ([(2, 1), (1, 1)], 0, 2, 1, False),
        ([(1, 1), (2, 1), (3, 1)], 0, 3, 1, True),
        ([(3, 1), (2, 1), (1, 1)], 2, 3, 1, True),
        ([(3, 1), (2, 1), (1, 1)], 1, 3, 1, False),
        # Two copies of a card: the first is stored, the second discarded (or the other way).
        ([(2, 1), (2, 1), (1, 1)], 1, 2, 1, True),
        ([(2, 1), (2, 2), (1, 1), (1, 2)], 2, 2, 2, True),
        ([(2, 1), (2, 2), (1, 1), (1, 2)], 1, 2, 2, False),
        # Colour c = 2 needs the run t = h = 2 after (1, 2).
        ([(1, 1), (2, 1), (3, 1), (3, 2), (2, 2), (1, 2)], 2, 3, 2, True),
        ([(1, 1), (2, 1), (3, 1), (3, 2), (2, 2), (1, 2)], 1, 3, 2, False),
        # Colour 1 < c needs the run (2, 1), (3, 1) after (1, 1).
        ([(3, 1), (2, 1), (1, 1), (1, 2), (2, 2), (3, 2)], 2, 3, 2, True),
        ([(3, 1), (2, 1), (1, 1), (1, 2), (2, 2), (3, 2)], 1, 3, 2, False),
        # A missing card, and the empty sequence.
        ([(1, 1), (3, 1)], 3, 3, 1, False),
        ([], 2, 1, 1, False),
        # Three colours, hand 1: each colour's 2 must wait for its 1 in turn.
        ([(2, 1), (1, 1), (2, 2), (1, 2), (2, 3), (1, 3)], 1, 2, 3, True),
        ([(2, 1), (2, 2), (1, 1), (1, 2), (2, 3), (1, 3)], 1, 2, 3, False),
    ],
)
def test_known_answers(cards, h, n, c, winnable) -> None:
    instance = Instance(tuple(cards), h, n, c)
    assert dp_answer(instance) is winnable
    assert dp_answer(instance, prune=False) is winnable
    assert (brute.solve(instance) is not None) is winnable
    check_table_size(instance)


def test_the_counter_example_sequence() -> None:
    instance = Instance(((2, 1), (1, 1)), 1, 2, 1)
    assert dp.solve(instance) == [
        Step(Action.STORE, 0),
        Step(Action.PLAY, 1),
        Step(Action.PLAY, 0),
    ]
    table = dp.build_table(instance, prune=False)
    assert table.get(1, ((2, 1),), ()) == 0  # |H| = h = 1 is allowed: the literal S gives -inf
    assert table.final == 2


def test_table_values() -> None:
    """Hand-computed entries: colour c = 2 is maximised, colour 1 is indexed."""
    cards = ((1, 1), (2, 1), (3, 1), (3, 2), (2, 2), (1, 2))
    table = dp.build_table(Instance(cards, 1, 3, 2), prune=False)
    # With one stored card, colour 2 reaches 2 at most: keep (2, 2), then play 1 and 2.
    assert table.final == 2
    assert table.get(6, (), (3,)) == 2
    assert table.get(6, (), (2,)) == 2
    assert table.get(5, ((2, 2),), (3,)) == 0
    assert table.get(4, ((3, 2),), (3,)) == 0
    assert table.get(4, ((3, 2),), (1,)) == 0  # colour 1 played exactly up to 1
    assert table.get(3, (), (3,)) == 0
    assert table.get(2, (), (3,)) == float("-inf")  # (3, 1) not yet scanned
    assert table.get(5, ((2, 2), (3, 2)), (3,)) == float("-inf")  # two stored cards, h = 1
    with_two = dp.build_table(Instance(cards, 2, 3, 2), prune=False)
    assert with_two.get(5, ((2, 2), (3, 2)), (3,)) == 0
    assert with_two.final == 3  # P with t = 2: play (1, 2), then (2, 2) and (3, 2)


def test_backtracking_plays_the_stored_runs() -> None:
    instance = Instance(((3, 1), (2, 1), (1, 1), (1, 2), (2, 2), (3, 2)), 2, 3, 2)
    steps = dp.solve(instance)
    assert steps == [
        Step(Action.STORE, 0),
        Step(Action.STORE, 1),
        Step(Action.PLAY, 2),
        Step(Action.PLAY, 1),
        Step(Action.PLAY, 0),
        Step(Action.PLAY, 3),
        Step(Action.PLAY, 4),
        Step(Action.PLAY, 5),
    ]


@pytest.mark.parametrize("h", [0, 1, 2])
def test_one_colour_and_no_hand(h: int) -> None:
    in_order = Instance(tuple((value, 1) for value in range(1, 6)), h, 5, 1)
    assert dp_answer(in_order)
    steps = dp.solve(in_order)
    assert [step.action for step in steps] == [Action.PLAY] * 5
    swapped = Instance(((2, 1), (1, 1), (3, 1)), h, 3, 1)
    assert dp_answer(swapped) is (h >= 1)


# Agreement with the exhaustive search -------------------------------------------------------


def test_agrees_with_brute_on_seeded_instances() -> None:
    rng = random.Random(20240606)
    seen = {True: 0, False: 0}
    for _ in range(400):
        n, c, r, h = rng.randint(2, 4), rng.randint(1, 3), rng.randint(1, 3), rng.randint(0, 3)
        length = None if rng.random() < 0.3 and n * c <= 6 else rng.randint(n * c - 1, 12)
        instance = random_instance(rng, n, c, r, h, length)
        if instance.N > 12:
            continue
        check_against_brute(instance)
        seen[brute.solve(instance) is not None] += 1
    assert seen[True] > 60 and seen[False] > 60, seen


def test_table_size_on_seeded_instances() -> None:
    rng = random.Random(7)
    for _ in range(150):
        n, c, r, h = rng.randint(1, 4), rng.randint(1, 3), rng.randint(1, 3), rng.randint(0, 3)
        check_table_size(random_instance(rng, n, c, r, h, rng.randint(0, 10)))


@settings(max_examples=250, deadline=None)
@given(instances(max_n=4, max_c=3, max_r=3, max_h=3, max_length=12))
def test_agrees_with_brute(instance: Instance) -> None:
    check_against_brute(instance)
    check_table_size(instance)


@settings(max_examples=80, deadline=None)
@given(instances(max_n=3, max_c=2, max_r=2, max_h=2, max_length=None, min_copies=1))
def test_agrees_with_brute_on_complete_decks(instance: Instance) -> None:
    check_against_brute(instance)


@settings(max_examples=60, deadline=None)
@given(instances(max_n=4, max_c=3, max_r=1, max_h=3, max_length=None, min_copies=1))
def test_agrees_with_brute_on_permutations(instance: Instance) -> None:
    check_against_brute(instance)
