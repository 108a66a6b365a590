"""A dropped database connection is not an error page (issue 25).

The connection is really dropped: its PostgreSQL backend is terminated from a second
connection, as an administrator or a failover would. A GET and a move are retried once on a
fresh connection; a move made across a dropped connection is made exactly once; any other
POST is not retried; a database refusing connections answers 503 "back in a moment".
The tests drop connections, so they run outside the suite's per-test transaction.
"""

from unittest import mock

import pytest
from django.db import OperationalError, connection, connections
from django.test import Client

import lib.db_retry  # noqa: F401  (connects its signal receiver before any test client's)
from games.models import Move
from games.services import play
from tests.games.conftest import start_game, user_at

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _usable_connection_after(transactional_db):
    """A test that leaves its connection dropped gets a fresh one for the database's reset."""
    yield
    connection.close_if_unusable_or_obsolete()
    if connection.connection is not None and not connection.is_usable():
        connection.close()


def terminate_own_backend() -> None:
    """Kill the backend of this test's own connection, from a second connection to the same
    (test) database: the next query on the first connection fails as on a real drop."""
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            assert cursor.fetchone()[0] is True
    finally:
        other.close()


def _player_client(game) -> Client:
    # raise_request_exception: a failure the site turned into a 500 fails the test loudly.
    client = Client()
    client.force_login(user_at(game, game.current_seat))
    return client


def _play(client: Client, game):
    """Post the current player's play of a card in their hand (confirmed: made at once)."""
    from games.engine import Play

    card_id = next(a for a in game.load_state().legal_actions() if isinstance(a, Play)).card_id
    form = {"turn": game.turn, "kind": "play", "card": card_id, "confirmed": "yes"}
    return client.post(f"/games/{game.pk}/move/", form)


def test_a_get_after_the_connection_dropped_answers_200(alice, bob):
    game = start_game(alice, bob)
    client = _player_client(game)
    assert client.get(game.get_absolute_url()).status_code == 200
    terminate_own_backend()
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200


def _play_dropping_the_connection(game, after_commit: bool) -> tuple[int, int]:
    """Post a move whose first attempt loses its connection before its transaction, or just
    after it committed; (the status, how many times the service ran)."""
    client = _player_client(game)
    real_submit = play.submit_action
    calls = []

    def submit_with_a_drop(*args, **kwargs):
        calls.append(args)
        if len(calls) > 1:
            return real_submit(*args, **kwargs)
        if not after_commit:
            terminate_own_backend()
            return real_submit(*args, **kwargs)
        real_submit(*args, **kwargs)
        terminate_own_backend()
        Move.objects.count()  # the next query meets the dropped connection
        raise AssertionError("the query above should have failed")

    with mock.patch.object(play, "submit_action", submit_with_a_drop):
        response = _play(client, game)
    return response.status_code, len(calls)


def test_a_move_across_a_dropped_connection_is_made_exactly_once(alice, bob):
    game = start_game(alice, bob)
    # The first attempt failed on the dropped connection; the second made the move.
    assert _play_dropping_the_connection(game, after_commit=False) == (302, 2)
    assert Move.objects.filter(game=game).count() == 1


def test_a_move_committed_before_the_drop_is_not_made_again(alice, bob):
    """The connection dies after the move's transaction committed: the retry meets the form's
    turn, now past, and makes nothing (409: the stale form's message)."""
    game = start_game(alice, bob)
    assert _play_dropping_the_connection(game, after_commit=True) == (409, 2)
    assert Move.objects.filter(game=game).count() == 1


def test_a_post_other_than_a_move_is_not_retried(alice, bob):
    game = start_game(alice, bob)
    client = Client(raise_request_exception=False)
    client.force_login(user_at(game, game.current_seat))
    calls = []

    def drop_and_fail(*args, **kwargs):
        calls.append(args)
        terminate_own_backend()
        Move.objects.count()

    with mock.patch("games.views.table.run_service", drop_and_fail):
        response = client.post(f"/games/{game.pk}/pause/")
    assert len(calls) == 1
    assert response.status_code == 500


def test_a_database_refusing_connections_answers_503(alice, bob):
    game = start_game(alice, bob)
    client = _player_client(game)
    connection.close()
    refused = OperationalError("FATAL: sorry, too many clients already")

    with mock.patch.object(connections["default"], "connect", side_effect=refused) as connect:
        response = client.get(game.get_absolute_url())
    assert connect.call_count == 2  # tried again once, on a fresh connection
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Back in a moment" in response.content.decode()


def _next_move_form(game) -> dict:
    """The form of the first legal discard, else the first legal clue: a move that never
    strikes, so the game goes on."""
    from games.engine import Discard, Play, action_to_dict

    legal = [a for a in game.load_state().legal_actions() if not isinstance(a, Play)]
    action = action_to_dict(next((a for a in legal if isinstance(a, Discard)), legal[0]))
    form = {"turn": game.turn, "kind": action.pop("type")}
    if "card_id" in action:
        form["card"] = action.pop("card_id")
    return form | action


def test_gets_and_moves_each_after_a_dropped_connection_never_answer_500(alice, bob):
    """The load test's pattern in one process: every request meets a dropped connection."""
    game = start_game(alice, bob)
    clients = {user.pk: Client() for user in (alice, bob)}
    for user in (alice, bob):
        clients[user.pk].force_login(user)
    statuses = []
    for _ in range(20):
        game.refresh_from_db()
        client = clients[user_at(game, game.current_seat).pk]
        terminate_own_backend()
        statuses.append(client.get(game.get_absolute_url()).status_code)
        form = _next_move_form(game)
        terminate_own_backend()
        statuses.append(client.post(f"/games/{game.pk}/move/", form).status_code)
    assert statuses == [200, 302] * 20
    assert Move.objects.filter(game=game).count() == 20
