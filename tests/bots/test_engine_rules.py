"""The bots ask the engine's rules (games/engine/rules.py) rather than keep copies of them:
what a clue touches and how the cards are dealt."""

import pytest

from games.bots.knowledge import Table, variant
from games.engine import (
    SUITS,
    Clue,
    GameOptions,
    clue_touch_mask,
    dealt_hands,
    may_name_colour,
    new_game,
    view_for,
)


@pytest.mark.parametrize("multicolour", [0, 1, 2, 3])
def test_the_bots_clue_touch_is_the_engines_for_every_colour_and_rank(multicolour):
    options = GameOptions(3, multicolour=multicolour)
    bot = variant(options)
    colours = [colour for colour in SUITS if may_name_colour(options, colour)]
    assert colours == options.clue_colours
    for colour in colours:
        assert bot.touch_mask(colour, None) == clue_touch_mask(options, colour=colour)
    for rank in range(1, 6):
        assert bot.touch_mask(None, rank) == clue_touch_mask(options, rank=rank)


@pytest.mark.parametrize("multicolour", [0, 1, 2, 3])
def test_the_bot_reads_each_clue_as_touching_what_the_engine_touched(multicolour):
    """Every clue the engine allows, given in a game: the cards the bot's touch mask covers in
    the target's hand are exactly those the engine touched."""
    options = GameOptions(4, multicolour=multicolour, empty_clues=True)
    state = new_game(options, seed=multicolour)
    bot = variant(options)
    for action in state.legal_actions():
        if not isinstance(action, Clue):
            continue
        event = state.copy().apply(action)
        touch = bot.touch_mask(action.colour, action.rank)
        covered = tuple(cid for cid in event.hand if touch >> state.card(cid).identity & 1)
        assert covered == event.touched, action


@pytest.mark.parametrize("players", range(2, 7))
def test_the_bot_rebuilds_the_engines_deal(players):
    options = GameOptions(players)
    state = new_game(options, seed=players)
    table = Table(view_for(state, 0))
    assert table.hands == dealt_hands(options)
    assert [tuple(hand) for hand in table.hands] == list(state.hands)
