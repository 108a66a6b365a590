import pytest

from hanabi_site.celery import app as celery_app


@pytest.mark.django_db
def test_healthz_reports_database_and_broker_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_healthz_names_the_broker_when_it_is_unreachable(client, monkeypatch):
    # A real connection attempt to a port where nothing listens.
    monkeypatch.setattr(celery_app.conf, "broker_write_url", "redis://127.0.0.1:1/0")
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failed"
    assert body["database"] == "ok"
    assert body["broker"].startswith("failed:")
