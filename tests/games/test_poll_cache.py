"""The poll without the database: a page sends the version it shows (`?v=`), and a poll of a
game still at that version is answered 204 from the cache, with no database query; after
any change the poll answers with the new table (or the waiting room's refresh). A missing,
failing or unreachable cache falls back on the database, never on a wrong answer."""

import re
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from games.models import Game, Seat
from games.services import play, versions
from tests.cache_helpers import clear_cache
from tests.games.changes import CASES, a_clue
from tests.games.conftest import current_user, start_game, user_at

HTMX = {"HTTP_HX_REQUEST": "true"}


def poll_url(page: str) -> str:
    """The poll URL a rendered page uses."""
    (url,) = re.findall(r'hx-get="(/games/\d+/poll/[^"]*)"', page)
    return url.replace("&amp;", "&")


def shown_page(client, game: Game) -> str:
    return client.get(f"/games/{game.pk}/").content.decode()


def test_an_unchanged_poll_makes_no_database_query(client, alice, bob, django_assert_num_queries):
    game = start_game(alice, bob)
    client.force_login(user_at(game, 1 - game.current_seat))
    url = poll_url(shown_page(client, game))
    assert f"v={game.version}" in url
    # The page told the cache that this session sees this game, seated, at this version.
    # The first poll writes the player's presence (one query, every 20 s at most) …
    with django_assert_num_queries(1):
        assert client.get(url, **HTMX).status_code == 204
    # … and the next ones touch nothing: no session, no user, no game.
    for _ in range(3):
        with django_assert_num_queries(0):
            response = client.get(url, **HTMX)
        assert response.status_code == 204 and response.content == b""


def test_without_the_cache_entries_the_poll_asks_the_database_and_fills_them(
    client, alice, bob, django_assert_num_queries
):
    game = start_game(alice, bob)
    client.force_login(user_at(game, 1 - game.current_seat))
    url = poll_url(shown_page(client, game))
    clear_cache()  # evicted, expired, or a Redis restarted empty
    # Through the view: the session, the user, the game's shared deal (deals/game_links.py),
    # the game and seat, the presence.
    with django_assert_num_queries(5):
        assert client.get(url, **HTMX).status_code == 204
    with django_assert_num_queries(0):
        assert client.get(url, **HTMX).status_code == 204


def test_presence_is_still_written_at_most_every_so_often(
    client, alice, bob, django_assert_num_queries
):
    game = start_game(alice, bob)
    viewer = user_at(game, 1 - game.current_seat)
    client.force_login(viewer)
    url = poll_url(shown_page(client, game))
    client.get(url, **HTMX)
    seat = Seat.objects.get(game=game, user=viewer)
    assert seat.last_seen_at > timezone.now() - timedelta(seconds=5)
    # Twenty seconds later the cache has forgotten the last write: the next poll writes
    # (one query, the update), still without the session, the user or the game.
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=timezone.now() - timedelta(minutes=1))
    cache.delete(f"game:{game.pk}:presence:{viewer.pk}")
    with django_assert_num_queries(1):
        assert client.get(url, **HTMX).status_code == 204
    seat.refresh_from_db()
    assert seat.last_seen_at > timezone.now() - timedelta(seconds=5)


def test_the_poll_after_a_move_returns_the_new_table(
    client, alice, bob, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    waiting = user_at(game, 1 - game.current_seat)
    client.force_login(waiting)
    url = poll_url(shown_page(client, game))
    assert client.get(url, **HTMX).status_code == 204
    assert client.get(url, **HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        play.submit_action(game.pk, current_user(game), a_clue(game), 0)
    response = client.get(url, **HTMX)
    assert response.status_code == 200
    table = response.content.decode()
    assert table.lstrip().startswith('<div id="table"') and "(Your turn)" in table
    game.refresh_from_db()
    new_url = poll_url(table)
    assert f"v={game.version}&" in new_url and "turn=1" in new_url
    # The new table's poll is answered from the cache at once.
    assert client.get(new_url, **HTMX).status_code == 204


@pytest.mark.parametrize(("name", "set_up", "change"), CASES, ids=[c[0] for c in CASES])
def test_a_poll_after_each_kind_of_change_shows_it(
    name,
    set_up,
    change,
    client,
    people,
    django_capture_on_commit_callbacks,
):
    game = set_up(people)
    viewer = people["alice"]  # seated in every case, creator of the waiting games
    client.force_login(viewer)
    url = poll_url(shown_page(client, game))
    assert client.get(url, **HTMX).status_code == 204
    assert client.get(url, **HTMX).status_code == 204  # from the cache
    was_playing = Game.objects.get(pk=game.pk).is_playing()
    with django_capture_on_commit_callbacks(execute=True):
        change(Game.objects.get(pk=game.pk), people)
    response = client.get(url, **HTMX)
    assert response.status_code != 204, name
    game.refresh_from_db()
    viewer.refresh_from_db()
    if viewer.is_suspended():
        assert response.status_code == 302 and "/login/" in response.url
    elif was_playing and game.is_playing():
        assert response.status_code == 200
        assert f"v={game.version}&" in poll_url(response.content.decode())
    elif game.is_open():
        assert response["HX-Refresh"] == "true"
    else:
        assert response["HX-Redirect"] == f"/games/{game.pk}/"


def test_a_poll_from_the_cache_is_for_that_session_game_and_seat(
    client, alice, bob, mallory, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    client.force_login(alice)
    url = poll_url(shown_page(client, game))
    assert client.get(url, **HTMX).status_code == 204
    # Another person, who knows the URL and the version, goes through the view: not seated.
    client.force_login(mallory)
    assert client.get(url, **HTMX).status_code == 404
    # The same person's other game is not answered from this game's entry.
    other = start_game(alice, mallory)
    client.force_login(alice)
    other_url = url.replace(f"/games/{game.pk}/", f"/games/{other.pk}/")
    response = client.get(other_url.replace(f"v={game.version}", f"v={other.version}"), **HTMX)
    assert response.status_code == 204  # through the view: alice plays there too
    # A seat given away bumps the version: its old page's poll goes to the view, and the
    # session's entry is for the old version only.
    with django_capture_on_commit_callbacks(execute=True):
        position = Seat.objects.get(game=game, user=bob).position
        Seat.objects.filter(game=game, position=position).update(user=mallory)
        versions.bump(game.pk)
    client.force_login(bob)
    assert client.get(url, **HTMX).status_code == 404


def without_tokens(page: str) -> str:
    return re.sub(r'value="[A-Za-z0-9]{64}"', "", page)


def test_the_poll_returns_the_pollers_own_view_only(
    client, alice, bob, django_capture_on_commit_callbacks
):
    """Each session's poll, from the cache or not, is its own player's table: the one the
    turn page shows that player, never another's (tests/games/test_hidden_information.py
    checks what a player's table may hold)."""
    game = start_game(alice, bob)
    urls = {}
    for user in (alice, bob):
        client.force_login(user)
        urls[user] = poll_url(shown_page(client, game))
        assert client.get(urls[user], **HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        play.submit_action(game.pk, current_user(game), a_clue(game), 0)
    tables = {}
    for user in (alice, bob):
        client.force_login(user)
        polled = client.get(urls[user], **HTMX).content.decode()
        shown = client.get(f"/games/{game.pk}/", **HTMX).content.decode()
        assert without_tokens(polled) == without_tokens(shown)
        tables[user] = polled
    assert without_tokens(tables[alice]) != without_tokens(tables[bob])


def test_a_cache_that_missed_a_change_is_caught_up_by_the_database(
    client, alice, bob, django_capture_on_commit_callbacks
):
    """The cache is derived: without an entry the poll asks the database and fills it."""
    game = start_game(alice, bob)
    client.force_login(alice)
    url = poll_url(shown_page(client, game))
    client.get(url, **HTMX)
    with django_capture_on_commit_callbacks(execute=True):
        play.submit_action(game.pk, current_user(game), a_clue(game), 0)
    clear_cache()  # lost: evicted, expired, or Redis restarted empty
    response = client.get(url, **HTMX)
    assert response.status_code == 200


def test_a_late_write_never_lowers_the_cached_version(alice, bob):
    game = start_game(alice, bob)
    versions.publish(game.pk, 7)
    versions.publish(game.pk, 5)  # a commit's hook that ran late, or a poll's old read
    assert cache.get(f"game:{game.pk}:version") == 7


@pytest.fixture
def unreachable_redis(settings):
    """The cache is a Redis that is not there (nothing listens on port 1)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.5},
        }
    }
    settings.POLL_FROM_CACHE = True


def test_with_redis_down_pages_polls_and_moves_work_from_the_database(
    client, alice, bob, unreachable_redis, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    waiting = user_at(game, 1 - game.current_seat)
    client.force_login(waiting)
    started = time.monotonic()
    url = poll_url(shown_page(client, game))
    assert client.get(url, **HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        play.submit_action(game.pk, current_user(game), a_clue(game), 0)
    response = client.get(url, **HTMX)
    assert response.status_code == 200 and "(Your turn)" in response.content.decode()
    assert Seat.objects.get(game=game, user=waiting).last_seen_at is not None
    assert time.monotonic() - started < 10


@pytest.mark.redis
def test_on_redis_the_version_is_raised_atomically_and_never_lowered(settings, alice, bob):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": settings.REDIS_URL,
            "KEY_PREFIX": f"test-poll-{time.time_ns()}",
        }
    }
    game = start_game(alice, bob)
    versions.publish(game.pk, 3)
    versions.publish(game.pk, 2)
    assert cache.get(f"game:{game.pk}:version") == 3
    versions.publish(game.pk, 4)
    assert cache.get(f"game:{game.pk}:version") == 4
    assert versions.unchanged_for(game.pk, 4, "some-session") is None
    versions.remember_viewer(game.pk, 4, "some-session", alice.pk)
    assert versions.unchanged_for(game.pk, 4, "some-session") == alice.pk
    assert versions.unchanged_for(game.pk, 3, "some-session") is None
    cache.delete_many([f"game:{game.pk}:version"])
