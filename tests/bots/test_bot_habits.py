"""What the bot does only at a table of bots only of two players, beyond the endgame search
(games/bots/policy.py, BOT_HABITS_UP_TO; games/bots/search.py, DISCARD_RISK): a clue that
leaves a card to save on the next player's new chop costs more, a last copy is not
discarded while a likely play is left, and a risky discard is simulated against the best
clue. Beside a person none of it happens."""

import random

import pytest

from games.bots import choose_action, policy, search
from games.bots.knowledge import Table
from games.engine import Clue, Discard, GameOptions, Play, new_game, view_for
from tests.bots.helpers import swapped_twin

TWO = GameOptions(players=2)
SEATS = [0, 1]


def conventions_games(games: int):
    """The state before every move of 2-player games played by the conventions alone (no
    search), every seat known to be the bot."""
    for seed in range(games):
        state = new_game(TWO, seed=seed)
        while not state.is_over:
            view = view_for(state, state.current_seat)
            yield state, view
            state.apply(policy.Policy(Table(view, SEATS)).choose())


def conventions_positions(games: int):
    for _, view in conventions_games(games):
        yield view


def choice(view, seats, monkeypatch, habits: bool):
    monkeypatch.setattr(policy, "BOT_HABITS_UP_TO", 2 if habits else 0)
    return policy.Policy(Table(view, seats)).choose()


def test_the_habits_change_nothing_beside_a_person(monkeypatch):
    for view in conventions_positions(15):
        me = view["current_seat"]
        for seats in ([me], []):  # the other seat a person, or nothing known
            assert choice(view, seats, monkeypatch, True) == choice(view, seats, monkeypatch, False)


@pytest.mark.slow  # a last resort is rare: the first comes in the 39th game
def test_at_a_table_of_bots_the_habits_change_which_clue_and_when_to_play_a_last_resort(
    monkeypatch,
):
    clues = last_resorts = 0
    for view in conventions_positions(60):
        with_habits = choice(view, SEATS, monkeypatch, True)
        without = choice(view, SEATS, monkeypatch, False)
        if with_habits == without:
            continue
        table_policy = policy.Policy(Table(view, SEATS))
        if isinstance(with_habits, Play):
            # No token, and the discard the conventions chose was surely a last copy.
            assert view["clue_tokens"] == 0 and isinstance(without, Discard)
            me = table_policy.me
            lost = table_policy.belief(without.card_id, me)
            assert table_policy.chance(lost, table_policy.board.critical) == 1
            played = table_policy.belief(with_habits.card_id, me)
            assert not table_policy.knows_playable(played)
            chance = table_policy.chance(played, table_policy.unclaimed_playable())
            assert chance >= policy.LAST_RESORT_PLAY
            last_resorts += 1
        else:
            # A clue that would have exposed a card to save on the next chop is not chosen.
            assert isinstance(without, Clue)
            clues += 1
    assert clues > 0 and last_resorts > 0


def test_a_discard_that_may_be_a_last_copy_is_searched_against_the_best_clue(monkeypatch):
    searched = []

    def spy(table_policy, blueprint, seats, chosen=None, alternatives=None):
        searched.append((chosen, alternatives))
        return chosen

    monkeypatch.setattr(policy, "searched_action", spy)
    risky = 0
    for view in conventions_positions(3):
        if view["deck_size"] <= search.SEARCH_DECK:
            continue
        table_policy = policy.Policy(Table(view, SEATS))
        chosen = table_policy.choose()
        me = table_policy.me
        alternatives = search.discard_alternatives(table_policy, chosen)
        critical = table_policy.board.critical
        is_risky = (
            isinstance(chosen, Discard)
            and view["clue_tokens"] > 0
            and table_policy.chance(table_policy.belief(chosen.card_id, me), critical)
            >= search.DISCARD_RISK
        )
        assert (alternatives is not None) == is_risky
        if is_risky:
            risky += 1
            assert len(alternatives) == 1 and isinstance(alternatives[0], Clue)
            searched.clear()
            choose_action(view, SEATS)
            assert searched == [(chosen, alternatives)]
        # Beside a person, never.
        alone = policy.Policy(Table(view, [me]))
        assert search.discard_alternatives(alone, alone.choose()) is None
        searched.clear()
        choose_action(view, [me])
        assert searched == []
    assert risky > 0


@pytest.mark.slow
def test_swapping_the_movers_own_cards_does_not_change_a_searched_discard():
    rng = random.Random(3)
    compared = 0
    for state, view in conventions_games(6):
        if view["deck_size"] <= search.SEARCH_DECK:
            continue
        table_policy = policy.Policy(Table(view, SEATS))
        if search.discard_alternatives(table_policy, table_policy.choose()) is None:
            continue
        other = swapped_twin(state, rng)
        if other is None:
            continue
        seat = state.current_seat
        assert choose_action(view_for(other, seat), SEATS) == choose_action(view, SEATS)
        compared += 1
        if compared == 4:
            break
    assert compared == 4
