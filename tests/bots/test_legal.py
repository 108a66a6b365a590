"""The bot always returns a legal action, whatever the options, and never plays a card it
knows cannot be played."""

import pytest

from games.bots import choose_action
from games.engine import Play, new_game, view_for
from tests.bots.helpers import ALL_OPTIONS


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


def test_a_game_where_everyone_holds_nothing_but_may_still_clue_goes_on():
    """Play until perfect, after the deck: hands shrink to nothing; a seat with no card must
    clue, and the bot does."""
    for options in ALL_OPTIONS:
        if not options.until_perfect:
            continue
        for seed in range(3):
            state = new_game(options, seed=seed)
            while not state.is_over:
                view = view_for(state, state.current_seat)
                state.apply(choose_action(view))
