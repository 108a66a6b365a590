"""The exact search: agrees with brute force (and with greedy / lazy where they apply), and is fast
and conclusive on real-size decks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from games.analysis import brute, greedy, lazy, search
from games.analysis.search import SearchResult
from games.analysis.solitaire import Card, Instance, check_play_sequence

from .instances import STANDARD_COUNTS, instances, random_instance, standard_deck

COLOURS = "rygbw"


def deck(text: str, h: int) -> Instance:
    """A 5-colour, n = 5 instance from text like ``"5r 4y 1w"``."""
    cards: list[Card] = [(int(word[0]), COLOURS.index(word[1]) + 1) for word in text.split()]
    return Instance(tuple(cards), h, 5, 5)


def solved(instance: Instance, node_limit: int | None = None) -> SearchResult:
    result = search.solve(instance, node_limit=node_limit)
    if result.winnable:
        assert result.steps is not None
        check_play_sequence(instance, result.steps)
    elif result.winnable is False:
        assert result.steps is None
    return result


def test_result_is_a_frozen_dataclass() -> None:
    result = solved(Instance.of([(1, 1)], h=0))
    assert result.winnable is True and result.nodes >= 0
    with pytest.raises(AttributeError):
        result.winnable = False  # type: ignore[misc]


def test_small_known_answers() -> None:
    assert solved(Instance.of([(2, 1), (1, 1), (2, 1)], h=0)).winnable
    assert not solved(Instance.of([(2, 1), (1, 1)], h=0)).winnable
    assert not solved(Instance.of([(1, 1), (3, 1)], h=5, n=3)).winnable
    assert not solved(Instance.of([], h=3)).winnable
    for n in range(1, 7):
        reverse = [(value, 1) for value in range(n, 0, -1)]
        assert solved(Instance.of(reverse, h=n - 1)).winnable
        if n > 1:
            assert not solved(Instance.of(reverse, h=n - 2)).winnable


def test_agrees_with_brute_force_on_seeded_small_instances() -> None:
    rng = random.Random(7)
    verdicts = {True: 0, False: 0}
    for _ in range(500):
        n, c, r = rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 3)
        length = rng.choice([None, None, rng.randint(1, 14)])
        instance = random_instance(rng, n, c, r, rng.randint(0, 5), length)
        if instance.N > 14:
            continue
        expected = brute.solve(instance) is not None
        assert solved(instance).winnable == expected, instance
        verdicts[expected] += 1
    assert min(verdicts.values()) > 50


@settings(max_examples=100, deadline=None)
@given(instances(max_n=5, max_c=3, max_r=3, max_h=4, max_length=14))
def test_agrees_with_brute_force(instance: Instance) -> None:
    assert solved(instance).winnable == (brute.solve(instance) is not None)


def test_agrees_with_brute_force_on_three_colour_standard_decks() -> None:
    # N = 30 with standard multiplicities; hands near the threshold give both answers.
    rng = random.Random(8)
    verdicts = set()
    for _ in range(40):
        instance = standard_deck(rng, c=3, h=rng.randint(2, 4))
        winnable = solved(instance).winnable
        assert winnable == (brute.solve(instance) is not None), instance
        verdicts.add(winnable)
    assert verdicts == {True, False}


def test_agrees_with_greedy_on_real_size_permutations() -> None:
    rng = random.Random(9)
    verdicts = set()
    for _ in range(100):
        instance = random_instance(rng, 5, rng.choice([5, 6]), 1, rng.randint(2, 8))
        winnable = solved(instance).winnable
        assert winnable == (greedy.solve(instance) is not None), instance
        verdicts.add(winnable)
    assert verdicts == {True, False}


def test_agrees_with_lazy_on_long_single_colours() -> None:
    rng = random.Random(10)
    verdicts = set()
    for _ in range(60):
        instance = random_instance(rng, rng.randint(5, 30), 1, 3, rng.randint(0, 6))
        winnable = solved(instance).winnable
        assert winnable == (lazy.solve(instance) is not None), instance
        verdicts.add(winnable)
    assert verdicts == {True, False}


@pytest.mark.parametrize(("c", "h"), [(5, 10), (5, 15), (6, 12), (6, 20)])
def test_real_decks_are_answered_within_a_small_budget(c: int, h: int) -> None:
    rng = random.Random(100 * c + h)
    for _ in range(100 if c == 5 else 30):
        instance = standard_deck(rng, c=c, h=h)
        result = solved(instance, node_limit=500)
        assert result.winnable is not None
        assert result.nodes <= 500


def test_real_decks_with_small_hands_are_answered_both_ways() -> None:
    rng = random.Random(11)
    verdicts = set()
    for _ in range(100):
        result = solved(standard_deck(rng, c=5, h=rng.randint(2, 6)), node_limit=2000)
        assert result.winnable is not None
        verdicts.add(result.winnable)
    assert verdicts == {True, False}


# All five 5s, then both copies of every 4, then both 3r, then the rest colour by colour in order.
# Until the first 1 arrives nothing is playable, and the single 5s, the last copy of each 4 and the
# last 3r must all be held at once: 11 cards.
FIVES_FIRST = "5r 5y 5g 5b 5w 4r 4y 4g 4b 4w 4r 4y 4g 4b 4w 3r 3r 1r 1r 1r 2r 2r " + " ".join(
    f"1{k} 1{k} 1{k} 2{k} 2{k} 3{k} 3{k}" for k in "ygbw"
)

# Found by a random search over nearly-descending decks; needs a real search to refute.
HARD_UNWINNABLE = (
    "5r 5y 4r 4y 4w 3b 3y 4r 3g 4b 3y 2w 2g 2y 5g 5b 2r 2b 4b 4g 5w 1g 3g 3w 3w 4y 1w 1b 4w "
    "4g 3r 2b 3r 1y 2r 1r 2w 1b 3b 2y 1y 1r 2g 1g 1b 1y 1g 1w 1w 1r"
)


def test_decks_are_standard() -> None:
    for text in (FIVES_FIRST, HARD_UNWINNABLE):
        cards = deck(text, 10).cards
        assert sorted(cards) == sorted(
            (value, colour)
            for colour in range(1, 6)
            for value, count in enumerate(STANDARD_COUNTS, start=1)
            for _ in range(count)
        )


def test_fives_first_needs_a_hand_of_eleven() -> None:
    assert solved(deck(FIVES_FIRST, 10)).winnable is False
    assert solved(deck(FIVES_FIRST, 11)).winnable is True


def test_all_ones_last_is_unwinnable() -> None:
    rng = random.Random(12)
    cards = list(standard_deck(rng, c=5, h=10).cards)
    cards.sort(key=lambda card: card[0] == 1)  # stable: the 1s go to the end
    for h in (10, 15, 19):
        assert solved(Instance(tuple(cards), h, 5, 5)).winnable is False
    # Every card of value 2..5 must be held before the first 1: twenty distinct cards.
    assert solved(Instance(tuple(cards), 20, 5, 5)).winnable is True


def test_hard_unwinnable_deck_agrees_with_brute_force() -> None:
    instance = deck(HARD_UNWINNABLE, 10)
    result = solved(instance)
    assert result.winnable is False
    assert result.nodes > 10  # not refuted at the root
    assert brute.solve(instance) is None
    assert solved(deck(HARD_UNWINNABLE, 10), node_limit=5).winnable is None
