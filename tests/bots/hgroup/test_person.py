"""The scripted H-Group person (games/bots/hgroup/person.py): always legal, the same
decisions for the same seed, each kind of mistake at about its rate, and it never sees its
own cards (the swap test, as for the H-Group bot)."""

import math
import random

import pytest

from games.bots.hgroup import LEVELS, decide
from games.bots.hgroup.notes import Notes
from games.bots.hgroup.person import (
    FOCUS,
    LATE_SAVE,
    MISSED_PLAY_CLUE,
    NO_MISTAKES,
    RATES,
    Person,
    Rates,
    draw,
)
from games.engine import GameOptions, new_game, view_for
from tests.bots.helpers import ALL_OPTIONS, swapped_twin

# Rates high enough that every kind of mistake happens in a few games.
OFTEN = Rates(focus=0.5, late_save=0.5, missed_play_clue=0.5)


def play_game(options, seed: int, people, turns: int = 10_000):
    """A game with ``people[s % len(people)]`` at seat s; the engine raises on an illegal
    action. Returns the state and every decision made."""
    state = new_game(options, seed=seed)
    decisions = []
    while not state.is_over and state.turn < turns:
        view = view_for(state, state.current_seat)
        decision = people[state.current_seat % len(people)].decide(view)
        decisions.append((state.current_seat, decision))
        state.apply(decision.action)
    return state, decisions


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_whole_games_are_legal_over_every_option(level):
    # Half the mix each (levels 1 and 2 between them: every option), to keep it short.
    for index, options in enumerate(ALL_OPTIONS[level % 2 :: 2]):
        state, _ = play_game(options, 2000 + index, [Person(level, seed=index, rates=OFTEN)])
        assert state.is_over


@pytest.mark.parametrize("level", LEVELS)
def test_without_mistakes_it_plays_as_the_bot_does(level):
    person = Person(level, seed=3, rates=NO_MISTAKES)
    compared = 0
    for seed in range(3):
        state = new_game(GameOptions(players=3), seed=40 + seed)
        while not state.is_over:
            view = view_for(state, state.current_seat)
            made = person.decide(view)
            assert made.action == decide(view, level).action
            assert made.mistakes == ()
            state.apply(made.action)
            compared += 1
    assert compared > 100


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    def actions(seed):
        _, decisions = play_game(GameOptions(players=3), 77, [Person(1, seed=seed, rates=OFTEN)])
        return [(seat, d.action, d.mistakes) for seat, d in decisions]

    first = actions(5)
    assert actions(5) == first
    assert actions(6) != first
    assert any(mistakes for _, _, mistakes in first)


def test_a_draw_is_fixed_by_its_arguments():
    assert draw(1, LATE_SAVE, 2, 30) == draw(1, LATE_SAVE, 2, 30)
    values = {draw(1, LATE_SAVE, 2, i) for i in range(200)}
    assert len(values) == 200 and all(0 <= v < 1 for v in values)
    # About uniform: a fifth of them under 0.2.
    assert 25 <= sum(v < 0.2 for v in values) <= 55


def within(made: int, chances: int, rate: float) -> bool:
    """``made`` of ``chances`` is within 3.5 standard errors of ``rate`` (the draws are
    fixed, so this either always holds or never)."""
    error = math.sqrt(rate * (1 - rate) / chances)
    return abs(made / chances - rate) <= 3.5 * error


@pytest.mark.slow
def test_each_kind_of_mistake_comes_at_about_its_rate():
    chances = dict.fromkeys((LATE_SAVE, MISSED_PLAY_CLUE), 0)
    made = dict.fromkeys((LATE_SAVE, MISSED_PLAY_CLUE), 0)
    readings = {}
    for game in range(40):
        people = [Person(1, seed=1000 + game)]
        _, decisions = play_game(GameOptions(players=3), 500 + game, people)
        for seat, decision in decisions:
            if decision.chance is not None:
                chances[decision.chance] += 1
            for kind in decision.mistakes:
                assert kind == decision.chance
                made[kind] += 1
            for index, wrong in decision.focus_readings:
                # The same clue is read the same way on every later turn.
                assert readings.setdefault((game, seat, index), wrong) == wrong
    assert chances[LATE_SAVE] >= 150 and chances[MISSED_PLAY_CLUE] >= 300
    assert len(readings) >= 100
    assert within(made[LATE_SAVE], chances[LATE_SAVE], RATES.late_save)
    assert within(made[MISSED_PLAY_CLUE], chances[MISSED_PLAY_CLUE], RATES.missed_play_clue)
    assert within(sum(readings.values()), len(readings), RATES.focus)


def test_a_mistake_makes_another_move_than_the_conventions():
    _, decisions = play_game(GameOptions(players=3), 11, [Person(1, seed=2, rates=OFTEN)])
    kinds = set()
    for _, decision in decisions:
        if decision.mistakes:
            kinds.update(decision.mistakes)
            assert decision.action != decision.convention
            assert "a person's mistake" in decision.reason
        else:
            assert decision.action == decision.convention
    assert kinds == {LATE_SAVE, MISSED_PLAY_CLUE}


def test_a_wrong_focus_reads_another_new_card_as_the_focus():
    """Where the person misread a clue, the bot's reading of the same view puts the focus
    on the card the H-Group rules say, and the person's on another card that clue touched."""
    checked = 0
    for seed in range(6):
        state = new_game(GameOptions(players=3), seed=900 + seed)
        person = Person(1, seed=seed, rates=Rates(focus=1.0, late_save=0, missed_play_clue=0))
        while not state.is_over and checked < 5:
            view = view_for(state, state.current_seat)
            decision = person.decide(view)
            for index, wrong in decision.focus_readings:
                assert wrong  # at rate 1 every chance is taken
                ours = person.turn_class(view).notes.readings[index]
                right = Notes(view).readings[index]
                entry = view["history"][index]
                assert ours.focus != right.focus
                assert ours.focus in entry["touched"] and right.focus in entry["touched"]
                checked += 1
            state.apply(decision.action)
    assert checked >= 5


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("batch", range(2))
def test_swapping_its_own_cards_changes_nothing_it_decides(level, batch):
    """Its own cards exchanged for undealt cards that every clue treated alike: the same
    action, the same mistakes, the same readings of its clues."""
    rng = random.Random(300 + batch)
    compared = 0
    while compared < 15:
        options = ALL_OPTIONS[rng.randrange(len(ALL_OPTIONS))]
        people = [Person(level, seed=rng.randrange(1000), rates=OFTEN)]
        state, _ = play_game(options, rng.randrange(2**32), people, rng.randrange(5, 60))
        if state.is_over:
            continue
        seat = state.current_seat
        other = swapped_twin(state, rng)
        if other is None:
            continue
        person = people[0]
        assert person.decide(view_for(other, seat)) == person.decide(view_for(state, seat))
        compared += 1


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError):
        Person(level=9)


def test_a_focus_misread_is_drawn_per_clue_not_per_turn():
    """The same clue's draw does not depend on when the person looks at it."""
    assert draw(4, FOCUS, 1, 12) == draw(4, FOCUS, 1, 12)
    assert {draw(4, FOCUS, 1, i) < 0.5 for i in range(20)} == {True, False}
