"""The analysis worker leaves every deal's best score exact: when the search stops at
"at least X, at most Y", the second method (team.settle) closes the bounds in the same row
and the stored analysis says the exact best (games/hindsight.py)."""

import pytest

from games.analysis.deal import analyse
from games.engine import GameOptions, new_deck, replay
from games.hindsight import page_context
from games.models import DealAnalysis
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import play_to_the_end, start_game
from tests.games.helpers import analysed, analysis_row

OPEN_DECK = 396  # 2 players: the search needs about 80 s, the formula a few


def the_open_deck_played(alice, bob):
    deck = new_deck(GameOptions(2), OPEN_DECK)
    return play_to_the_end(start_game(alice, bob, deck=[list(card) for card in deck]))


@pytest.mark.slow
def test_bounds_the_search_leaves_are_settled_by_the_worker(alice, bob, settings):
    settings.ANALYSIS_TIME_LIMIT_SECONDS = 4  # the search stays at 24..25; the formula: 20 s
    game = analysed(the_open_deck_played(alice, bob))
    team = DealAnalysis.objects.get(game=game).result["team"]
    assert (team["lower"], team["upper"], team["exact"], team["settled_by"]) == (
        24,
        24,
        True,
        "sat",
    )
    assert 0 < team["sat_seconds"] <= team["seconds"]
    line = replay(game.game_options, game.deck_source, team["actions"])
    assert line.is_over and line.score == 24
    assert page_context(game, game.seat_names())["analysis"]["team"]["exact"]


@pytest.mark.slow
def test_stored_bounds_are_settled_when_the_row_runs_again(alice, bob, settings):
    """A worker that stored the bounds and died in the second method: the row's retry
    settles them, and a row that runs once more changes nothing."""
    settings.ANALYSIS_TIME_LIMIT_SECONDS = 4
    game = the_open_deck_played(alice, bob)
    options = game.game_options
    bounds = analyse(options, list(replay(options, game.deck_source, []).deck), time_limit=0.2)
    assert not bounds["team"]["exact"]
    DealAnalysis.objects.create(game=game, result=bounds)
    assert not page_context(game, game.seat_names())["analysis"]["team"]["exact"]

    analysed(game)
    settled = DealAnalysis.objects.get(game=game).result
    assert settled["team"]["exact"] and settled["team"]["lower"] == 24
    assert settled["solitaire"] == bounds["solitaire"]

    row = analysis_row(game)
    Outbox.objects.filter(pk=row.pk).update(done_at=None, claimed_at=None)
    assert delivery.run(row.pk)
    assert DealAnalysis.objects.get(game=game).result == settled
