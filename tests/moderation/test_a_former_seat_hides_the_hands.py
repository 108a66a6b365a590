"""Issue 25: a moderator who ever held a seat in a game does not see its hands while it is
played, and cannot give away or take back their own seat through moderation.

The attack measured: a seated moderator gave their own seat to another account
(`replace_seat`), opened the admin's turn view (200, every hand, their own too), then took
the seat back. Each step is refused now, and nothing changes when it is. A moderator who
never sat still sees every hand; a finished game shows every hand to everyone anyway.
"""

import pytest
from django.test import Client

from games.errors import GameError
from games.models import Game, Seat
from games.permissions import may_inspect
from moderation import services as moderation
from moderation.models import ModeratorAction
from tests.conftest import make_moderator
from tests.games.conftest import play_to_the_end, start_game


@pytest.fixture
def maud(db):
    return make_moderator("maud")


@pytest.fixture
def game(maud, bob) -> Game:
    return start_game(maud, bob)


def turn_view(user, game: Game) -> int:
    client = Client()
    client.force_login(user)
    return client.get(f"/admin/games/game/{game.pk}/turn/0/").status_code


def seats(game: Game) -> list[tuple]:
    return list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .values_list("position", "user_id", "is_bot", "timeouts_in_a_row")
    )


def position_of(user, game: Game) -> int:
    return Seat.objects.get(game=game, user=user).position


def refused_and_unchanged(game: Game, action, match: str) -> None:
    before = (seats(game), ModeratorAction.objects.count(), Game.objects.get(pk=game.pk).version)
    with pytest.raises(GameError, match=match):
        action()
    after = (seats(game), ModeratorAction.objects.count(), Game.objects.get(pk=game.pk).version)
    assert after == before


def test_a_seated_moderator_cannot_give_their_own_seat_away(game, maud, carol):
    mine = position_of(maud, game)
    refused_and_unchanged(
        game,
        lambda: moderation.replace_seat(game.pk, maud, "stepping out", mine, carol.email),
        "your own seat",
    )
    refused_and_unchanged(
        game,
        lambda: moderation.replace_seat(game.pk, maud, "a bot for me", mine),
        "your own seat",
    )
    assert turn_view(maud, game) == 403


def test_a_moderator_who_held_a_seat_cannot_see_the_hands_nor_take_the_seat_back(game, maud, carol):
    """The seat changed hands through another moderator (the only way it can once the game
    has started): the former player still may not look, nor sit again."""
    other = make_moderator("otto")
    mine = position_of(maud, game)
    moderation.replace_seat(game.pk, other, "Maud asked", mine, carol.email)
    assert not Seat.objects.filter(game=game, user=maud).exists()

    assert not may_inspect(maud, game)
    assert turn_view(maud, game) == 403
    refused_and_unchanged(
        game,
        lambda: moderation.replace_seat(game.pk, maud, "back", mine, maud.email),
        "held",
    )
    refused_and_unchanged(
        game,
        lambda: moderation.replace_seat(game.pk, maud, "to a bot", mine),
        "held",
    )
    # The moderator who never sat still sees every hand.
    assert may_inspect(other, game)
    assert turn_view(other, game) == 200


def test_a_former_player_is_remembered_through_every_later_change_of_the_seat(
    game, maud, carol, charlie
):
    other = make_moderator("otto")
    mine = position_of(maud, game)
    moderation.replace_seat(game.pk, other, "Maud asked", mine, carol.email)
    moderation.replace_seat(game.pk, other, "Carol left", mine, charlie.email)
    moderation.replace_seat(game.pk, other, "Charlie left", mine)
    assert not may_inspect(maud, game)
    assert not may_inspect(carol, game)  # not a moderator, and a former player too
    refused_and_unchanged(
        game,
        lambda: moderation.replace_seat(game.pk, maud, "back", mine, maud.email),
        "held",
    )


def test_a_moderator_cannot_seat_themselves_in_a_game_they_may_inspect(alice, bob, maud):
    """A moderator who may see every hand would know their own cards once seated."""
    game = start_game(alice, bob)
    refused_and_unchanged(
        game,
        lambda: moderation.replace_seat(
            game.pk, maud, "I'll play", position_of(bob, game), maud.email
        ),
        "yourself",
    )
    assert turn_view(maud, game) == 200


def test_the_restriction_lifts_when_the_game_is_finished(game, maud, carol):
    other = make_moderator("otto")
    moderation.replace_seat(game.pk, other, "Maud asked", position_of(maud, game), carol.email)
    play_to_the_end(game)
    game.refresh_from_db()
    assert game.is_finished()
    assert may_inspect(maud, game)
    assert turn_view(maud, game) == 200
