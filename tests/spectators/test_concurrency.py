"""Watching and being seated never both happen, whichever comes first, even at the same
moment: the spectator's record and a moderator's replacement are both made under the game's
row lock (on PostgreSQL, whose row locks the services rely on)."""

import threading
import time

import pytest
from django.db import connection, transaction

from games.errors import GameError, NotAllowed
from games.models import Game, Spectator, SpectatorPolicy
from games.spectators import admit
from moderation import services as moderation
from tests.conftest import make_moderator
from tests.games.conftest import start_game

HOLD = 0.5  # how long the first transaction stays open once the second has started


def race(first, second) -> list[str]:
    """Run `first` in a transaction kept open until `second`, in another thread, has started
    and had time to reach the lock; then commit. The outcome of each, in order."""
    outcomes = ["", ""]
    done_first, started_second = threading.Event(), threading.Event()

    def run(index: int, work) -> None:
        try:
            work()
            outcomes[index] = "done"
        except GameError as error:
            outcomes[index] = type(error).__name__
        finally:
            connection.close()

    def hold_first() -> None:
        def work() -> None:
            with transaction.atomic():
                first()
                done_first.set()
                started_second.wait(5)
                time.sleep(HOLD)

        run(0, work)

    def then_second() -> None:
        done_first.wait(5)
        started_second.set()
        run(1, second)

    threads = [threading.Thread(target=hold_first), threading.Thread(target=then_second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.fixture
def game(alice, bob) -> Game:
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(spectators=SpectatorPolicy.DURING)
    return game


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_seated_while_about_to_watch_is_refused_the_view(game, bob, mallory):
    maud = make_moderator("maud")
    seat = game.seats.get(user=bob).position
    outcomes = race(
        lambda: moderation.replace_seat(game.pk, maud, "bob is away", seat, mallory.email),
        lambda: admit(game.pk, mallory),
    )
    assert outcomes == ["done", NotAllowed.__name__]
    assert game.seats.filter(user=mallory).exists()
    assert not Spectator.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_watching_while_about_to_be_seated_is_refused_the_seat(game, bob, mallory):
    maud = make_moderator("maud")
    seat = game.seats.get(user=bob).position
    outcomes = race(
        lambda: admit(game.pk, mallory),
        lambda: moderation.replace_seat(game.pk, maud, "bob is away", seat, mallory.email),
    )
    assert outcomes == ["done", GameError.__name__]
    assert Spectator.objects.filter(game=game, user=mallory).exists()
    assert not game.seats.filter(user=mallory).exists()
