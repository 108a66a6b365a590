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

import asyncio
import logging

import redis
import redis.asyncio
from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches

from games import push_local
from games.push_fanout import ChannelLost, Fanout, Waiter
from lib.cache_failures import failing_cache_is_no_cache

log = logging.getLogger(__name__)

# A comment line this often keeps proxies from closing an idle stream.
HEARTBEAT_SECONDS = 25.0
# Publishing happens after a commit, while a page waits: give up quickly if Redis is down.
SOCKET_TIMEOUTS = {"socket_connect_timeout": 0.2, "socket_timeout": 0.5}
# How long a new stream waits for Redis to confirm its game's channel.
SUBSCRIBE_TIMEOUT = 5.0
# Redis connections of a push process: its subscription, and reads of versions.
POOL_SIZE = 16

_publisher: redis.Redis | None = None


def enabled() -> bool:
    return settings.PUSH_ENABLED


def channel(game_id: int) -> str:
    # Redis has one set of channels for all its databases, and a var/ folder one local
    # socket: the database's name keeps two sites (or a site and a test run) sharing either
    # apart.
    return f"hanabi:{settings.DATABASES['default']['NAME']}:game:{game_id}"


def versions_key(game_id: int) -> str:
    """The cache's key for a game's version: games/services/versions.py's _version_key
    (tests/games/test_push_streams.py holds the two equal)."""
    return f"game:{game_id}:version"


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

    Entered, it is subscribed (Redis has confirmed it): a version read after that cannot
    miss a change published in between. `next` raises push_fanout.ChannelLost if the
    channel fails."""
    if settings.REDIS_URL:
        return RedisSubscription(channel(game_id))
    return push_local.Subscription(channel(game_id))


async def cached_version(game_id: int) -> int | None:
    """The game's version as the shared cache holds it (games/services/versions.py), read
    without the database; None when the cache cannot be trusted for it (the embedded
    default's cache is each process's memory) or holds none (it expires)."""
    if not (settings.REDIS_URL and settings.POLL_FROM_CACHE):
        return None
    key = caches[DEFAULT_CACHE_ALIAS].make_key(versions_key(game_id))
    with failing_cache_is_no_cache(log, "push: could not read a version", level=logging.DEBUG):
        found = await _RedisHub.of_this_loop().client.get(key)
        return int(found) if found is not None else None
    return None


class RedisSubscription(Waiter):
    """subscribe's Redis implementation: a place in the process's one subscription."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._hub: _RedisHub | None = None

    async def __aenter__(self) -> "RedisSubscription":
        self._hub = _RedisHub.of_this_loop()
        await self._hub.add(self)
        return self

    async def __aexit__(self, *exc_info) -> None:
        # The browser went away (the server cancels the stream), or Redis failed.
        if self._hub is not None:
            self._hub.remove(self)
            self._hub = None


class _RedisHub:
    """The process's one Redis connection for pub/sub, read by one task of its event loop,
    fanned out to the streams (games/push_fanout.py). A game's channel is subscribed when its
    first stream opens and unsubscribed when its last closes; the connection is closed when
    no stream is left. If Redis fails, every stream ends (the pages poll, and open new
    streams later), and the next stream connects afresh."""

    _current: "_RedisHub | None" = None

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.fanout = Fanout()
        # A bounded pool: thousands of streams opening at once each read a version, and
        # would otherwise open a connection each (Redis allows 10,000 clients).
        self.client = redis.asyncio.Redis(
            connection_pool=redis.asyncio.BlockingConnectionPool.from_url(
                settings.REDIS_URL, max_connections=POOL_SIZE, timeout=SUBSCRIBE_TIMEOUT
            )
        )
        self.pubsub = self.client.pubsub()
        self.confirmed: dict[str, asyncio.Future] = {}
        # One command at a time: the first SUBSCRIBE makes the connection, and two at once
        # would each make one.
        self.lock = asyncio.Lock()
        self.reader: asyncio.Task | None = None
        self.closed = False

    @classmethod
    def of_this_loop(cls) -> "_RedisHub":
        loop = asyncio.get_running_loop()
        current = cls._current
        if current is not None and (current.loop is not loop or current.closed):
            current.close()  # its loop has gone (a test's own loop), or Redis failed
            current = None
        if current is None:
            current = cls._current = cls(loop)
        return current

    @property
    def channels(self) -> int:
        """Channels subscribed for this process's streams."""
        return len(self.fanout.waiting)

    async def add(self, waiter: Waiter) -> None:
        first = self.fanout.add(waiter)
        try:
            if first:
                self.confirmed[waiter.channel] = self.loop.create_future()
                async with self.lock:
                    await self.pubsub.subscribe(waiter.channel)
                if self.reader is None:
                    self.reader = self.loop.create_task(self._read())
            confirmation = self.confirmed.get(waiter.channel)
            if confirmation is not None:
                async with asyncio.timeout(SUBSCRIBE_TIMEOUT):  # see Waiter.next
                    await asyncio.shield(confirmation)
        except BaseException:
            self.remove(waiter)
            raise

    def remove(self, waiter: Waiter) -> None:
        if not self.fanout.remove(waiter) or self.closed:
            return
        if not self.fanout.waiting:
            self.close()
            return
        # Not awaited: the stream may be leaving because it was cancelled.
        self.loop.create_task(self._unsubscribe(waiter.channel))

    async def _unsubscribe(self, name: str) -> None:
        with failing_cache_is_no_cache(log, "push: unsubscribing failed", level=logging.DEBUG):
            if name not in self.fanout.waiting and not self.closed:
                self.confirmed.pop(name, None)
                async with self.lock:
                    await self.pubsub.unsubscribe(name)

    async def _read(self) -> None:
        try:
            while True:
                message = await self.pubsub.get_message(timeout=None)
                if message is None:
                    continue
                name = message["channel"].decode()
                if message["type"] == "subscribe":
                    confirmation = self.confirmed.pop(name, None)
                    if confirmation is not None and not confirmation.done():
                        confirmation.set_result(True)
                elif message["type"] == "message":
                    self.fanout.deliver(name, int(message["data"]))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("push: the Redis subscription failed", exc_info=True)
            self.fanout.lose_all()
            self.close()

    def close(self) -> None:
        if _RedisHub._current is self:
            _RedisHub._current = None
        if self.closed:
            return
        self.closed = True
        for confirmation in self.confirmed.values():
            if not confirmation.done():
                confirmation.set_exception(ChannelLost("closed"))
                confirmation.exception()  # retrieved: no "never retrieved" warning
        self.confirmed.clear()
        if self.reader is not None and self.reader is not asyncio.current_task():
            self.reader.cancel()
        if not self.loop.is_closed():
            self.loop.create_task(self._close_connections())

    async def _close_connections(self) -> None:
        with failing_cache_is_no_cache(log, "push: closing failed", level=logging.DEBUG):
            await self.pubsub.aclose()
            await self.client.aclose()
            # A pool given to the client is not the client's to close.
            await self.client.connection_pool.disconnect()


def subscribed_channels() -> int:
    """How many game channels this process is subscribed to (0 with no open stream)."""
    hub = _RedisHub._current
    return hub.channels if hub is not None and not hub.closed else 0
