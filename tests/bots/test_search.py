"""The endgame search of a table of bots only (games/bots/search.py).

A search costs about half a second and each position of `endgame_positions` about a second
more (its last turns are searched): the tests check properties on a few positions each,
and those that stay longer than 4 s are marked slow. Whether the search scores more than
the conventions alone is measured, not tested: bench/bots.py --only search."""

import json
import random

import pytest

from games.bots import choose_action, policy, search
from games.bots.knowledge import Table
from games.bots.search import SEARCH_DECK, SEARCH_UP_TO
from games.engine import GameOptions, action_to_dict, new_game, view_for
from tests.bots.helpers import ALL_OPTIONS, swapped_twin

# The options the search plays: every option of the tables it searches.
SEARCHED_OPTIONS = [options for options in ALL_OPTIONS if options.players <= SEARCH_UP_TO]
# The cards left in the deck when the bot with its searches takes over a whole game from the
# conventions alone (a risky discard is searched from the start; the endgame from 4 cards).
LAST_CARDS = 12


def every_seat(state) -> list[int]:
    return list(range(state.players))


def endgame_positions(count: int, seed: int):
    """(state, rng): games of bots only (every seat known to be the bot) over every option
    searched, played by the conventions alone until the endgame search starts (the deck down
    to SEARCH_DECK cards), then by the bot, for a few turns more."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        options = SEARCHED_OPTIONS[made % len(SEARCHED_OPTIONS)]
        state = new_game(options, seed=rng.randrange(2**32))
        extra = rng.randrange(0, 4)
        while not state.is_over and (state.deck_size > SEARCH_DECK or extra):
            view = view_for(state, state.current_seat)
            if state.deck_size <= SEARCH_DECK:
                extra -= 1
                state.apply(choose_action(view, every_seat(state)))
            else:
                state.apply(policy.Policy(Table(view, every_seat(state))).choose())
        if state.is_over:
            continue
        made += 1
        yield state, rng


def test_a_table_replayed_from_an_earlier_one_is_the_table_replayed_from_the_start():
    """The search builds each simulated turn's table from the previous one (``start``): the
    result must be exactly what replaying the whole history gives."""
    compared = 0
    for options in ALL_OPTIONS[::3]:
        state = new_game(options, seed=compared + 11)
        seats = every_seat(state)
        earlier = None
        while not state.is_over:
            view = view_for(state, state.current_seat)
            fresh = Table(view, seats)
            if earlier is not None:
                taken = Table(view, seats, start=earlier)
                assert taken.hands == fresh.hands
                assert taken.reads == fresh.reads and taken.gives == fresh.gives
                assert taken.board.fireworks == fresh.board.fireworks
                assert taken.board.lost == fresh.board.lost
                assert taken.board.played_clued == fresh.board.played_clued
                assert (taken.board.playable, taken.board.trash) == (
                    fresh.board.playable,
                    fresh.board.trash,
                )
                for cid, info in fresh.info.items():
                    other = taken.info[cid]
                    assert [getattr(other, name) for name in info.__slots__] == [
                        getattr(info, name) for name in info.__slots__
                    ], cid
                compared += 1
            earlier = fresh
            state.apply(policy.Policy(fresh).choose())
    assert compared > 300


@pytest.mark.slow
def test_the_table_a_search_starts_from_is_left_as_it_was():
    for state, _ in endgame_positions(2, seed=3):
        view = view_for(state, state.current_seat)
        start = Table(view, every_seat(state))
        fingerprint = {cid: (info.mask, info.inferred) for cid, info in start.info.items()}
        hands = [hand[:] for hand in start.hands]
        policy.searched_action(policy.Policy(start), policy._conventions_only, every_seat(state))
        assert {cid: (i.mask, i.inferred) for cid, i in start.info.items()} == fingerprint
        assert start.hands == hands


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(2))
def test_swapping_the_movers_own_cards_does_not_change_the_searched_action(batch):
    compared = 0
    for state, rng in endgame_positions(4, seed=batch):
        seat = state.current_seat
        other = swapped_twin(state, rng)
        if other is None:
            continue
        seats = every_seat(state)
        assert choose_action(view_for(other, seat), seats) == choose_action(
            view_for(state, seat), seats
        )
        compared += 1
    assert compared >= 3


def test_the_searched_action_is_the_same_from_the_json_of_the_view():
    for state, _ in endgame_positions(2, seed=5):
        view = view_for(state, state.current_seat)
        again = json.loads(json.dumps(view))
        seats = every_seat(state)
        assert action_to_dict(choose_action(again, seats)) == action_to_dict(
            choose_action(view, seats)
        )


def test_the_search_runs_only_at_a_table_of_bots_only_of_two_players(monkeypatch):
    searched = []

    def spy(table_policy, blueprint, seats, chosen=None, alternatives=None):
        searched.append(tuple(seats))
        return table_policy.choose()

    positions = list(endgame_positions(2, seed=9))
    monkeypatch.setattr(policy, "searched_action", spy)
    for state, _ in positions:
        view = view_for(state, state.current_seat)
        choose_action(view)  # from the history alone
        choose_action(view, every_seat(state)[1:])  # seat 0 is a person
        assert searched == []
        choose_action(view, every_seat(state))
        assert searched == [tuple(every_seat(state))]
        searched.clear()
    bigger = new_game(GameOptions(players=SEARCH_UP_TO + 1), seed=1)
    while bigger.deck_size > SEARCH_DECK:
        bigger.apply(choose_action(view_for(bigger, bigger.current_seat)))
    choose_action(view_for(bigger, bigger.current_seat), every_seat(bigger))
    assert searched == []


def near_the_end(options: GameOptions, seed: int):
    """A game of bots only played by the conventions alone until LAST_CARDS cards are left
    in the deck: the first from `seed` on that lasts that long (a game until perfect ends
    as soon as a card it needs is lost)."""
    while True:
        state = new_game(options, seed=seed)
        seats = every_seat(state)
        while not state.is_over and state.deck_size > LAST_CARDS:
            view = view_for(state, state.current_seat)
            state.apply(policy.Policy(Table(view, seats)).choose())
        if not state.is_over:
            return state
        seed += 1000


@pytest.mark.slow
def test_tables_of_bots_only_finish_every_option_legally():
    """The engine refuses an illegal action: over every option, the bot with its searches
    (a risky discard's, then the endgame's) plays the last LAST_CARDS cards of the deck and
    the final round. Before that the conventions alone play: the same choices but for the
    searches, which cost most where the deck is long (whole games took 7 s each)."""
    for index, options in enumerate(SEARCHED_OPTIONS):
        state = near_the_end(options, seed=100 + index)
        seats = every_seat(state)
        searched = 0
        while not state.is_over:
            view = view_for(state, state.current_seat)
            table_policy = policy.Policy(Table(view, seats))
            searched += search.searches(table_policy.table) or bool(
                search.discard_alternatives(table_policy, table_policy.choose())
            )
            state.apply(choose_action(view, seats))
        assert state.end is not None
        assert searched, options  # the searches were played, not only the conventions


def test_the_deals_searched_agree_with_what_the_teammate_did():
    """A deal in which the teammate's recent moves are not what the conventions choose for
    them (they would have saved that card, or clued another) is not searched."""
    rejected = 0
    for state, _ in endgame_positions(3, seed=13):
        view = view_for(state, state.current_seat)
        seats = every_seat(state)
        table_policy = policy.Policy(Table(view, seats))
        checks = search._teammates_last_moves(table_policy)
        assert checks and all(view["history"][i]["seat"] != state.current_seat for i in checks)
        deals = search._deals(table_policy, random.Random(1), policy._conventions_only, seats)
        assert len(deals) == search.DEALS
        for deal in deals:
            for index in checks:
                then = new_game(state.options, deck=deal.deck)
                for action in deal.actions[:index]:
                    then.apply(action)
                table_then = Table(view_for(then, then.current_seat), seats)
                assert policy.Policy(table_then).choose() == deal.actions[index], index
        # The same number of draws, unfiltered, would not all have agreed.
        rng = random.Random(1)
        for _ in range(search.DEALS):
            _, replay_to = search._deal(table_policy, rng)
            if not all(
                search._agrees(replay_to, i, view, policy._conventions_only, seats) for i in checks
            ):
                rejected += 1
    assert rejected > 0
