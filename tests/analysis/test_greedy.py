"""Lemma 1 (r = 1): greedy wins iff w <= h, checked against the exhaustive search."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.analysis import brute, greedy
from games.analysis.solitaire import Action, Instance, check_play_sequence

from .instances import random_permutation_instance


def hand_profile(instance: Instance, steps: list) -> int:
    """The most cards the sequence ever holds at once."""
    stored: set[int] = set()
    largest = 0
    for action, index in steps:
        if action is Action.STORE:
            stored.add(index)
            largest = max(largest, len(stored))
        else:
            stored.discard(index)
    return largest


def test_cards_in_order_need_no_hand() -> None:
    instance = Instance.of([(1, 1), (1, 2), (2, 1), (2, 2)], h=0)
    assert greedy.overlap_width(instance) == 0
    steps = greedy.solve(instance)
    assert steps is not None
    check_play_sequence(instance, steps)


def test_an_interval_of_length_zero_does_not_count() -> None:
    # (2,1) waits for (1,1): interval [0, 1]. (1,1) is playable on scan: f = i, not counted.
    instance = Instance.of([(2, 1), (1, 1)], h=1)
    assert greedy.overlap_width(instance) == 1
    assert greedy.solve(instance) is not None
    assert greedy.solve(Instance.of([(2, 1), (1, 1)], h=0)) is None


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_single_colour_in_reverse(n: int) -> None:
    instance = Instance.of([(value, 1) for value in range(n, 0, -1)], h=n - 1)
    assert greedy.overlap_width(instance) == n - 1
    steps = greedy.solve(instance)
    assert steps is not None
    check_play_sequence(instance, steps)
    if n > 1:
        assert greedy.solve(Instance.of(instance.cards, h=n - 2)) is None


def test_two_colours_overlap() -> None:
    # Intervals: (3,1) [0,4], (2,2) [1,3], (2,1) [2,4], (1,2) [3,3] empty, (1,1) [4,4] empty,
    # (3,2) [5,5] empty. At index 2 and 3 three intervals overlap.
    cards = [(3, 1), (2, 2), (2, 1), (1, 2), (1, 1), (3, 2)]
    assert greedy.overlap_width(Instance.of(cards, h=0)) == 3
    assert greedy.solve(Instance.of(cards, h=2)) is None
    steps = greedy.solve(Instance.of(cards, h=3))
    assert steps is not None
    check_play_sequence(Instance.of(cards, h=3), steps)


def test_missing_card_is_unwinnable_whatever_the_hand() -> None:
    instance = Instance.of([(1, 1), (3, 1)], h=5, n=3)
    assert greedy.solve(instance) is None
    assert brute.solve(instance) is None


def test_refuses_repeated_cards() -> None:
    instance = Instance.of([(1, 1), (1, 1), (2, 1)], h=2)
    with pytest.raises(ValueError):
        greedy.solve(instance)
    with pytest.raises(ValueError):
        greedy.overlap_width(instance)


def check_lemma_1(instance: Instance) -> None:
    width = greedy.overlap_width(instance)
    steps = greedy.solve(instance)
    reference = brute.solve(instance)
    assert (steps is not None) == (reference is not None) == (width <= instance.h), instance
    if steps is not None:
        check_play_sequence(instance, steps)
        # Greedy holds each card exactly over its interval: its largest hand is w.
        assert hand_profile(instance, steps) == width


def test_lemma_1_on_seeded_permutations() -> None:
    rng = random.Random(1)
    verdicts = []
    for _ in range(300):
        n, c = rng.randint(1, 5), rng.randint(1, 3)
        while n * c > 12:
            n, c = rng.randint(1, 5), rng.randint(1, 3)
        instance = random_permutation_instance(rng, n, c, rng.randint(0, 4))
        check_lemma_1(instance)
        verdicts.append(greedy.solve(instance) is not None)
    assert 50 < sum(verdicts) < 250


def test_width_is_the_smallest_winning_hand() -> None:
    rng = random.Random(2)
    for _ in range(60):
        instance = random_permutation_instance(rng, rng.randint(1, 4), rng.randint(1, 3), 0)
        smallest = next(
            h
            for h in range(instance.N + 1)
            if brute.solve(Instance.of(instance.cards, h)) is not None
        )
        assert greedy.overlap_width(instance) == smallest


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda n: st.integers(1, 3).flatmap(
            lambda c: st.tuples(
                st.permutations([(v, k) for v in range(1, n + 1) for k in range(1, c + 1)]),
                st.integers(0, 4),
                st.integers(0, n * c),
                st.just((n, c)),
            )
        )
    )
)
def test_lemma_1_with_hypothesis(drawn: tuple) -> None:
    order, h, missing, (n, c) = drawn
    check_lemma_1(Instance(tuple(order), h, n, c))
    # With cards missing, greedy and brute force both say no.
    partial = Instance(tuple(order[missing:]), h, n, c)
    if missing:
        assert greedy.solve(partial) is None
        assert brute.solve(partial) is None
    greedy.overlap_width(partial)  # defined, no error


def test_greedy_is_linear_on_a_large_permutation() -> None:
    rng = random.Random(3)
    instance = random_permutation_instance(rng, 200, 50, 10_000)
    steps = greedy.solve(instance)
    assert steps is not None
    check_play_sequence(instance, steps)
    assert hand_profile(instance, steps) == greedy.overlap_width(instance)
