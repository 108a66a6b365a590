"""The H-Group bot sees only its seat's view: the swap test (its own cards exchanged for
undealt cards every clue treated alike do not change its choice), the view left as it was,
the JSON of the view, and whole games legal over every rule option."""

import copy
import json
import random

import pytest

from games.bots.hgroup import LEVELS, choose_action, decide
from games.engine import action_to_dict, new_game, view_for
from tests.bots.helpers import ALL_OPTIONS, swapped_twin

# The levels that read finesses, self-finesses and (level 3) fix clues and Sarcastic Discards.
ABOVE_1 = pytest.mark.parametrize("level", [level for level in LEVELS if level > 1])


def play_until(options, seed: int, turns: int, level: int = 1):
    state = new_game(options, seed=seed)
    while not state.is_over and state.turn < turns:
        state.apply(choose_action(view_for(state, state.current_seat), level=level))
    return state


def positions(count: int, seed: int, level: int = 1):
    """(state, rng): mid-game positions of H-Group bot games over every option."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        options = ALL_OPTIONS[made % len(ALL_OPTIONS)]
        state = play_until(options, rng.randrange(2**32), rng.randrange(0, 60), level)
        if state.is_over:
            continue
        made += 1
        yield state, rng


@pytest.mark.parametrize("batch", range(2))
def test_swapping_the_movers_own_cards_does_not_change_the_action(batch):
    compared = 0
    for state, rng in positions(30, seed=100 + batch):
        seat = state.current_seat
        other = swapped_twin(state, rng)  # the seat's cards are other cards...
        if other is None:
            continue
        # ...and its choice is the same.
        assert choose_action(view_for(other, seat)) == choose_action(view_for(state, seat))
        compared += 1
    assert compared >= 20


@ABOVE_1
@pytest.mark.parametrize("batch", range(2))
def test_above_level_1_swapping_the_movers_own_cards_does_not_change_the_action(level, batch):
    compared = 0
    for state, rng in positions(30, seed=200 + batch, level=level):
        seat = state.current_seat
        other = swapped_twin(state, rng)
        if other is None:
            continue
        mine = choose_action(view_for(state, seat), level=level)
        assert choose_action(view_for(other, seat), level=level) == mine
        compared += 1
    assert compared >= 20


@ABOVE_1
def test_above_level_1_the_reason_does_not_change_when_its_own_cards_are_swapped(level):
    # The reason names its own cards by slot and by what the clues leave: the same words.
    compared = 0
    for state, rng in positions(12, seed=300, level=level):
        seat = state.current_seat
        other = swapped_twin(state, rng)
        if other is None:
            continue
        mine = decide(view_for(state, seat), level=level)
        assert decide(view_for(other, seat), level=level) == mine
        compared += 1
    assert compared >= 6


@ABOVE_1
def test_above_level_1_the_bot_leaves_the_view_as_it_was_and_reads_its_json(level):
    for state, _ in positions(8, seed=9, level=level):
        view = view_for(state, state.current_seat)
        before = copy.deepcopy(view)
        action = choose_action(view, level=level)
        assert view == before
        again = json.loads(json.dumps(view))
        assert action_to_dict(choose_action(again, level=level)) == action_to_dict(action)


@ABOVE_1
def test_above_level_1_whole_games_are_legal_over_every_option(level):
    for index, options in enumerate(ALL_OPTIONS):
        assert play_until(options, 2000 + index, 10_000, level=level).is_over


def test_the_bot_does_not_change_the_view_it_is_given():
    for state, _ in positions(10, seed=7):
        view = view_for(state, state.current_seat)
        before = copy.deepcopy(view)
        choose_action(view)
        assert view == before


def test_the_bot_works_from_the_json_of_the_view():
    for state, _ in positions(10, seed=8):
        view = view_for(state, state.current_seat)
        again = json.loads(json.dumps(view))
        assert action_to_dict(choose_action(again)) == action_to_dict(choose_action(view))


def test_whole_games_are_legal_over_every_option():
    """The engine raises on an illegal action; every option finishes."""
    for index, options in enumerate(ALL_OPTIONS):
        state = play_until(options, 1000 + index, 10_000)
        assert state.is_over


def test_it_refuses_a_view_when_it_is_not_that_seats_turn():
    state = play_until(ALL_OPTIONS[0], 1, 3)
    waiting = (state.current_seat + 1) % state.players
    with pytest.raises(ValueError):
        choose_action(view_for(state, waiting))


def test_an_unknown_level_is_refused():
    state = play_until(ALL_OPTIONS[0], 1, 0)
    with pytest.raises(ValueError):
        choose_action(view_for(state, state.current_seat), level=9)
