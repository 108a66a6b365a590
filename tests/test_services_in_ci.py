"""In CI these prove the suite really talks to PostgreSQL and Redis."""

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
