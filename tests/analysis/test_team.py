"""The best score of a team that sees every card (games/analysis/team.py and its rooms,
team_model.py and team_search.py).

The search runs on a compact copy of the rules: first it is compared with the engine action
by action; then its answers are compared with an exhaustive search (exhaustive.py) that uses
only the engine (``copy``, ``legal_actions``, ``apply``) on many small endgames.
"""

from __future__ import annotations

import json
import random

import pytest

from games.analysis import team_model, team_search
from games.analysis.team import TeamResult, analyse_deal, best_score
from games.engine import Card, Clue, Discard, GameOptions, Play, new_game, replay
from games.engine.cards import deck_composition
from games.engine.shuffle import new_deck
from tests.analysis.exhaustive import TooBig, endgame, exhaustive

# -- the compact model against the engine ----------------------------------------------------


def _move(action) -> tuple[int, int]:
    if isinstance(action, Play):
        return (team_model.PLAY, action.card_id)
    if isinstance(action, Discard):
        return (team_model.DISCARD, action.card_id)
    return (team_model.CLUE, -1)


def _biased_action(state, rng: random.Random):
    """A random legal action, mostly not a misplay, so that games last."""
    legal = state.legal_actions()
    fireworks = state.fireworks
    safe = [
        a
        for a in legal
        if not isinstance(a, Play)
        or fireworks[state.card(a.card_id).suit] == state.card(a.card_id).rank - 1
    ]
    if safe and rng.random() < 0.95:
        return rng.choice(safe)
    return rng.choice(legal)


OPTION_SETS = [
    GameOptions(2),
    GameOptions(3, fuses=1),
    GameOptions(4, multicolour=1),
    GameOptions(5, multicolour=2, empty_clues=True),
    GameOptions(6, multicolour=3),
    GameOptions(2, until_perfect=True),
    GameOptions(3, multicolour=3, until_perfect=True, empty_clues=True, fuses=2),
    GameOptions(2, multicolour=1, empty_clues=True, fuses=1),
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: o.describe())
def test_compact_model_follows_the_engine(options):
    rng = random.Random(options.describe())
    actions_checked = 0
    for game_number in range(25):
        state = new_game(options, seed=1000 + game_number)
        deal = team_model.Deal(options, state.deck)
        compact = team_model.from_engine(deal, state)
        while not state.is_over:
            legal = {_move(a) for a in state.legal_actions()}
            assert set(team_model.legal(deal, compact)) == legal
            action = _biased_action(state, rng)
            state.apply(action)
            compact = team_model.step(deal, compact, *_move(action))
            assert compact == team_model.from_engine(deal, state)
            assert team_model.score(compact) == state.score
            actions_checked += 1
        assert team_model.legal(deal, compact) == []
    assert actions_checked > 300


def test_compact_model_any_clue_is_the_same_move():
    options = GameOptions(3)
    state = new_game(options, seed=5)
    deal = team_model.Deal(options, state.deck)
    compact = team_model.step(deal, team_model.from_engine(deal, state), team_model.CLUE, -1)
    clues = [a for a in state.legal_actions() if isinstance(a, Clue)]
    assert len(clues) > 5
    for clue in clues:
        after = state.copy()
        after.apply(clue)
        assert team_model.from_engine(deal, after) == compact


# -- against an exhaustive search that uses only the engine (tests/analysis/exhaustive.py) --


def _random_options(rng: random.Random) -> GameOptions:
    return GameOptions(
        players=rng.choice([2, 2, 3, 4]),
        multicolour=rng.choice([0, 0, 1, 2, 3]),
        until_perfect=rng.random() < 0.25,
        fuses=rng.randint(1, 3),
        empty_clues=rng.random() < 0.2,
    )


def _check_line(state, result: TeamResult) -> None:
    after = replay(state.options, list(state.deck), [*state.actions, *result.actions])
    assert after.is_over
    assert after.score == result.lower
    assert result.lower <= result.upper


@pytest.mark.slow
def test_exact_on_random_endgames_against_the_engine():
    rng = random.Random(2024)
    checked = hard = 0
    while checked < 90:
        options = _random_options(rng)
        state = endgame(
            options, rng.randrange(10**6), rng, rng.randint(0, 5), rng.choice([0.2, 0.35, 0.5])
        )
        if state.is_over:
            continue
        try:
            truth = exhaustive(state, {}, 4000)
        except TooBig:
            continue
        result = best_score(state, time_limit=20)
        assert result.exact, (options, state.fingerprint()[:10], truth, result)
        assert result.lower == result.upper == truth, (options, truth, result)
        _check_line(state, result)
        checked += 1
        hard += truth < state.max_reachable_score
    assert hard >= 15  # positions where the engine's own bound is not reached


def test_exact_on_final_rounds_and_until_perfect_endings():
    rng = random.Random(7)
    checked = 0
    while checked < 40:
        options = _random_options(rng)
        state = endgame(options, rng.randrange(10**6), rng, 0, rng.choice([0.3, 0.6]))
        if state.is_over:
            continue
        try:
            truth = exhaustive(state, {}, 4000)
        except TooBig:
            continue
        result = best_score(state, time_limit=20)
        assert result.exact and result.lower == truth, (options, truth, result)
        _check_line(state, result)
        checked += 1


# -- lines, bounds and limits ------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [GameOptions(2), GameOptions(3), GameOptions(4), GameOptions(5), GameOptions(6)],
    ids=lambda o: o.describe(),
)
def test_random_deals_are_solved_and_lines_replay(options):
    for seed in range(3):
        deck = new_deck(options, seed)
        result = analyse_deal(options, deck, time_limit=5)
        assert result.lower <= result.upper <= options.max_score
        after = replay(options, deck, result.actions)
        assert after.is_over and after.score == result.lower
    assert result.exact


def test_a_standard_deck_is_typically_solved_to_25():
    # How fast: bench/team_analysis.py (a test asserting seconds fails on a busy machine).
    options = GameOptions(3)
    wins = 0
    for seed in range(10):
        result = analyse_deal(options, new_deck(options, seed), time_limit=5)
        assert result.exact
        wins += result.lower == 25
    assert wins >= 9


def test_mid_game_state():
    options = GameOptions(3)
    rng = random.Random(3)
    state = endgame(options, 77, rng, 20, 0.9)
    assert not state.is_over
    result = best_score(state, time_limit=5)
    assert result.exact
    _check_line(state, result)
    assert result.lower >= state.score


def test_a_finished_game_needs_no_search():
    options = GameOptions(2)
    state = new_game(options, seed=1)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    result = best_score(state)
    assert result == TeamResult(result.lower, result.lower, True, [], 0, result.seconds, False)
    assert result.lower == state.score


def test_node_limit_gives_honest_bounds():
    options = GameOptions(2)
    for seed in (44, 99, 101):  # the greedy policy alone does not find 25 on these
        deck = new_deck(options, seed)
        full = analyse_deal(options, deck, time_limit=20)
        assert full.exact
        small = best_score(new_game(options, deck=deck), time_limit=20, node_limit=10)
        assert small.timed_out and not small.exact
        assert small.lower <= full.lower <= small.upper
        after = replay(options, deck, small.actions)
        assert after.score == small.lower


def test_to_dict_is_json():
    options = GameOptions(2)
    result = analyse_deal(options, new_deck(options, 3), time_limit=5)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["lower"] == result.lower and data["upper"] == result.upper
    assert data["exact"] is result.exact
    assert data["actions"] == result.actions
    assert set(data) == {"lower", "upper", "exact", "actions", "nodes", "seconds", "timed_out"}


# -- crafted decks ---------------------------------------------------------------------------


def _deck_with_bottom(options: GameOptions, bottom: list[Card], seed: int = 0) -> list[Card]:
    """A shuffled deck whose last cards are ``bottom``, in that order."""
    rest = list(deck_composition(options.multicolour))
    for card in bottom:
        rest.remove(card)
    random.Random(seed).shuffle(rest)
    return rest + bottom


def test_both_blue_2s_at_the_bottom_cost_a_point():
    # The first blue 2 is drawn by the second-to-last draw: 3, 4 and 5 would need three more
    # turns, and only two players' last turns remain.
    options = GameOptions(2)
    deck = _deck_with_bottom(options, [Card(3, 2), Card(3, 2)], seed=1)
    result = analyse_deal(options, deck, time_limit=10)
    assert result.exact
    assert result.upper <= 24


def test_all_three_red_1s_at_the_bottom():
    # Two players: the first red 1 is the third-to-last card, playable at best on the
    # second-to-last draw; red 2 on the last draw, then the last round has two turns for
    # red 3, 4 and 5.
    options = GameOptions(2)
    deck = _deck_with_bottom(options, [Card(0, 1)] * 3, seed=2)
    result = analyse_deal(options, deck, time_limit=10)
    assert result.exact
    assert result.upper <= 24
    # with three players the last round has one more turn, enough for the red 5
    options = GameOptions(3)
    result = analyse_deal(options, _deck_with_bottom(options, [Card(0, 1)] * 3), time_limit=10)
    assert result.lower == 25


def test_a_discarded_5_caps_the_score():
    options = GameOptions(2)
    seed = next(s for s in range(100) if any(c.rank == 5 for c in new_deck(options, s)[:5]))
    state = new_game(options, seed=seed)
    five = next(cid for cid in state.hands[0] if state.card(cid).rank == 5)
    state.apply(Clue(1, rank=state.card(state.hands[1][0]).rank))
    state.apply(Clue(0, rank=state.card(state.hands[0][0]).rank))
    state.apply(Discard(five))
    assert state.max_reachable_score == 24
    result = best_score(state, time_limit=10)
    assert result.exact and result.upper <= 24
    _check_line(state, result)


# -- variants ---------------------------------------------------------------------------------


def test_until_perfect_is_victory_or_defeat():
    options = GameOptions(2, until_perfect=True)
    for seed in range(4):
        deck = new_deck(options, seed)
        result = analyse_deal(options, deck, time_limit=10)
        assert result.exact
        assert result.lower in (0, 25)
        after = replay(options, deck, result.actions)
        assert after.is_over and after.score == result.lower


@pytest.mark.parametrize("multicolour", [1, 2, 3])
def test_six_suits(multicolour):
    options = GameOptions(3, multicolour=multicolour)
    for seed in range(2):
        deck = new_deck(options, seed)
        result = analyse_deal(options, deck, time_limit=10)
        assert result.upper <= 30
        assert result.exact
        after = replay(options, deck, result.actions)
        assert after.score == result.lower
    assert result.lower == 30


def test_fewer_fuses_and_empty_clues():
    for options in (GameOptions(2, fuses=1), GameOptions(3, empty_clues=True, fuses=2)):
        deck = new_deck(options, 9)
        result = analyse_deal(options, deck, time_limit=10)
        assert result.exact
        after = replay(options, deck, result.actions)
        assert after.score == result.lower


def test_a_player_whose_every_move_burns_the_last_fuse_still_has_a_move():
    # Until perfect, deck empty, 8 tokens, nobody else holds a card, nothing playable, one
    # fuse: the only legal moves are misplays (the search normally leaves misplays out).
    options = GameOptions(2, until_perfect=True, fuses=1)
    deck = new_deck(options, 0)
    deal = team_model.Deal(options, deck)
    unplayable = next(cid for cid, card in enumerate(deck) if card.rank == 3)
    compact = (40, ((unplayable,), ()), len(deck), (0,) * 5, (6,) * 5, 8, 1, None, None)
    assert team_model.legal(deal, compact) == [(team_model.PLAY, unplayable)]
    solver = team_search.Solver(deal, float("inf"), None)
    assert solver.ordered_moves(compact) == [(team_model.PLAY, unplayable)]
    assert solver.dfs(compact) == 0
