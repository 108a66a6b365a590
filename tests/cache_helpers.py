"""The test run's cache, read and emptied without touching anything else on a shared Redis."""

from django.conf import settings
from django.core.cache import cache


def cache_keys(contains: str = "") -> list[str]:
    """This run's cache keys holding `contains`, as stored (prefix:version:key), whichever
    backend runs: Redis with this run's prefix (tests/run_environment.py), or the memory."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX")
    if prefix:
        client = cache._cache.get_client()
        found = client.scan_iter(match=f"{prefix}:*", count=1000)
        keys = [key.decode() for key in found]
    else:
        keys = list(cache._cache)
    return [key for key in keys if contains in key]


def unprefixed(key: str) -> str:
    """The key a caller gave, from the key as stored."""
    return key.split(":", 2)[2]


def clear_cache() -> None:
    """Empty this run's cache: with Redis, delete this run's keys, never flush a server that
    other runs or a site may share."""
    keys = cache_keys()
    if keys:
        cache.delete_many([unprefixed(key) for key in keys])
