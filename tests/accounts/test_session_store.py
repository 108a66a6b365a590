"""accounts/sessions.py: sessions kept in the database, read from the cache; a failing cache
is no cache, and a session stays in the cache only CACHE_SECONDS."""

import traceback
from unittest.mock import patch

import pytest
from asgiref.sync import async_to_sync
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.db import OperationalError
from django.test import override_settings

from accounts import sessions
from accounts.sessions import SessionStore
from tests.cache_helpers import clear_cache

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


# Issue 25: with PostgreSQL refusing connections, pages answered 500 with "AttributeError:
# 'SessionStore' object has no attribute '_session_cache'", hiding the database's error:
# Django loads a session inside its `except AttributeError:` (no session read yet), so the
# database's error was raised "during handling of" the AttributeError, and the logged
# traceback and error report began with it. The database read of the session store alone
# is made to fail here: its error must be the one raised, and the only one.


def database_refuses(*args, **kwargs):
    raise OperationalError("sorry, too many clients already")


def assert_the_database_error_alone(error: BaseException) -> None:
    """The error, and the traceback a log or an error report shows of it: the database's
    error only, not "during handling of" another (a retry's own context is suppressed)."""
    assert isinstance(error, OperationalError)
    assert "too many clients" in str(error)
    shown = "".join(traceback.format_exception(error))
    assert "AttributeError" not in shown, shown
    assert "During handling of the above exception" not in shown, shown
    assert "direct cause of the following exception" not in shown, shown


def test_a_failing_database_read_of_a_session_raises_the_database_error(saved):
    caches["sessions"].clear()  # so that the session is read from the database
    store = SessionStore(saved.session_key)
    with patch.object(SessionStore, "_get_session_from_db", database_refuses):
        for _ in range(2):  # asked again, the store still tells the real error
            with pytest.raises(OperationalError) as raised:
                store["who"]
            assert_the_database_error_alone(raised.value)
    assert store["who"] == "alice"  # the database is back


def test_an_async_read_of_a_session_raises_the_database_error(saved):
    caches["sessions"].clear()
    store = SessionStore(saved.session_key)
    with patch.object(SessionStore, "_get_session_from_db", database_refuses):
        with pytest.raises(OperationalError) as raised:
            async_to_sync(store.aget)("who")
        assert_the_database_error_alone(raised.value)
    assert async_to_sync(store.aget)("who") == "alice"


@override_settings(SESSION_ENGINE="accounts.sessions")  # production's, with or without Redis here
def test_a_page_whose_session_cannot_be_read_raises_the_database_error(client, django_user_model):
    user = django_user_model.objects.create_user("alice@example.org", "a-long-password-1")
    client.force_login(user)
    clear_cache()  # this run's keys only: the default cache is a shared Redis under CI
    with (
        patch.object(SessionStore, "_get_session_from_db", database_refuses),
        pytest.raises(OperationalError) as raised,
    ):
        client.get("/accounts/profile/")
    assert_the_database_error_alone(raised.value)
