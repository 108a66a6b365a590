"""A player's move and the deadline's timeout for the same turn, at the same moment: exactly
one lands (on PostgreSQL, whose row locks are what services rely on; SQLite serialises every
write anyway)."""

import threading
from collections import Counter

import pytest
from django.db import connection

from games.errors import GameError, StaleMove
from games.models import Game, MadeBy, Move, Seat
from games.services import clock, play
from tests.deadlines.conftest import harmless_action, make_overdue, outbox_rows, timed_game
from tests.games.conftest import current_user, make_user

ROUNDS = 20


def race(game: Game) -> dict[str, object]:
    """Start the current player's move and the timeout of turn 0 together; return what each
    thread got back."""
    mover = current_user(game)
    action = harmless_action(game)
    barrier = threading.Barrier(2)
    results: dict[str, object] = {}

    def move() -> None:
        try:
            barrier.wait()
            results["move"] = play.submit_action(game.pk, mover, action, expected_turn=0)
        except GameError as error:
            results["move"] = error
        finally:
            connection.close()

    def time_out() -> None:
        try:
            barrier.wait()
            results["timeout"] = clock.time_out(game.pk, 0)
        except Exception as error:  # anything at all: the assertions report it
            results["timeout"] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=move), threading.Thread(target=time_out)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_racing_the_timeout_of_the_same_turn_lands_exactly_once():
    players = [make_user(name) for name in ("ann", "ben")]
    winners: Counter[str] = Counter()
    for round_number in range(ROUNDS):
        game = timed_game(*players, seed=round_number + 1)
        absent_seat = Seat.objects.get(game=game, position=game.current_seat)
        make_overdue(game)

        results = race(game)

        moves = list(Move.objects.filter(game=game))
        assert len(moves) == 1, (round_number, results)
        move = moves[0]
        assert move.turn == 0
        game.refresh_from_db()
        assert game.turn == 1
        absent_seat.refresh_from_db()
        if move.made_by == MadeBy.PLAYER:
            # The player won: the timeout found the turn over and did nothing.
            assert results["timeout"] is False, results
            assert isinstance(results["move"], Move) and results["move"].pk == move.pk
            assert absent_seat.timeouts_in_a_row == 0
        else:
            # The timeout won: the player's move was refused as stale, and changed nothing.
            assert move.made_by == MadeBy.TIMEOUT
            assert isinstance(results["move"], StaleMove), results
            assert results["timeout"] is True
            assert absent_seat.timeouts_in_a_row == 1
        # The next turn was announced once, by the winner only.
        assert outbox_rows(game, "your_turn", turn=1).count() == 1
        winners[move.made_by] += 1
    assert sum(winners.values()) == ROUNDS
    print(f"winners over {ROUNDS} rounds: {dict(winners)}")
