"""Sessions kept in the database and read from the cache (issue 15: a page or a move without
the session's query).

Django's `cached_db` store, made to tolerate a cache that fails, and to hold each session in
the cache only for a short while. The database stays the one source of truth: every write
goes there first, and a session missing from the cache is read from it.

- A cache that fails to read, write or answer is no cache (lib/cache_failures.py): the
  database answers, and the page works as with database sessions (Django's own store lets
  some of these errors out).
- A session deleted (a logout) while the cache cannot be reached stays in the cache until its
  entry expires: CACHE_SECONDS bounds that. Redis here keeps nothing on disk, so a restart
  forgets every entry; only a cache that was unreachable but kept its data can serve one.
- Use it only with a cache shared by every process (Redis): with each process's memory, a
  logout in one process would leave the session alive in another's.
"""

import logging

from asgiref.sync import sync_to_async
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore

from lib.cache_failures import failing_cache_is_no_cache

log = logging.getLogger(__name__)

# How long a session stays in the cache after it was last read from the database or saved.
CACHE_SECONDS = 300


class SessionStore(CachedDBStore):
    cache_key_prefix = "hanabi.sessions."

    # Django reads the session inside its `except AttributeError:` (no `_session_cache`
    # yet), so a database error there was raised "during handling of" that AttributeError,
    # and logs and error reports began with it, hiding the real cause (issue 25). Read
    # outside that block, the database's error is the only one.
    def _get_session(self, no_load: bool = False) -> dict:
        self.accessed = True
        if "_session_cache" not in self.__dict__:
            self._session_cache = {} if self.session_key is None or no_load else self.load()
        return self._session_cache

    async def _aget_session(self, no_load: bool = False) -> dict:
        self.accessed = True
        if "_session_cache" not in self.__dict__:
            self._session_cache = {} if self.session_key is None or no_load else await self.aload()
        return self._session_cache

    _session = property(_get_session)

    def load(self) -> dict:
        data = self._cache_call("get", self.cache_key)
        if data is not None:
            return data
        stored = self._get_session_from_db()
        if stored is None:
            return {}
        data = self.decode(stored.session_data)
        self._cache_call("set", self.cache_key, data, self._cache_seconds(stored.expire_date))
        return data

    async def aload(self) -> dict:
        return await sync_to_async(self.load)()

    def exists(self, session_key: str) -> bool:
        if session_key and self._cache_call("has_key", self.cache_key_prefix + session_key):
            return True
        return super(CachedDBStore, self).exists(session_key)

    def save(self, must_create: bool = False) -> None:
        super(CachedDBStore, self).save(must_create)  # the database first
        self._cache_call("set", self.cache_key, self._session, self._cache_seconds())

    def delete(self, session_key: str | None = None) -> None:
        super(CachedDBStore, self).delete(session_key)
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        self._cache_call("delete", self.cache_key_prefix + session_key)

    def _cache_seconds(self, expiry=None) -> int:
        return max(0, min(CACHE_SECONDS, self.get_expiry_age(expiry=expiry)))

    def _cache_call(self, method: str, *args):
        with failing_cache_is_no_cache(
            log, "the session cache failed (%s): using the database", method
        ):
            return getattr(self._cache, method)(*args)
        return None
