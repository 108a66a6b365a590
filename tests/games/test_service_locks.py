"""Every change to a game waits for the game's row lock (DESIGN.md), the small ones too: a
note or a mute written while a move holds the game is applied after it, and sees the game
as the move left it (ended, say). Both orders are forced: the test holds the lock itself and
watches PostgreSQL report the service's backend waiting on it."""

import threading
import time

import pytest
from django.db import connection, connections, transaction

from games.models import Game, Seat
from games.services import notes, play
from tests.games.conftest import current_user, start_game


def _waiting_on_a_lock(seconds: float = 5.0) -> bool:
    """Whether another backend of this database waits on a row lock, within `seconds`."""
    deadline = time.monotonic() + seconds
    with connections["default"].cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.02)
    return False


def _runs_after_the_games_lock(game_id: int, change) -> None:
    """Hold the game's lock in another thread; `change` (run in a third) must wait on it."""
    locked, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                Game.objects.locked(game_id)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    def run() -> None:
        try:
            change()
        except BaseException as error:  # noqa: BLE001 (reported by the test)
            errors.append(error)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert locked.wait(5)
    changer = threading.Thread(target=run)
    changer.start()
    try:
        assert _waiting_on_a_lock(), "the change did not wait for the game's lock"
        assert changer.is_alive()
    finally:
        release.set()
        holder.join(10)
        changer.join(10)
    assert not errors, errors


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_note_waits_for_the_games_lock(alice, bob):
    game = start_game(alice, bob)
    player = current_user(game)
    _runs_after_the_games_lock(game.pk, lambda: notes.write_note(game.pk, player, 0, "r5"))
    assert Seat.objects.get(game=game, user=player).notes == {"0": "r5"}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_mute_waits_for_the_games_lock(alice, bob):
    game = start_game(alice, bob)
    _runs_after_the_games_lock(game.pk, lambda: play.set_muted(game.pk, alice, True))
    assert Seat.objects.get(game=game, user=alice).muted
