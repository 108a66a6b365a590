"""Push: an open game page hears of a change within a moment of its commit, instead of at
its next poll.

Every change to a game raises its version after commit (games/services/versions.py), which
also publishes the new version on the game's Redis channel. The page holds an EventSource
(Server-Sent Events) on /games/<id>/events/, served by the `push` process (uvicorn, ASGI:
an idle connection is a coroutine waiting on Redis, not a worker), which passes each
version on; the page's script then asks for the new table with the poll it already has.

Without Redis (the embedded default) nothing is published and the events URL answers 204,
which tells the browser to stop asking: the page polls every few seconds as before.
"""

import logging

import redis
import redis.asyncio
from django.conf import settings

from lib.cache_failures import failing_cache_is_no_cache

log = logging.getLogger(__name__)

# A comment line this often keeps proxies from closing an idle stream.
HEARTBEAT_SECONDS = 25.0
# Publishing happens after a commit, while a page waits: give up quickly if Redis is down.
SOCKET_TIMEOUTS = {"socket_connect_timeout": 0.2, "socket_timeout": 0.5}

_publisher: redis.Redis | None = None


def enabled() -> bool:
    return bool(settings.REDIS_URL) and settings.PUSH_ENABLED


def channel(game_id: int) -> str:
    # Redis has one set of channels for all its databases: the database's name keeps two
    # sites (or a site and a test run) sharing a Redis apart.
    return f"hanabi:{settings.DATABASES['default']['NAME']}:game:{game_id}"


def announce(game_id: int, version: int) -> None:
    """Publish the game's new version. A failure is logged, never raised: pages still
    learn of the change at their next poll."""
    global _publisher
    if not enabled():
        return
    with failing_cache_is_no_cache(log, "could not publish game %s's version %s", game_id, version):
        if _publisher is None:
            _publisher = redis.Redis.from_url(settings.REDIS_URL, **SOCKET_TIMEOUTS)
        _publisher.publish(channel(game_id), version)
        return
    _publisher = None  # reached only after a failure: the next announcement connects afresh


class Subscription:
    """The versions published for one game from the moment it is entered:

        async with Subscription(game_id) as subscription:
            version = await subscription.next()  # None after HEARTBEAT_SECONDS of quiet

    Entered, it is subscribed: a version read from the database after that cannot miss a
    change published in between."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)

    async def __aenter__(self) -> "Subscription":
        await self.pubsub.subscribe(channel(self.game_id))
        return self

    async def __aexit__(self, *exc_info) -> None:
        # The browser went away (the server cancels the stream), or Redis failed.
        with failing_cache_is_no_cache(
            log, "closing a push subscription failed", level=logging.DEBUG
        ):
            await self.pubsub.aclose()
            await self.client.aclose()

    async def next(self) -> int | None:
        message = await self.pubsub.get_message(timeout=HEARTBEAT_SECONDS)
        if message is None or message["type"] != "message":
            return None
        return int(message["data"])
