"""accounts/sessions.py: sessions kept in the database, read from the cache; a failing cache
is no cache, and a session stays in the cache only CACHE_SECONDS."""

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.test import override_settings

from accounts import sessions
from accounts.sessions import SessionStore

TIMEOUTS: list[int] = []


class BrokenCache(BaseCache):
    """Redis stopped: every call fails."""

    def __init__(self, location, params):
        super().__init__(params)

    def _fail(self, *args, **kwargs):
        raise ConnectionError("the cache is down")

    get = set = add = delete = has_key = touch = clear = _fail


class RecordingCache(LocMemCache):
    """Remembers the timeout of every set."""

    def set(self, key, value, timeout=None, version=None):
        TIMEOUTS.append(timeout)
        super().set(key, value, timeout, version)


def with_session_cache(backend: str):
    return override_settings(
        CACHES={
            "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "sessions": {"BACKEND": backend, "LOCATION": backend},
        },
        SESSION_CACHE_ALIAS="sessions",
    )


pytestmark = pytest.mark.django_db


@pytest.fixture
def saved():
    with with_session_cache("tests.accounts.test_session_store.RecordingCache"):
        caches["sessions"].clear()
        TIMEOUTS.clear()
        store = SessionStore()
        store["who"] = "alice"
        store.save(must_create=True)
        yield store


def test_a_saved_session_is_read_from_the_cache_without_a_query(saved, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert SessionStore(saved.session_key)["who"] == "alice"


def test_a_session_missing_from_the_cache_is_read_from_the_database_and_cached(
    saved, django_assert_num_queries
):
    caches["sessions"].clear()
    with django_assert_num_queries(1):
        assert SessionStore(saved.session_key)["who"] == "alice"
    with django_assert_num_queries(0):
        assert SessionStore(saved.session_key)["who"] == "alice"


def test_the_database_holds_every_session(saved):
    stored = Session.objects.get(session_key=saved.session_key)
    assert SessionStore().decode(stored.session_data) == {"who": "alice"}


def test_a_session_stays_in_the_cache_only_a_short_while(saved):
    caches["sessions"].clear()
    SessionStore(saved.session_key).load()
    assert TIMEOUTS and all(0 < t <= sessions.CACHE_SECONDS for t in TIMEOUTS)


def test_a_deleted_session_is_gone_from_the_cache_too(saved):
    saved.delete()
    assert SessionStore(saved.session_key).load() == {}
    assert not SessionStore().exists(saved.session_key)


@with_session_cache("tests.accounts.test_session_store.BrokenCache")
def test_with_the_cache_down_sessions_work_from_the_database():
    store = SessionStore()
    store["who"] = "bob"
    store.save(must_create=True)
    assert SessionStore(store.session_key)["who"] == "bob"
    assert SessionStore().exists(store.session_key)
    store.delete()
    assert not Session.objects.filter(session_key=store.session_key).exists()
    assert SessionStore(store.session_key).load() == {}


@with_session_cache("tests.accounts.test_session_store.BrokenCache")
def test_with_the_cache_down_a_logged_in_page_still_renders(client, django_user_model):
    user = django_user_model.objects.create_user(email="dana@example.com", password="pw-dana-1")
    with override_settings(SESSION_ENGINE="accounts.sessions"):
        client.force_login(user)
        assert client.get("/").status_code == 200
        assert client.get("/").context["user"] == user
