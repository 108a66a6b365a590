"""How many queries a game's pages make (issue 15). What is counted: every query of the
request, with the session engine as configured (settings.SESSION_ENGINE); the user's row
is one query; with cached sessions the session is not one once it is in the cache."""

import pytest
from django.conf import settings
from django.core.cache import cache

from games.engine import GameOptions
from games.models import Game
from games.services import lobby
from tests.cache_helpers import cache_keys, unprefixed
from tests.games.conftest import play_to_the_end, start_game, user_at

SESSION_QUERIES = 0 if settings.SESSION_ENGINE.endswith(("cache", "cached_db")) else 1


def test_the_turn_page_makes_at_most_three_queries(
    client, alice, bob, django_assert_max_num_queries
):
    game = start_game(alice, bob, turn_time_limit=24)
    client.force_login(user_at(game, game.current_seat))
    url = f"/games/{game.pk}/"
    client.get(url)  # renders the table and keeps it
    # The session (unless cached), the user, the game with its seats and their users.
    with django_assert_max_num_queries(2 + SESSION_QUERIES):
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(2 + SESSION_QUERIES):
        assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200


def test_a_turn_page_rendered_afresh_makes_few_queries(
    client, alice, bob, django_assert_max_num_queries
):
    game = start_game(alice, bob, turn_time_limit=24)
    client.force_login(user_at(game, game.current_seat))
    url = f"/games/{game.pk}/"
    client.get(url)
    cache.delete_many([unprefixed(key) for key in cache_keys(":table:")])
    # … and the moves, the chat, the moderators' actions.
    with django_assert_max_num_queries(5 + SESSION_QUERIES):
        assert client.get(url).status_code == 200


def test_the_waiting_room(client, alice, bob, django_assert_max_num_queries):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.PUBLIC)
    lobby.join_game(game.pk, bob)
    client.force_login(alice)
    url = f"/games/{game.pk}/"
    client.get(url)
    # 8: with the viewer's friends and recent partners, offered to invite (friends/).
    with django_assert_max_num_queries(8 + SESSION_QUERIES):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("last", [False, True])
def test_the_replay_page(client, alice, bob, django_assert_max_num_queries, last):
    game = play_to_the_end(start_game(alice, bob))
    client.force_login(alice)
    url = f"/games/{game.pk}/replay/{game.turn if last else 1}/"
    client.get(url)
    with django_assert_max_num_queries(8 + SESSION_QUERIES):
        assert client.get(url).status_code == 200


def test_a_move_request_reads_only_the_session_the_user_and_the_move(client, alice, bob):
    """The view leaves the checks to the service (under the game's lock) and reads nothing
    after it: no seats before the move, no game after it."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.engine import Clue
    from tests.games.query_count import MOVE_QUERIES, Counted

    game = start_game(alice, bob, turn_time_limit=24)
    client.force_login(user_at(game, game.current_seat))
    clue = next(a for a in game.load_state().legal_actions() if isinstance(a, Clue) and a.rank)
    form = {"kind": "clue", "target": clue.target, "rank": clue.rank, "turn": game.turn}
    # The page the form is sent from, first: it leaves in the cache what every request to the
    # game reads (whether it is on a shared deal, deals/game_links.py), as a player's would.
    client.get(f"/games/{game.pk}/")
    with CaptureQueriesContext(connection) as captured:
        response = client.post(f"/games/{game.pk}/move/", form)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    queries = Counted(captured.captured_queries)
    assert len(queries) <= SESSION_QUERIES + 1 + MOVE_QUERIES, str(queries)
    reads = [sql.split(" WHERE ")[0] for sql in queries.statements if sql.startswith("SELECT")]
    assert sum('FROM "games_game"' in sql for sql in reads) == 1, str(queries)  # the lock
    assert sum('FROM "games_seat"' in sql for sql in reads) == 1, str(queries)
