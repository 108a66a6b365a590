"""games/services/snapshots.py: the state after each committed move is kept in the cache and a
move then neither replays the game nor reads its moves; anything not exactly this game's
state at this turn is never used."""

import pickle

import pytest
from django.core.cache import cache

from games.engine import Clue, Discard, action_to_dict, view_for
from games.models import Game
from games.services import play, snapshots
from tests.games.conftest import current_user, start_game
from tests.games.query_count import MOVE_QUERIES, counted


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob, turn_time_limit=24)


def legal(game: Game, kind=None):
    state = game.load_state()
    return next(a for a in state.legal_actions() if kind is None or isinstance(a, kind))


def committed_move(game: Game, capture, kind=Clue):
    """A move whose transaction 'commits' (its on-commit callbacks run)."""
    game.refresh_from_db()
    action = action_to_dict(legal(game, kind))
    with capture(execute=True):
        play.submit_action(game.pk, current_user(game), action, game.turn)
    game.refresh_from_db()


def same_state(a, b) -> bool:
    return a.fingerprint() == b.fingerprint() and all(
        view_for(a, seat) == view_for(b, seat) for seat in range(a.options.players)
    )


def test_after_a_committed_move_the_next_one_reads_no_moves(
    game, django_capture_on_commit_callbacks
):
    committed_move(game, django_capture_on_commit_callbacks)
    user, action = current_user(game), action_to_dict(legal(game, Discard))
    _, queries = counted(lambda: play.submit_action(game.pk, user, action, game.turn))
    assert not any('FROM "games_move"' in sql for sql in queries.statements), str(queries)
    assert len(queries) <= MOVE_QUERIES - 1, str(queries)


def test_the_kept_state_is_the_replayed_one_after_every_move(
    game, django_capture_on_commit_callbacks
):
    for _ in range(30):
        committed_move(game, django_capture_on_commit_callbacks, kind=None)
        if not game.is_playing():
            break
        assert same_state(snapshots.state_of(game), game.load_state())
        assert cache.get(snapshots._key(game, game.turn)) is not None


def test_a_move_rolled_back_leaves_nothing_in_the_cache(game):
    user = current_user(game)
    play.submit_action(game.pk, user, action_to_dict(legal(game)), game.turn)
    # The test's transaction never commits: as a move whose transaction rolled back.
    assert cache.get(snapshots._key(game, 1)) is None


def test_a_game_with_the_same_id_but_another_deal_has_other_keys(game):
    """As when the database is made afresh and ids start again while the cache lives on."""
    key = snapshots._key(game, 3)
    for change in ({"seed": game.seed + 1}, {"deck": [[0, 1]] * 50}, {"started_at": None}):
        again = Game.objects.get(pk=game.pk)
        for name, value in change.items():
            setattr(again, name, value)
        assert snapshots._key(again, 3) != key, change
    assert snapshots._key(Game.objects.get(pk=game.pk), 3) == key


def test_a_state_for_the_wrong_turn_or_garbage_is_rebuilt(game, django_capture_on_commit_callbacks):
    committed_move(game, django_capture_on_commit_callbacks)
    key = snapshots._key(game, game.turn)
    cache.set(key, pickle.dumps(game.load_state(moves=[])))  # the state at turn 0
    assert same_state(snapshots.state_of(game), game.load_state())
    cache.set(key, b"not a pickle")
    assert same_state(snapshots.state_of(game), game.load_state())
