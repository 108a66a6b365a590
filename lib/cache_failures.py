"""A failing cache is no cache.

What the site keeps in the cache (Redis) or sends through it (the push channel) is only ever
derived from the database, or a hint that the database can stand in for: a game's version and
who may poll it, rendered tables, engine states, sessions' copies, the last presence write,
a version published to open pages. So when the cache cannot be reached, answers too slowly
or hands back something unreadable, the code carries on as if the cache held nothing (a
read) or as if it had never been asked (a write): the page is slower, never wrong, and
never an error. Every kind of failure counts, not only a connection error: redis-py, the
cache backends and unpickling raise many classes, and none of them may turn a page or a
move that the database can serve into an error.

    with failing_cache_is_no_cache(log, "could not write game %s's version", game_id):
        cache.set(...)

A failure is logged at `level` with its traceback, and not raised.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def failing_cache_is_no_cache(
    log: logging.Logger, message: str, *args: object, level: int = logging.WARNING
) -> Iterator[None]:
    try:
        yield
    except Exception:
        log.log(level, message, *args, exc_info=True)
