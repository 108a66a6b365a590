"""The bot always returns a legal action, whatever the options, and never plays a card it
knows cannot be played."""

import pytest

from games.bots import choose_action
from games.engine import Clue, GameOptions, Play, new_game, view_for
from tests.bots.helpers import ALL_OPTIONS
from tests.engine.helpers import empty_seat_zero, fives_last


def _unplayable_for_sure(view: dict, card_id: int) -> bool:
    """Every identity the viewer thinks the card may be (its clues and the cards it sees)
    is unplayable now."""
    heights = {f["letter"]: f["height"] for f in view["fireworks"]}
    me = next(hand for hand in view["hands"] if hand["is_viewer"])
    card = next(card for card in me["cards"] if card["id"] == card_id)
    return all(int(code[1]) != heights[code[0]] + 1 for code in card["possible_counted"])


@pytest.mark.slow
def test_self_play_over_every_option_is_legal_and_never_plays_a_known_dud():
    turns = 0
    for index, options in enumerate(ALL_OPTIONS * 2):
        state = new_game(options, seed=1000 + index)
        while not state.is_over:
            view = view_for(state, state.current_seat)
            action = choose_action(view)
            if isinstance(action, Play):
                assert not _unplayable_for_sure(view, action.card_id), (options, state.turn)
            state.apply(action)  # raises IllegalAction on an illegal action
            turns += 1
    assert turns > 2000


def test_a_seat_that_holds_nothing_but_may_still_clue_clues_and_the_game_goes_on():
    """Play until perfect, after the deck: hands shrink to nothing; a seat with no card must
    clue, and the bot does. (Every hand empty at once cannot be reached with the game still
    on: with the deck out too, every card is played or lost, so the game is already won or
    lost.) The games are steered by a player who sees everything until seat 0 holds nothing;
    from there the bots play every seat to the end."""
    options_list = [
        GameOptions(3, until_perfect=True),
        GameOptions(4, multicolour=3, until_perfect=True),
        GameOptions(2, until_perfect=True, empty_clues=True),
    ]
    reached = 0
    for options in options_list:
        for seed in range(2):
            state = new_game(options, deck=fives_last(options, seed))
            while not state.is_over and (state.current_seat != 0 or state.hand(0)):
                state.apply(empty_seat_zero(state))
            assert not state.is_over, (options, seed, state.end)
            view = view_for(state, 0)
            assert view["legal"]["play"] == [] and view["legal"]["clues"], (options, seed)
            action = choose_action(view)
            assert isinstance(action, Clue), (options, seed, action)
            state.apply(action)  # raises IllegalAction on an illegal action
            assert not state.is_over, (options, seed, state.end)
            reached += 1
            while not state.is_over:  # and on to the end, every seat a bot
                seat = state.current_seat
                action = choose_action(view_for(state, seat))
                if not state.hand(seat):
                    assert isinstance(action, Clue), (options, seed, action)
                state.apply(action)
    assert reached == 6
