"""The exhaustive search is the reference: check it on known answers and against a naive count."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings

from games.analysis import brute
from games.analysis.solitaire import Action, Instance, check_play_sequence

from .instances import instances, random_instance


def solved(instance: Instance) -> bool:
    steps = brute.solve(instance)
    if steps is not None:
        check_play_sequence(instance, steps)
    return steps is not None


def naive_winnable(instance: Instance) -> bool:
    """Try all 3^N scan decisions (stored cards are played as soon as they become playable).

    Independent of brute.py: a stored card is never discarded later (it could have been discarded
    when scanned instead) and is played as soon as it can be (playing earlier never hurts).
    """
    n, c, h = instance.n, instance.c, instance.h
    for choice in itertools.product((Action.PLAY, Action.STORE, Action.DISCARD), repeat=instance.N):
        played = [0] * (c + 1)
        hand: list[tuple[int, int]] = []
        legal = True
        for (value, colour), action in zip(instance.cards, choice, strict=True):
            if action is Action.STORE:
                hand.append((value, colour))
                if len(hand) > h:
                    legal = False
                    break
            elif action is Action.PLAY:
                if played[colour] != value - 1:
                    legal = False
                    break
                played[colour] = value
                progress = True
                while progress:
                    progress = False
                    for card in hand:
                        if played[card[1]] == card[0] - 1:
                            played[card[1]] = card[0]
                            hand.remove(card)
                            progress = True
                            break
        if legal and all(played[colour] == n for colour in range(1, c + 1)):
            return True
    return False


def test_cards_in_order_win_with_no_hand() -> None:
    assert solved(Instance.of([(1, 1), (2, 1), (3, 1), (4, 1)], h=0))
    assert solved(Instance.of([(1, 1), (1, 2), (2, 2), (2, 1)], h=0))


def test_out_of_order_loses_with_no_hand() -> None:
    assert not solved(Instance.of([(2, 1), (1, 1)], h=0))
    assert not solved(Instance.of([(1, 1), (3, 1), (2, 1)], h=0))


def test_a_later_copy_rescues_an_early_card_with_no_hand() -> None:
    assert solved(Instance.of([(2, 1), (1, 1), (2, 1)], h=0))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_single_colour_in_reverse_needs_exactly_n_minus_1_stored(n: int) -> None:
    cards = [(value, 1) for value in range(n, 0, -1)]
    assert solved(Instance.of(cards, h=n - 1))
    assert not solved(Instance.of(cards, h=n - 2))


def test_missing_card_or_empty_deck_is_unwinnable() -> None:
    assert not solved(Instance.of([(1, 1), (3, 1)], h=3, n=3))
    assert not solved(Instance.of([(1, 1), (2, 1)], h=3, c=2))
    assert not solved(Instance.of([], h=2))


def test_stored_cards_are_played_after_a_later_play() -> None:
    # 3 and 2 are stored, then 1 is played and lets both stored cards follow.
    instance = Instance.of([(3, 1), (2, 1), (1, 1)], h=2)
    steps = brute.solve(instance)
    assert steps is not None
    check_play_sequence(instance, steps)
    assert [step.action for step in steps] == [Action.STORE, Action.STORE, Action.PLAY] + [
        Action.PLAY
    ] * 2


def test_agrees_with_naive_enumeration_on_seeded_tiny_instances() -> None:
    rng = random.Random(20240601)
    outcomes = set()
    for _ in range(150):
        instance = random_instance(
            rng, rng.randint(1, 3), rng.randint(1, 2), 2, rng.randint(0, 2), rng.randint(1, 7)
        )
        expected = naive_winnable(instance)
        assert solved(instance) == expected, instance
        outcomes.add(expected)
    assert outcomes == {True, False}


@settings(max_examples=60, deadline=None)
@given(instances(max_n=3, max_c=2, max_r=2, max_h=2, max_length=7))
def test_agrees_with_naive_enumeration(instance: Instance) -> None:
    assert solved(instance) == naive_winnable(instance)


@settings(max_examples=80, deadline=None)
@given(instances(max_n=4, max_c=3, max_r=3, max_h=4, max_length=14))
def test_every_returned_sequence_checks(instance: Instance) -> None:
    solved(instance)
