"""Push (games/push.py): each change is published on the game's Redis channel after its
commit; the events URL streams only under ASGI, and answers 204 elsewhere so that the
browser stops asking and the page keeps to its poll. The stream itself is tested for real,
under uvicorn, in tests/browser/test_push_browser.py."""

from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from django.conf import settings as django_settings
from django.db import transaction

from games import push
from games.services import versions
from tests.games.conftest import start_game


@pytest.mark.django_db(transaction=True)
def test_the_events_url_answers_204_outside_asgi(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    # The view is async, run by the test client through async_to_sync, which refuses a
    # thread where an event loop runs: a worker that has run a browser test keeps
    # Playwright's running in its main thread (tests/event_loop.py). So the request goes
    # from a thread of its own, and the rows it reads are committed (transaction=True).
    with ThreadPoolExecutor(max_workers=1) as thread:
        answer = thread.submit(client.get, f"/games/{game.pk}/events/?v=0").result()
    assert answer.status_code == 204


def test_channels_are_kept_apart_by_database_and_game(settings):
    assert push.channel(1) != push.channel(2)
    # Redis shares its channels between its databases: the site's database names them.
    assert str(settings.DATABASES["default"]["NAME"]) in push.channel(1)


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_change_is_published_after_its_commit_and_not_before(alice, bob):
    game = start_game(alice, bob)
    subscriber = redis.Redis.from_url(django_settings.REDIS_URL).pubsub(
        ignore_subscribe_messages=True
    )
    subscriber.subscribe(push.channel(game.pk))
    subscriber.get_message(timeout=1)  # the subscription's confirmation
    with transaction.atomic():
        version = versions.bump(game)
        assert subscriber.get_message(timeout=0.3) is None  # not before the commit
    message = subscriber.get_message(timeout=2)
    assert message is not None and int(message["data"]) == version
    subscriber.close()


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_change_is_not_published(alice, bob):
    game = start_game(alice, bob)
    subscriber = redis.Redis.from_url(django_settings.REDIS_URL).pubsub(
        ignore_subscribe_messages=True
    )
    subscriber.subscribe(push.channel(game.pk))
    subscriber.get_message(timeout=1)
    with pytest.raises(RuntimeError), transaction.atomic():
        versions.bump(game)
        raise RuntimeError("the change failed")
    assert subscriber.get_message(timeout=0.5) is None
    subscriber.close()


def test_publishing_with_redis_down_is_logged_not_raised(settings, caplog):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    push._publisher = None
    push.announce(1, 2)
    push._publisher = None
    assert "could not publish" in caplog.text
