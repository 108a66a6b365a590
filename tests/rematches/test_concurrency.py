"""A rematch is proposed once and starts once, whatever the concurrency (on PostgreSQL,
whose row locks the services rely on): the proposal under the finished game's lock, every
answer and the start under the new table's."""

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from games.errors import GameError
from games.models import Game
from outbox.models import Outbox
from rematches import services
from rematches.models import Rematch

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def at_once(*calls: Callable[[], object]) -> list[str]:
    """Run the calls in threads released together; what each did ("done" or its error)."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(call) -> None:
        try:
            barrier.wait()
            call()
            outcomes.append("done")
        except GameError as error:
            outcomes.append(str(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def started_once(game_id: int) -> None:
    """The start writes one your-turn email or one bot move for the first turn, once."""
    assert Game.objects.get(pk=game_id).is_playing()
    first_turn = Outbox.objects.filter(kind__in=["your_turn", "bot_move"], payload__game=game_id)
    assert first_turn.count() == 1


def test_many_clicks_propose_one_rematch(finished, alice, bob, carol):
    people = [alice, bob, carol] * 3
    outcomes = at_once(*[lambda p=p: services.propose(finished.pk, p) for p in people])
    assert outcomes == ["done"] * len(people)
    rematch = Rematch.objects.get()
    assert Game.objects.filter(status=Game.Status.OPEN).count() == 1
    assert Outbox.objects.filter(kind="rematch_invitation").count() == 2
    assert rematch.invitees.count() == 2


def test_the_last_two_accepting_at_once_start_the_game_once(finished, alice, bob, carol):
    rematch, _ = services.propose(finished.pk, alice)
    outcomes = at_once(
        lambda: services.accept(rematch.pk, bob), lambda: services.accept(rematch.pk, carol)
    )
    assert outcomes == ["done", "done"]
    started_once(rematch.game_id)
    seated = set(Game.objects.get(pk=rematch.game_id).seats.values_list("user_id", flat=True))
    assert seated == {alice.pk, bob.pk, carol.pk}


def test_an_accept_racing_the_start_with_bots(finished, alice, bob, carol):
    rematch, _ = services.propose(finished.pk, alice)
    services.accept(rematch.pk, bob)
    outcomes = at_once(
        lambda: services.accept(rematch.pk, carol),
        lambda: services.start_with_bots(rematch.pk, alice),
    )
    started_once(rematch.game_id)
    game = Game.objects.get(pk=rematch.game_id)
    if "This game has already started: it is too late to answer." in outcomes:
        # The start came first: a bot has carol's seat.
        assert game.seats.filter(is_bot=True, user=None).count() == 1
    else:
        # Carol's accept came first and started the game: the proposer's start is too late.
        assert outcomes.count("This game has already started.") == 1
        assert carol.pk in set(game.seats.values_list("user_id", flat=True))
