"""lib/prepared_queries.py: a query of a fixed shape compiled once per process, giving what
the queryset itself gives (issue 28)."""

from datetime import timedelta

import pytest
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from accounts.backends import PasswordBackend
from games.models import Seat
from games.views.access import _seats_of
from lib.prepared_queries import PreparedQuery
from tests.games.conftest import start_game


def _seats_queryset(game_id):
    return Seat.objects.filter(game_id=game_id).select_related("game", "user").order_by("position")


def _fields(instance):
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@pytest.fixture
def compilations(monkeypatch):
    """How many times Django compiles a query to SQL."""
    count = [0]
    original = SQLCompiler.as_sql

    def counting(self, *args, **kwargs):
        count[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counting)
    return count


def test_the_seats_are_the_querysets_with_their_game_and_users(
    alice, bob, carol, django_assert_num_queries
):
    game = start_game(alice, bob, carol)
    other = start_game(bob, alice)
    expected = list(_seats_queryset(game.pk))
    with django_assert_num_queries(1):
        seats = _seats_of(game.pk)
        # Loaded with the seats: no query for the game or the users.
        assert [seat.game.pk for seat in seats] == [game.pk] * 3
        assert [seat.user.email for seat in seats] == [seat.user.email for seat in expected]
        assert [seat.game.version for seat in seats] == [game.version] * 3
        assert [seat.game.options for seat in seats] == [s.game.options for s in expected]
        assert [seat.game.turn_deadline for seat in seats] == [
            s.game.turn_deadline for s in expected
        ]
    assert [_fields(seat) for seat in seats] == [_fields(seat) for seat in expected]
    assert [_fields(seat.game) for seat in seats] == [_fields(seat.game) for seat in expected]
    assert [_fields(seat.user) for seat in seats] == [_fields(seat.user) for seat in expected]
    assert [seat.position for seat in seats] == [0, 1, 2]
    assert {seat.user for seat in _seats_of(other.pk)} == {alice, bob}
    assert _seats_of(other.pk + 1000) == []


def test_a_seat_without_a_user_has_none(alice, bob):
    game = start_game(alice, bob)
    Seat.objects.filter(game=game, position=1).update(user=None)
    seats = _seats_of(game.pk)
    assert seats[1].user is None
    assert seats[0].user is not None


def test_the_query_is_compiled_once(alice, bob, compilations):
    games = [start_game(alice, bob), start_game(bob, alice)]
    prepared = PreparedQuery(_seats_queryset, Seat._meta.get_field("game"))
    compilations[0] = 0
    prepared(games[0].pk)
    assert compilations[0] == 1
    for game in games * 3:
        assert [seat.game_id for seat in prepared(game.pk)] == [game.pk, game.pk]
    assert compilations[0] == 1
    list(_seats_queryset(games[0].pk))  # (the count counts)
    assert compilations[0] == 2


def test_a_queryset_with_more_parameters_is_run_as_it_is(alice, bob):
    game = start_game(alice, bob)
    prepared = PreparedQuery(
        lambda game_id: _seats_queryset(game_id).filter(position__gte=1),
        Seat._meta.get_field("game"),
    )
    assert prepared._compile("default") is None
    assert [seat.position for seat in prepared(game.pk)] == [1]


def test_the_backend_gives_the_user_and_refuses_a_suspended_or_missing_one(alice, bob):
    backend = PasswordBackend()
    assert backend.get_user(alice.pk) == alice
    assert backend.get_user(alice.pk).email == alice.email
    assert backend.get_user(str(bob.pk)) == bob
    assert backend.get_user(bob.pk + 1000) is None
    alice.suspended_until = timezone.now() + timedelta(days=1)
    alice.save()
    assert backend.get_user(alice.pk) is None
    alice.is_active = False
    alice.suspended_until = None
    alice.save()
    assert backend.get_user(alice.pk) is None


def test_a_suspended_players_session_no_longer_sees_the_game(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    alice.suspended_until = timezone.now() + timedelta(days=1)
    alice.save()
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
