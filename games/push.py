"""Push: an open game page hears of a change within a moment of its commit, instead of at
its next poll.

Every change to a game raises its version after commit (games/services/versions.py), which
also publishes the new version on the game's channel. The page holds an EventSource
(Server-Sent Events) on /games/<id>/events/, served by an ASGI process (uvicorn: the `push`
process of the Procfile; under `python3 dev.py run`, the web process itself), which passes
each version on; the page's script then asks for the new table with the poll it already has.

The channel: Redis's pub/sub when REDIS_URL is set (below: any number of processes on any
number of machines); otherwise a datagram on a Unix socket under var/ (games/push_local.py:
one machine, one push process). Both offer the same two things: publishing, which never
raises or waits long (`announce` below), and a subscription (`subscribe`), entered before
the version is read.

Where no ASGI process serves the events URL (gunicorn's or runserver's WSGI) or
PUSH_ENABLED is false, it answers 204, which tells the browser to stop asking: the page
polls every few seconds as before.
"""

import logging

import redis
import redis.asyncio
from django.conf import settings

from games import push_local
from lib.cache_failures import failing_cache_is_no_cache

log = logging.getLogger(__name__)

# A comment line this often keeps proxies from closing an idle stream.
HEARTBEAT_SECONDS = 25.0
# Publishing happens after a commit, while a page waits: give up quickly if Redis is down.
SOCKET_TIMEOUTS = {"socket_connect_timeout": 0.2, "socket_timeout": 0.5}

_publisher: redis.Redis | None = None


def enabled() -> bool:
    return settings.PUSH_ENABLED


def channel(game_id: int) -> str:
    # Redis has one set of channels for all its databases, and a var/ folder one local
    # socket: the database's name keeps two sites (or a site and a test run) sharing either
    # apart.
    return f"hanabi:{settings.DATABASES['default']['NAME']}:game:{game_id}"


def announce(game_id: int, version: int) -> None:
    """Publish the game's new version. A failure is logged, never raised: pages still
    learn of the change at their next poll."""
    global _publisher
    if not enabled():
        return
    if not settings.REDIS_URL:
        push_local.publish(channel(game_id), version)
        return
    with failing_cache_is_no_cache(log, "could not publish game %s's version %s", game_id, version):
        if _publisher is None:
            _publisher = redis.Redis.from_url(settings.REDIS_URL, **SOCKET_TIMEOUTS)
        _publisher.publish(channel(game_id), version)
        return
    _publisher = None  # reached only after a failure: the next announcement connects afresh


def subscribe(game_id: int) -> "RedisSubscription | push_local.Subscription":
    """The versions published for one game from the moment it is entered:

        async with subscribe(game_id) as subscription:
            version = await subscription.next(HEARTBEAT_SECONDS)  # None after that long quiet

    Entered, it is subscribed: a version read from the database after that cannot miss a
    change published in between."""
    if settings.REDIS_URL:
        return RedisSubscription(channel(game_id))
    return push_local.Subscription(channel(game_id))


class RedisSubscription:
    """subscribe's Redis implementation: a connection of its own per stream (issue 28
    will share one per process, as push_local's socket is)."""

    def __init__(self, name: str) -> None:
        self.channel = name
        self.client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)

    async def __aenter__(self) -> "RedisSubscription":
        await self.pubsub.subscribe(self.channel)
        return self

    async def __aexit__(self, *exc_info) -> None:
        # The browser went away (the server cancels the stream), or Redis failed.
        with failing_cache_is_no_cache(
            log, "closing a push subscription failed", level=logging.DEBUG
        ):
            await self.pubsub.aclose()
            await self.client.aclose()

    async def next(self, timeout: float) -> int | None:
        message = await self.pubsub.get_message(timeout=timeout)
        if message is None or message["type"] != "message":
            return None
        return int(message["data"])
