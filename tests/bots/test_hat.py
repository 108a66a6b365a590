"""The hat-guessing bot (games/bots/hat/): legal on every option, blind to hidden cards,
deterministic, and every seat rebuilds the same public knowledge."""

import copy
import json
import random

import pytest

from games.bots.hat import choose_action, decide
from games.bots.hat.rebuild import Rebuilt, clear_memo
from games.bots.selfplay import play_game
from games.engine import GameOptions, action_to_dict, new_game, view_for
from tests.bots.helpers import ALL_OPTIONS, swapped_twin

# Every rule option, alone and mixed: 2-6 players, each multicolour variant, until perfect,
# one and two fuses, empty clues.
EVERY_OPTION = (
    ALL_OPTIONS
    + [
        GameOptions(players=players, multicolour=multicolour)
        for players in range(2, 7)
        for multicolour in range(4)
    ]
    + [
        GameOptions(players=6, multicolour=3, until_perfect=True, fuses=1, empty_clues=True),
        GameOptions(players=2, until_perfect=True, fuses=2, empty_clues=True),
        GameOptions(players=4, fuses=1, empty_clues=True),
        GameOptions(players=5, multicolour=2, until_perfect=True),
    ]
)


def hat_position(options: GameOptions, seed: int, turns: int):
    """A game the hat bot plays from ``seed`` for ``turns`` actions (or to its end)."""
    state = new_game(options, seed=seed)
    while not state.is_over and state.turn < turns:
        state.apply(choose_action(view_for(state, state.current_seat)))
    return state


def positions(count: int, seed: int):
    rng = random.Random(seed)
    made = 0
    while made < count:
        options = EVERY_OPTION[made % len(EVERY_OPTION)]
        state = hat_position(options, rng.randrange(2**32), rng.randrange(0, 80))
        if state.is_over:
            continue
        made += 1
        yield state, rng


@pytest.mark.parametrize("options", EVERY_OPTION, ids=lambda o: o.describe())
def test_every_option_plays_to_the_end_with_legal_moves(options, monkeypatch):
    def no_fallback(legal):
        raise AssertionError("the bot chose an illegal action")

    # The last guard against an illegal move must never be needed.
    monkeypatch.setattr(decide, "first_legal", no_fallback)
    for seed in range(3):
        state = new_game(options, seed=seed)
        while state.end is None:
            view = view_for(state, state.current_seat)
            action = choose_action(view)
            assert state.is_legal(action), (options.describe(), seed, state.turn, action)
            state.apply(action)
        assert 0 <= state.score <= options.max_score


@pytest.mark.parametrize("batch", range(3))
def test_swapping_the_movers_own_cards_does_not_change_the_action(batch):
    compared = 0
    for state, rng in positions(30, seed=100 + batch):
        seat = state.current_seat
        other = swapped_twin(state, rng)
        if other is None:
            continue
        clear_memo()
        before = choose_action(view_for(state, seat))
        clear_memo()
        after = choose_action(view_for(other, seat))
        assert after == before
        compared += 1
    assert compared >= 20


def test_every_seat_rebuilds_the_same_public_knowledge():
    """The heart of hat guessing: each seat, from its own view, reaches the same public
    tables for every card (its own included) after every action."""
    for options in (GameOptions(players=p, multicolour=m) for p in (3, 4, 5) for m in (0, 1)):
        for seed in range(2):
            state = new_game(options, seed=seed)
            while state.end is None:
                views = [view_for(state, seat) for seat in range(options.players)]
                publics = [Rebuilt(view).public for view in views]
                for public in publics[1:]:
                    assert public.hands == publics[0].hands
                    assert public.tables == publics[0].tables, (options.describe(), state.turn)
                state.apply(choose_action(views[state.current_seat]))


def test_the_memo_does_not_change_any_choice():
    options = GameOptions(players=4, multicolour=1)
    state = new_game(options, seed=5)
    while state.end is None:
        view = view_for(state, state.current_seat)
        warm = choose_action(view)
        clear_memo()
        cold = choose_action(view)
        assert warm == cold
        state.apply(warm)


def test_the_same_game_is_played_the_same_way_twice():
    options = GameOptions(players=3)
    clear_memo()
    first = play_game(options, 77, choose_action)
    clear_memo()
    second = play_game(options, 77, choose_action)
    assert first.actions == second.actions


def test_the_bot_does_not_change_the_view_it_is_given():
    for state, _ in positions(15, seed=7):
        view = view_for(state, state.current_seat)
        before = copy.deepcopy(view)
        choose_action(view)
        assert view == before


def test_the_bot_works_from_the_json_of_the_view():
    for state, _ in positions(15, seed=8):
        view = view_for(state, state.current_seat)
        again = json.loads(json.dumps(view))
        clear_memo()
        assert action_to_dict(choose_action(again)) == action_to_dict(choose_action(view))


def test_it_refuses_a_view_when_it_is_not_that_seats_turn():
    state = hat_position(GameOptions(players=3), 1, 3)
    waiting = (state.current_seat + 1) % state.players
    with pytest.raises(ValueError):
        choose_action(view_for(state, waiting))


@pytest.mark.parametrize("options", ALL_OPTIONS[::3], ids=lambda o: o.describe())
def test_it_stays_legal_beside_a_bot_that_follows_other_conventions(options):
    """At a table with the rule-based bot, clues and discards do not carry what the hat bot
    expects: its public knowledge turns out wrong, but it still plays legally."""
    from games.bots import choose_action as other_bot

    for seed in range(2):
        state = new_game(options, seed=seed)
        while state.end is None:
            seat = state.current_seat
            policy = choose_action if seat % 2 == 0 else other_bot
            action = policy(view_for(state, seat))
            assert state.is_legal(action)
            state.apply(action)
