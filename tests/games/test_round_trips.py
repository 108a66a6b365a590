"""Round trips to Redis of the turn page and a move (issue 28): one client per process, the
page's cache work in one pipeline after its session, a move's after-commit cache work (state,
version, push) in one. What is counted: every command or pipeline written to a Redis
connection by this process (the cache, the sessions, the push channel and Celery's broker),
each one round trip."""

import pytest
import redis
from django.conf import settings
from django.core.cache import cache, caches
from django.db import transaction

from games import push
from games.engine import Clue
from games.services import versions
from lib import cache_batch
from tests.games.conftest import start_game, user_at

pytestmark = pytest.mark.redis


@pytest.fixture
def round_trips(monkeypatch):
    """A list that gets one entry per round trip to Redis (a command, or a pipeline)."""
    sent: list[bytes] = []
    send = redis.connection.AbstractConnection.send_packed_command

    def counted(self, command, check_health=True):
        sent.append(command if isinstance(command, bytes) else b"".join(command))
        return send(self, command, check_health)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counted)
    return sent


def test_the_cache_has_one_client_per_process():
    assert isinstance(caches["default"], cache_batch.RedisCache)
    # Another cache object of the process (another thread's or task's) shares it.
    other = caches.create_connection("default")
    assert other._cache.get_client() is cache._cache.get_client(write=True)


def test_a_cached_turn_page_makes_three_round_trips(client, alice, bob, round_trips):
    game = start_game(alice, bob, turn_time_limit=24)
    client.force_login(user_at(game, game.current_seat))
    url = f"/games/{game.pk}/"
    assert client.get(url).status_code == 200  # renders the table and keeps it
    round_trips.clear()
    assert client.get(url).status_code == 200
    # The session; the game's shared deal (deals/middleware.py); then the version, the
    # poll's viewer and the table, in one pipeline (before: 2 more round trips).
    assert len(round_trips) == 3, named(round_trips)
    assert b"EVAL" in round_trips[2] and b":table:" in round_trips[2]
    round_trips.clear()
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200
    assert len(round_trips) == 3, named(round_trips)


def named(round_trips: list[bytes]) -> list[list[bytes]]:
    """Each round trip's first command and key, for a failure's message."""
    return [sent.split(b"\r\n")[2:5:2] for sent in round_trips]


def a_move_form(game) -> dict:
    clue = next(a for a in game.load_state().legal_actions() if isinstance(a, Clue) and a.rank)
    return {"kind": "clue", "target": clue.target, "rank": clue.rank, "turn": game.turn}


@pytest.mark.django_db(transaction=True)
def test_a_move_sends_its_after_commit_cache_work_in_one_round_trip(
    client, alice, bob, round_trips
):
    game = start_game(alice, bob, turn_time_limit=24)
    client.force_login(user_at(game, game.current_seat))
    client.get(f"/games/{game.pk}/")
    subscriber = redis.Redis.from_url(settings.REDIS_URL).pubsub(ignore_subscribe_messages=True)
    subscriber.subscribe(push.channel(game.pk))
    subscriber.get_message(timeout=1)
    round_trips.clear()
    response = client.post(f"/games/{game.pk}/move/", a_move_form(game))
    assert response.status_code == 302
    after_commit = [sent for sent in round_trips if b"PUBLISH" in sent]
    assert len(after_commit) == 1, round_trips
    # The state after the move, the version and the push in that one pipeline.
    assert b":state:1" in after_commit[0] and b"EVAL" in after_commit[0]
    # The session, the game's shared deal and the state before the move, then the pipeline
    # (before: 3 round trips after the commit). Celery's enqueue of the turn email (one more
    # in production) is not here: the tests' Celery runs its tasks in the process.
    assert len(round_trips) == 4, named(round_trips)
    # What the pipeline did: the page hears of it, the cache holds the version and state.
    message = subscriber.get_message(timeout=2)
    subscriber.close()
    assert message is not None and int(message["data"]) == game.version + 1
    assert cache.get(f"game:{game.pk}:version") == game.version + 1


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_savepoint_leaves_nothing_in_the_batch(alice, bob, round_trips):
    """The batch holds what the commit hooks give it: a savepoint rolled back drops its hooks,
    so its cache writes never go out, while the rest of the transaction's do."""
    game = start_game(alice, bob)
    round_trips.clear()
    with cache_batch.collected():
        with transaction.atomic():
            versions.bump(game)
            with pytest.raises(RuntimeError), transaction.atomic():
                transaction.on_commit(lambda: versions.changed(game.pk, 999))
                raise RuntimeError("rolled back")
        assert round_trips == []  # held until the block ends
    assert len(round_trips) == 1
    assert cache.get(f"game:{game.pk}:version") == game.version
