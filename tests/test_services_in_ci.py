"""In CI these prove the suite really talks to PostgreSQL and Redis."""

from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection


@pytest.mark.postgres
@pytest.mark.django_db
def test_database_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert "PostgreSQL" in cursor.fetchone()[0]


@pytest.mark.redis
def test_redis_answers():
    client = redis.Redis.from_url(settings.REDIS_URL)
    assert client.ping() is True


@pytest.mark.redis
def test_the_cache_is_production_s_redis_under_this_run_s_prefix():
    from django.core.cache import cache

    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    cache.set("ci-probe", "seen in Redis")
    client = redis.Redis.from_url(settings.REDIS_URL)
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    assert prefix.startswith("hanabi-test-")  # never the site's own keys ("hanabi")
    assert client.get(f"{prefix}:1:ci-probe") is not None
    assert settings.POLL_FROM_CACHE is True


@pytest.mark.redis
@pytest.mark.django_db
def test_sessions_are_production_s_store_and_read_from_redis(client, alice):
    from django.contrib.sessions.models import Session

    from accounts.sessions import SessionStore

    assert settings.SESSION_ENGINE == "accounts.sessions"
    client.force_login(alice)
    session_key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert Session.objects.filter(session_key=session_key).exists()  # kept in the database
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    cached = f"{prefix}:1:{SessionStore.cache_key_prefix}{session_key}"
    assert redis.Redis.from_url(settings.REDIS_URL).exists(cached)  # read from Redis
    assert client.get("/").wsgi_request.user == alice


def test_static_files_are_production_s_hashed_and_compressed_names():
    from django.templatetags.static import static

    assert settings.STORAGES["staticfiles"]["BACKEND"].startswith("whitenoise.")
    assert static("css/site.css") != "/static/css/site.css"


def test_the_settings_never_ask_whether_tests_run():
    source = (Path(settings.BASE_DIR) / "hanabi_site" / "settings.py").read_text()
    assert "PYTEST" not in source and "RUNNING_TESTS" not in source
