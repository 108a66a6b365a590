"""Theorem 4 (c = 1): the filtering of Lemma 3 and the lazy strategy, against the definitions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from games.analysis import brute, lazy, search
from games.analysis.solitaire import Action, Instance, check_play_sequence

from .instances import instances, random_instance


def witnesses(values: list[int], position: int, n: int, h: int) -> tuple[int, ...] | None:
    """h + 1 witnesses that ``values[position]`` is useless in ``values``, or None.

    The paper's definition, literally: a_i < w_1 < ... < w_{h+1} <= n and no card after position
    i has a value among the w's. The smallest such values are returned (any will do).
    """
    after = set(values[position + 1 :])
    free = [w for w in range(values[position] + 1, n + 1) if w not in after]
    return tuple(free[: h + 1]) if len(free) >= h + 1 else None


def assert_witnesses(values: list[int], position: int, n: int, h: int) -> None:
    found = witnesses(values, position, n, h)
    assert found is not None, (values, position)
    assert len(found) == h + 1
    assert values[position] < found[0] and list(found) == sorted(set(found)) and found[-1] <= n
    assert all(value not in found for value in values[position + 1 :])


def fixpoint(values: list[int], n: int, h: int) -> list[int]:
    """The indices left by removing useless cards one at a time until none is useless."""
    kept = list(range(len(values)))
    while True:
        current = [values[index] for index in kept]
        useless = [k for k in range(len(kept)) if witnesses(current, k, n, h) is not None]
        if not useless:
            return kept
        del kept[useless[0]]


def check_filter(instance: Instance) -> None:
    n, h = instance.n, instance.h
    values = [value for value, _ in instance.cards]
    kept = lazy.filter_useless(instance)
    expected = fixpoint(values, n, h)
    complete = {values[index] for index in expected} == set(range(1, n + 1))
    if kept is None:
        assert not complete, instance
        return
    assert complete, instance
    assert kept == expected, instance
    removed = sorted(set(range(len(values))) - set(kept))
    # On the original sequence: every card useless in σ is removed.
    for index in range(len(values)):
        if witnesses(values, index, n, h) is not None:
            assert index in removed
    # Iteratively, in the filtering order (higher values first, later copies first): each removed
    # card is useless, with explicit witnesses, in the sequence left at that moment.
    alive = list(range(len(values)))
    for index in sorted(removed, key=lambda i: (-values[i], -i)):
        current = [values[i] for i in alive]
        assert_witnesses(current, alive.index(index), n, h)
        alive.remove(index)
    assert alive == kept
    # After filtering no kept card is useless.
    current = [values[i] for i in kept]
    assert all(witnesses(current, k, n, h) is None for k in range(len(kept)))


def check_theorem_4(instance: Instance) -> None:
    steps = lazy.solve(instance)
    reference = brute.solve(instance)
    assert (steps is not None) == (reference is not None), instance
    assert (steps is None) == (lazy.filter_useless(instance) is None)
    if steps is not None:
        check_play_sequence(instance, steps)
    if reference is not None:
        # Observation 2: a winning sequence never plays a card useless in σ.
        values = [value for value, _ in instance.cards]
        for action, index in reference:
            if action is Action.PLAY:
                assert witnesses(values, index, instance.n, instance.h) is None


def one_colour(values: list[int], h: int, n: int | None = None) -> Instance:
    return Instance.of([(value, 1) for value in values], h=h, n=n)


def test_refuses_several_colours() -> None:
    instance = Instance.of([(1, 1), (1, 2)], h=1)
    with pytest.raises(ValueError):
        lazy.solve(instance)
    with pytest.raises(ValueError):
        lazy.filter_useless(instance)


def test_no_hand_needs_the_values_in_order() -> None:
    assert lazy.solve(one_colour([1, 2, 3], h=0)) is not None
    assert lazy.solve(one_colour([2, 1, 3], h=0)) is None
    # The final 1 is useless (no 2 or 3 after it); the lazy strategy uses the 1 at index 1, the
    # 2 at index 3 and the 3 at index 4.
    instance = one_colour([2, 1, 3, 2, 3, 1], h=0)
    assert lazy.filter_useless(instance) == [0, 1, 2, 3, 4]
    steps = lazy.solve(instance)
    assert steps is not None
    check_play_sequence(instance, steps)


def test_last_card_is_useless_iff_below_n_minus_h() -> None:
    # The paper: the last card is useless iff a_N < n - h.
    n, h = 6, 2
    for value in range(1, n + 1):
        values = [*range(1, n + 1), value]
        assert (witnesses(values, len(values) - 1, n, h) is not None) == (value < n - h)
        kept = lazy.filter_useless(one_colour(values, h=h, n=n))
        assert kept is not None
        assert (len(values) - 1 in kept) == (value >= n - h)


def test_removing_useless_cards_creates_more() -> None:
    # n = 3, h = 0: the final 2 is useless (no 3 after it). The 1 at index 3 is not useless in σ
    # (a 2 and a 3 follow it), but it is once the final 2 is gone.
    values = [1, 2, 3, 1, 3, 2]
    instance = one_colour(values, h=0)
    assert witnesses(values, 5, 3, 0) == (3,)
    assert witnesses(values, 3, 3, 0) is None
    assert witnesses([1, 2, 3, 1, 3], 3, 3, 0) == (2,)
    assert lazy.filter_useless(instance) == [0, 1, 2, 4]
    check_filter(instance)


def test_every_card_of_a_value_useless() -> None:
    instance = one_colour([3, 2, 1], h=1)  # the 1 needs 2 and 3 stored: 2 > h
    assert lazy.filter_useless(instance) is None
    assert lazy.solve(instance) is None
    assert brute.solve(instance) is None
    assert lazy.filter_useless(one_colour([1, 3], h=5, n=3)) is None  # no 2 at all


def test_single_colour_in_reverse_needs_n_minus_1() -> None:
    for n in range(1, 8):
        values = list(range(n, 0, -1))
        assert lazy.solve(one_colour(values, h=n - 1)) is not None
        if n > 1:
            assert lazy.solve(one_colour(values, h=n - 2)) is None


def test_seeded_random_one_colour_instances() -> None:
    rng = random.Random(4)
    wins = 0
    for _ in range(400):
        n, r = rng.randint(1, 8), rng.randint(1, 4)
        length = rng.choice([None, rng.randint(1, 14)])
        instance = random_instance(rng, n, 1, r, rng.randint(0, 4), length)
        if instance.N > 14:
            continue
        check_filter(instance)
        check_theorem_4(instance)
        wins += lazy.solve(instance) is not None
    assert 50 < wins < 350


def test_larger_instances_against_the_definitions_and_the_exact_search() -> None:
    rng = random.Random(5)
    verdicts = set()
    for _ in range(30):
        h = rng.choice([0, 1, 2, 3, 5, 10])
        instance = random_instance(rng, rng.randint(10, 25), 1, rng.randint(1, 4), h)
        check_filter(instance)
        steps = lazy.solve(instance)
        if steps is not None:
            check_play_sequence(instance, steps)
        assert search.solve(instance).winnable == (steps is not None), instance
        verdicts.add(steps is not None)
    assert verdicts == {True, False}


def test_long_sequence() -> None:
    rng = random.Random(6)
    for h in (0, 1, 3, 10, 100):
        instance = random_instance(rng, 2000, 1, 5, h)
        steps = lazy.solve(instance)
        if steps is not None:
            check_play_sequence(instance, steps)


@settings(max_examples=120, deadline=None)
@given(instances(max_n=8, max_c=1, max_r=4, max_h=4, max_length=14))
def test_filter_and_lazy_with_hypothesis(instance: Instance) -> None:
    check_filter(instance)
    check_theorem_4(instance)


@settings(max_examples=60, deadline=None)
@given(instances(max_n=12, max_c=1, max_r=5, max_h=6, max_length=40, min_copies=1))
def test_filter_on_longer_sequences(instance: Instance) -> None:
    check_filter(instance)
    steps = lazy.solve(instance)
    if steps is not None:
        check_play_sequence(instance, steps)
