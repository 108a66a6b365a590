"""The bot sees only its seat's view: hidden cards cannot change its choice."""

import copy
import json
import random

import pytest

from games.bots import choose_action
from games.bots.knowledge import Table
from games.engine import action_to_dict, view_for
from tests.bots.helpers import ALL_OPTIONS, play_until, swapped_twin


def positions(count: int, seed: int):
    """(state, rng) for ``count`` positions of bot games over every option, mid-game."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        options = ALL_OPTIONS[made % len(ALL_OPTIONS)]
        state = play_until(options, rng.randrange(2**32), rng.randrange(0, 70))
        if state.is_over:
            continue
        made += 1
        yield state, rng


@pytest.mark.parametrize("batch", range(4))
def test_swapping_the_movers_own_cards_does_not_change_the_action(batch):
    compared = 0
    for state, rng in positions(40, seed=batch):
        seat = state.current_seat
        other = swapped_twin(state, rng)  # the seat's cards are other cards...
        if other is None:
            continue
        # ...and its choice is the same.
        assert choose_action(view_for(other, seat)) == choose_action(view_for(state, seat))
        compared += 1
    assert compared >= 30


def test_the_bot_does_not_change_the_view_it_is_given():
    for state, _ in positions(20, seed=7):
        view = view_for(state, state.current_seat)
        before = copy.deepcopy(view)
        choose_action(view)
        assert view == before


def test_the_bot_works_from_the_json_of_the_view():
    """What a Celery task would pass: the view after a round trip through JSON."""
    for state, _ in positions(20, seed=8):
        view = view_for(state, state.current_seat)
        again = json.loads(json.dumps(view))
        assert action_to_dict(choose_action(again)) == action_to_dict(choose_action(view))


def test_the_bots_clue_knowledge_matches_the_engines():
    """The bot rebuilds each card's possible identities from the history alone; they agree
    with the engine's ("possible" in the view)."""
    for state, _ in positions(30, seed=9):
        seat = state.current_seat
        view = view_for(state, seat)
        table = Table(view)
        for hand in view["hands"]:
            assert table.hands[hand["seat"]] == [card["id"] for card in hand["cards"]]
            for card in hand["cards"]:
                codes = {
                    f"{'RYGBWM'[i // 5]}{i % 5 + 1}"
                    for i in range(30)
                    if table.info[card["id"]].mask >> i & 1
                }
                assert codes == set(card["possible"])


def test_it_refuses_a_view_when_it_is_not_that_seats_turn():
    state = play_until(ALL_OPTIONS[0], 1, 3)
    waiting = (state.current_seat + 1) % state.players
    with pytest.raises(ValueError):
        choose_action(view_for(state, waiting))
