"""Fewer round trips to Redis (issue 28): one client per process, and several cache
operations sent in one pipeline.

- `RedisCache`, the site's cache backend when REDIS_URL is set: Django's, except that every
  cache object of the process (one per thread or task) shares one `redis.Redis` client and its
  connection pool per server and options, made once, instead of a client built for every
  operation and a pool for every cache object. redis-py's pool is thread-safe and makes
  itself afresh in a forked child.
- `Batch`: gets, sets, adds, a number raised (never lowered) and a publication on a pub/sub
  channel (games/push.py's), queued, then sent at once: one round trip on Redis (a pipeline, not a
  transaction: each command stands alone, as they did one by one). On another cache (the
  embedded default's memory) the same operations run one by one.
- `collected()`: while it is open, what `after_commit()` is given by a transaction's commit
  hooks waits, and goes out in one pipeline when the block ends. The hooks themselves are
  Django's `transaction.on_commit`: a rolled-back transaction or savepoint still drops its
  hooks, so nothing it wrote reaches the cache. Outside a block, `after_commit()` sends its
  batch at once.

A failing cache is no cache (lib/cache_failures.py): a batch that cannot be sent, or a
command in it that fails, is logged; a read that failed reads as nothing.
"""

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends import redis as django_redis

from lib.cache_failures import failing_cache_is_no_cache

log = logging.getLogger(__name__)

_clients: dict[tuple[str, str], object] = {}
_clients_lock = threading.Lock()


class _SharedClient(django_redis.RedisCacheClient):
    """Django's client, handing out the process's one `redis.Redis` for its server and
    options."""

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        server = self._servers[index]
        name = (server, repr(sorted(self._pool_options.items(), key=lambda item: item[0])))
        client = _clients.get(name)
        if client is None:
            with _clients_lock:
                client = _clients.get(name)
                if client is None:
                    pool = self._pool_class.from_url(server, **self._pool_options)
                    client = _clients[name] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """django.core.cache.backends.redis.RedisCache with one client per process."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _SharedClient


class Result:
    """What a read in a batch found, once the batch is sent (None before, or on a failure)."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = None


# SET the key to ARGV[1] (for ARGV[2] seconds) unless it holds a number at least as high.
RAISE_SCRIPT = """
local current = tonumber(redis.call('GET', KEYS[1]))
if current and current >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
"""
_local_lock = threading.Lock()


class Batch:
    """Cache operations sent together by `send()`: one round trip on Redis."""

    def __init__(self, alias: str = DEFAULT_CACHE_ALIAS) -> None:
        self.cache = caches[alias]
        self.operations: list[tuple[str, tuple, Result | None]] = []

    def __len__(self) -> int:
        return len(self.operations)

    def get(self, key: str) -> Result:
        result = Result()
        self.operations.append(("get", (key,), result))
        return result

    def set(self, key: str, value, timeout: int) -> None:
        self.operations.append(("set", (key, value, timeout), None))

    def add(self, key: str, value, timeout: int) -> Result:
        """Set the key unless it exists; the result's value: True if it was set."""
        result = Result()
        self.operations.append(("add", (key, value, timeout), result))
        return result

    def raise_to(self, key: str, number: int, timeout: int) -> None:
        """Set the key to `number` unless it holds a number at least as high, atomically."""
        self.operations.append(("raise_to", (key, number, timeout), None))

    def publish(self, channel: str, message: int | str, otherwise: Callable[[], None]) -> None:
        """PUBLISH on Redis's pub/sub, in the pipeline when this cache is the Redis of
        settings.REDIS_URL; `otherwise()` is called instead (after the batch) when it is not
        (games/push.py's announce: the embedded default's local channel)."""
        self.operations.append(("publish", (channel, message, otherwise), None))

    def extend(self, other: "Batch") -> None:
        self.operations.extend(other.operations)

    def send(self) -> None:
        operations, self.operations = self.operations, []
        if not operations:
            return
        # Publications last: a page told of a change finds what came with it in the cache.
        operations.sort(key=lambda operation: operation[0] == "publish")
        if isinstance(self.cache, django_redis.RedisCache):
            self._send_to_redis(operations)
        else:
            self._send_one_by_one(operations)

    def _send_to_redis(self, operations) -> None:
        cache = self.cache
        serializer = cache._cache._serializer
        # Pub/sub is the site's REDIS_URL's: this cache's server, or another.
        publish_here = cache._servers[0] == settings.REDIS_URL
        separately = []
        sent = []
        with failing_cache_is_no_cache(
            log, "a batch of %s cache operations failed", len(operations)
        ):
            pipeline = cache._cache.get_client(write=True).pipeline(transaction=False)
            for operation in operations:
                kind, args, _ = operation
                if kind == "publish":
                    if not publish_here:
                        separately.append(args[2])
                        continue
                    pipeline.publish(args[0], args[1])
                elif kind == "get":
                    pipeline.get(cache.make_and_validate_key(args[0]))
                elif kind == "set":
                    key, value, timeout = args
                    key = cache.make_and_validate_key(key)
                    timeout = cache.get_backend_timeout(timeout)
                    if timeout == 0:
                        pipeline.delete(key)
                    else:
                        pipeline.set(key, serializer.dumps(value), ex=timeout)
                elif kind == "add":
                    key, value, timeout = args
                    key = cache.make_and_validate_key(key)
                    pipeline.set(
                        key, serializer.dumps(value), ex=cache.get_backend_timeout(timeout), nx=True
                    )
                elif kind == "raise_to":
                    key, number, timeout = args
                    # Django's Redis cache stores an int as itself, so Lua compares numbers.
                    key = cache.make_and_validate_key(key)
                    pipeline.eval(RAISE_SCRIPT, 1, key, number, timeout)
                sent.append(operation)
            replies = pipeline.execute(raise_on_error=False) if sent else []
            for (kind, args, result), reply in zip(sent, replies, strict=True):
                if isinstance(reply, Exception):
                    log.warning("the cache failed (%s %s)", kind, args[0], exc_info=reply)
                elif kind == "get" and reply is not None:
                    with failing_cache_is_no_cache(
                        log, "could not read %s from the cache", args[0]
                    ):
                        result.value = serializer.loads(reply)
                elif kind == "add":
                    result.value = bool(reply)
        for otherwise in separately:
            otherwise()

    def _send_one_by_one(self, operations) -> None:
        cache = self.cache
        for kind, args, result in operations:
            if kind == "publish":
                args[2]()
                continue
            with failing_cache_is_no_cache(log, "the cache failed (%s %s)", kind, args[0]):
                if kind == "get":
                    result.value = cache.get(args[0])
                elif kind == "set":
                    cache.set(*args)
                elif kind == "add":
                    result.value = cache.add(*args)
                elif kind == "raise_to":
                    key, number, timeout = args
                    # One process's cache: a lock makes it atomic.
                    with _local_lock:
                        current = cache.get(key)
                        if current is None or current < number:
                            cache.set(key, number, timeout)


_collecting: ContextVar[Batch | None] = ContextVar("cache_batch_collecting", default=None)


@contextmanager
def collected() -> Iterator[None]:
    """Hold what `after_commit()` is given inside the block, and send it in one batch when
    the block ends (whether or not it raised: what was given was committed)."""
    if _collecting.get() is not None:
        yield
        return
    batch = Batch()
    token = _collecting.set(batch)
    try:
        yield
    finally:
        _collecting.reset(token)
        batch.send()


def after_commit(batch: Batch) -> None:
    """Send `batch` now, or with the others at the end of the `collected()` block it is in.
    Call it from a commit hook (`transaction.on_commit`), never inside a transaction."""
    collecting = _collecting.get()
    if collecting is not None:
        collecting.extend(batch)
    else:
        batch.send()
