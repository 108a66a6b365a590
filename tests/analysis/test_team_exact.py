"""The second method for a seeing team's best score (games/analysis/team_exact.py, asked by
team.settle): its answers against the search's where the search settles, its lines replayed
by the engine, and a deck the search leaves open settled with a proof."""

from __future__ import annotations

import random

import pytest

from games.analysis import team_exact
from games.analysis.team import _played_out, analyse_deal, best_score, settle
from games.analysis.team_model import Deal, from_engine
from games.engine import GameOptions, new_game, replay
from games.engine.actions import Play
from games.engine.shuffle import new_deck

OPTIONS = [
    GameOptions(2),
    GameOptions(3),
    GameOptions(4),
    GameOptions(5),
    GameOptions(6),
    GameOptions(2, multicolour=1),
    GameOptions(3, multicolour=2),
    GameOptions(4, fuses=1),
    GameOptions(2, empty_clues=True),
]


def endgame(options: GameOptions, seed: int, left: int):
    """A random game of ``options`` played until ``left`` cards are left to draw (plays only
    of cards that fit, most of the time; a discard or a clue otherwise), or None if it ended."""
    rng = random.Random(seed)
    state = new_game(options, deck=new_deck(options, seed))
    while not state.is_over and state.deck_size > left:
        actions = state.legal_actions()
        fits = [
            a
            for a in actions
            if isinstance(a, Play)
            and state.fireworks[state.card(a.card_id).suit] == state.card(a.card_id).rank - 1
        ]
        others = [a for a in actions if not isinstance(a, Play)]
        state.apply(fits[0] if fits and rng.random() < 0.8 else rng.choice(others))
    return None if state.is_over else state


def the_formula_agrees(state) -> int:
    """The formula reaches the search's exact best with a line the engine replays, and proves
    best + 1 out of reach; returns the best."""
    searched = best_score(state, time_limit=10)
    assert searched.exact
    best = searched.lower
    deal = Deal(state.options, state.deck)
    st = from_engine(deal, state)
    yes = team_exact.reaches(deal, st, best, time_limit=60)
    assert yes.verdict == team_exact.YES
    _, game = _played_out(state, yes.moves)
    assert game.is_over and game.score == best
    if best < state.options.max_score:
        assert team_exact.reaches(deal, st, best + 1, time_limit=60).verdict == team_exact.NO
    return best


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_the_formula_and_the_search_agree_on_endgames(options):
    """Ten positions per table and variant, ten cards left to draw: the same best score,
    by different methods (with lost points among them: not every answer is the maximum)."""
    bests = []
    for seed in range(30):
        state = endgame(options, seed, left=10)
        if state is not None:
            bests.append(the_formula_agrees(state))
        if len(bests) == 10:
            break
    assert len(bests) == 10
    assert min(bests) < options.max_score


def test_the_formula_and_the_search_agree_in_the_last_round():
    """Once the last card is drawn (the last round's end is known), fewer turns are left."""
    checked = 0
    for seed in range(30):
        state = endgame(GameOptions(3), seed, left=0)
        if state is not None and state.end_turn is not None:
            the_formula_agrees(state)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("players", [2, 4])
def test_the_formula_wins_whole_decks_the_search_wins(players):
    options = GameOptions(players)
    state = new_game(options, deck=new_deck(options, 1))
    deal = Deal(options, state.deck)
    answer = team_exact.reaches(deal, from_engine(deal, state), 25, time_limit=120)
    assert answer.verdict == team_exact.YES
    _, game = _played_out(state, answer.moves)
    assert game.score == 25


@pytest.mark.slow
def test_a_deck_the_search_leaves_open_is_settled_with_a_proof():
    """2-player seed 396: the search stays at "24, at most 25" after a second (it needs
    about 80 s); the formula proves 25 out of reach, and the line reaching 24 replays."""
    options = GameOptions(2)
    deck = new_deck(options, 396)
    state = new_game(options, deck=deck)
    searched = best_score(state, time_limit=1)
    assert (searched.lower, searched.upper, searched.exact) == (24, 25, False)
    settled = settle(state, searched, time_limit=300)
    assert (settled.lower, settled.upper, settled.exact, settled.settled_by) == (
        24,
        24,
        True,
        "sat",
    )
    deal = Deal(options, state.deck)
    proof = team_exact.reaches(deal, from_engine(deal, state), 25, time_limit=300)
    assert proof.verdict == team_exact.NO
    replayed = replay(options, deck, settled.actions)
    assert replayed.is_over and replayed.score == 24


def test_a_settled_answer_is_left_alone():
    options = GameOptions(3)
    result = analyse_deal(options, new_deck(options, 2), time_limit=5, sat_time_limit=60)
    assert result.exact and result.settled_by == "search" and result.sat_seconds == 0


def test_play_until_perfect_is_left_to_the_search():
    """It has no last round, which the formula needs: settle leaves its bounds."""
    options = GameOptions(2, until_perfect=True)
    state = new_game(options, deck=new_deck(options, 0))
    deal = Deal(options, state.deck)
    assert not team_exact.applies(deal, from_engine(deal, state))
    searched = best_score(state, node_limit=10)
    assert settle(state, searched, time_limit=10) == searched
