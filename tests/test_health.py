"""/healthz answers 200 when the database and the broker answer, and 503 naming what failed:
the exception's text (hosts, ports, paths) goes to the log, never to the public."""

import logging

import pytest
from django.db import connection

from hanabi_site import health
from tests.celery_helpers import celery_config

UNREACHABLE_BROKER = "redis://127.0.0.1:1/0"  # a port where nothing listens


@pytest.mark.django_db
def test_healthz_reports_database_and_broker_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_healthz_names_the_broker_when_it_is_unreachable_and_logs_why(client, caplog):
    # A real connection attempt, refused. (Through celery_config: a monkeypatched
    # conf.broker_write_url is "restored" to the broker URL it resolved to, and every later
    # test in the process would then send its tasks there.)
    with (
        celery_config(broker_write_url=UNREACHABLE_BROKER),
        caplog.at_level(logging.ERROR, logger="hanabi_site.health"),
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "failed", "database": "ok", "broker": "failed"}
    assert "127.0.0.1:1" not in response.content.decode()
    (record,) = [r for r in caplog.records if r.name == "hanabi_site.health"]
    assert record.getMessage() == "health check failed: broker"
    assert "Connection refused" in record.exc_text  # the reason is in the log


@pytest.mark.django_db
def test_healthz_names_the_database_when_it_fails_and_shows_none_of_the_error(
    client, monkeypatch, caplog
):
    secret = "password authentication failed for user hanabi at db.internal:5432"

    class BrokenCursor:
        def __enter__(self):
            raise connection.Database.OperationalError(secret)

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(health.connection, "cursor", lambda: BrokenCursor())
    with caplog.at_level(logging.ERROR, logger="hanabi_site.health"):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "failed", "database": "failed", "broker": "ok"}
    assert secret not in response.content.decode()
    assert secret in caplog.text
