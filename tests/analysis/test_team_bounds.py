"""The upper bounds of games/analysis/team_bounds.py that prove a perfect game impossible
(bounds 5 and 6 of games/analysis/README.md), each checked against an exhaustive search through
the engine on small endgames: whenever the best score plays every needed card, neither may say
it cannot.
"""

from __future__ import annotations

import random
import time

import pytest

from games.analysis import team, team_bounds, team_model
from games.engine import GameOptions, new_game
from games.engine.shuffle import new_deck
from tests.analysis.exhaustive import TooBig, endgame, exhaustive


def _bounds_and_state(state) -> tuple[team_bounds.Bounds, tuple]:
    deal = team_model.Deal(state.options, state.deck)
    return team_bounds.Bounds(deal), team_model.from_engine(deal, state)


def _all_needed(st: tuple) -> int:
    return sum(st[team_model.DEAD]) - len(st[team_model.DEAD])


def _fifth_and_sixth(bounds: team_bounds.Bounds, st: tuple) -> tuple[bool, bool]:
    nxt, fw, dead = st[team_model.NXT], st[team_model.FW], st[team_model.DEAD]
    left = bounds.deal.n - nxt
    tmax = left + bounds.deal.players
    held = bounds.held_of(st[team_model.HANDS])
    fifth = bounds.all_needed_impossible(nxt, fw, dead, held, tmax)
    return fifth, bounds.last_turns_impossible(st)


@pytest.mark.slow
def test_bounds_5_and_6_never_rule_out_a_perfect_endgame():
    rng = random.Random(18)
    checked = perfect = ruled_out = 0
    started = time.perf_counter()
    while checked < 150 and time.perf_counter() - started < 60:
        options = GameOptions(rng.choice([2, 2, 3, 3, 4, 5]))
        state = endgame(
            options, rng.randrange(10**6), rng, rng.randint(1, 6), rng.choice([0.3, 0.5, 0.7])
        )
        if state.is_over:
            continue
        bounds, st = _bounds_and_state(state)
        fifth, sixth = _fifth_and_sixth(bounds, st)
        try:
            truth = exhaustive(state, {}, 3000)
        except TooBig:
            continue
        checked += 1
        assert truth <= bounds.upper(st)
        if truth == _all_needed(st):
            perfect += 1
            assert not fifth and not sixth, (options, state.fingerprint()[:6])
        else:
            ruled_out += fifth or sixth
    assert checked >= 100 and perfect >= 50 and ruled_out >= 10, (checked, perfect, ruled_out)


def test_the_last_turns_decide_decks_the_search_left_open():
    """Decks of the benchmark that a 10 s search left at 24..25: bound 5 (a squeeze) or 6
    (the last round's turns) shows at once that 25 is out of reach."""
    for players, seed in [(2, 258), (2, 428), (3, 258)]:
        options = GameOptions(players)
        bounds, st = _bounds_and_state(new_game(options, deck=new_deck(options, seed)))
        fifth, sixth = _fifth_and_sixth(bounds, st)
        assert sixth and bounds.upper(st) <= 25
        assert team.analyse_deal(options, new_deck(options, seed), time_limit=5).exact
