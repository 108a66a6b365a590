"""What a rematch refuses, and why: each refusal says what is wrong in words for the player
and changes nothing in the database (as tests/games/test_refusals.py)."""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from games.errors import GameError, NotAllowed
from games.models import Game, Invitation, Seat
from outbox.models import Outbox
from rematches import services
from rematches.models import Invitee, Rematch
from tests.games.conftest import start_game


def database() -> dict[str, list[dict]]:
    seat_fields = [f.attname for f in Seat._meta.concrete_fields if f.name != "last_seen_at"]
    return {
        "games": list(Game.objects.order_by("pk").values()),
        "seats": list(Seat.objects.order_by("pk").values(*seat_fields)),
        "invitations": list(Invitation.objects.order_by("pk").values()),
        "rematches": list(Rematch.objects.order_by("pk").values()),
        "invitees": list(Invitee.objects.order_by("pk").values()),
        "outbox": list(Outbox.objects.order_by("pk").values()),
    }


@contextmanager
def refused(error: type[GameError], message: str) -> Iterator[None]:
    """The block raises exactly `error` with exactly `message`, and the database is as it
    was."""
    before = database()
    with pytest.raises(GameError) as caught:
        yield
    assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
    assert str(caught.value) == message
    assert database() == before


@pytest.fixture
def proposed(finished, alice) -> Rematch:
    rematch, _ = services.propose(finished.pk, alice)
    return rematch


def test_only_a_player_of_the_game_proposes(finished, mallory):
    with refused(NotAllowed, "Only a player of this game can propose a rematch."):
        services.propose(finished.pk, mallory)


def test_a_game_not_over_has_no_rematch(alice, bob):
    game = start_game(alice, bob)
    with refused(GameError, "A rematch can be proposed once the game is over."):
        services.propose(game.pk, alice)


def test_a_forged_game_id(alice):
    with refused(GameError, "There is no such game."):
        services.propose(999_999, alice)


def test_an_outsider_cannot_answer(proposed, mallory):
    with refused(NotAllowed, "You are not invited to this rematch."):
        services.accept(proposed.pk, mallory)
    with refused(NotAllowed, "You are not invited to this rematch."):
        services.decline(proposed.pk, mallory)


def test_the_proposer_is_not_an_invitee(proposed, alice):
    with refused(NotAllowed, "You are not invited to this rematch."):
        services.accept(proposed.pk, alice)


def test_accepting_twice(proposed, bob):
    services.accept(proposed.pk, bob)
    with refused(GameError, "You have already accepted this rematch."):
        services.accept(proposed.pk, bob)


def test_declining_twice(proposed, bob):
    services.decline(proposed.pk, bob)
    with refused(GameError, "You have already declined this rematch."):
        services.decline(proposed.pk, bob)


def test_answering_after_the_start(proposed, alice, carol):
    services.start_with_bots(proposed.pk, alice)
    message = "This game has already started: it is too late to answer."
    with refused(GameError, message):
        services.accept(proposed.pk, carol)
    with refused(GameError, message):
        services.decline(proposed.pk, carol)


def test_answering_a_cancelled_rematch(proposed, alice, bob):
    from games.services import lobby

    lobby.abort_game(proposed.game_id, alice)
    with refused(GameError, "This game was cancelled: it is too late to answer."):
        services.accept(proposed.pk, bob)


def test_a_forged_rematch_id(bob):
    for service in (services.accept, services.decline, services.start_with_bots):
        with refused(GameError, "There is no such rematch."):
            service(999_999, bob)


def test_only_the_proposer_starts_with_bots(proposed, bob, mallory):
    for person in (bob, mallory):
        with refused(NotAllowed, "Only the player who proposed the rematch can start it."):
            services.start_with_bots(proposed.pk, person)


def test_starting_twice(proposed, alice):
    services.start_with_bots(proposed.pk, alice)
    with refused(GameError, "This game has already started."):
        services.start_with_bots(proposed.pk, alice)
