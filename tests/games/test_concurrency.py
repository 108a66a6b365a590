"""Exactly one move is accepted per turn, whatever the concurrency (on PostgreSQL, whose row
locks are what services rely on; SQLite serialises every write anyway)."""

import threading

import pytest
from django.db import connection

from games.engine import action_to_dict
from games.errors import GameError
from games.models import Move
from games.services import play
from tests.games.conftest import current_user, start_game


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_many_threads_submitting_the_same_turn_make_exactly_one_move(alice, bob):
    game = start_game(alice, bob)
    mover = current_user(game)
    state = game.load_state()
    # Different legal actions, all for turn 0: only one may win.
    actions = [action_to_dict(action) for action in state.legal_actions()][:12]
    barrier = threading.Barrier(len(actions))
    outcomes: list[str] = []

    def submit(action: dict) -> None:
        try:
            barrier.wait()
            play.submit_action(game.pk, mover, action, expected_turn=0)
            outcomes.append("moved")
        except GameError as error:
            outcomes.append(type(error).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert outcomes.count("moved") == 1, outcomes
    assert set(outcomes) - {"moved"} <= {"StaleMove"}
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.turn == 1
