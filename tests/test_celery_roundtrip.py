"""A real Celery worker, in its own process, picks up a task and returns its result."""

import uuid

import pytest
from celery import Celery
from django.conf import settings

from games.tasks import ping
from tests.celery_helpers import celery_config, celery_worker


@pytest.mark.redis
def test_task_round_trip_through_redis():
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    queue = f"test-{uuid.uuid4().hex}"
    token = uuid.uuid4().hex
    with celery_worker(queue), celery_config(task_always_eager=False):
        result = ping.apply_async(args=[token], queue=queue)
        assert result.get(timeout=60) == token


def test_task_round_trip_through_the_embedded_filesystem_broker(tmp_path):
    """The default that needs no server must work across processes too."""
    broker_dir = tmp_path / "broker"
    client = Celery(
        "client",
        broker="filesystem://",
        backend=f"file://{tmp_path / 'celery-results'}",
        broker_transport_options={
            "data_folder_in": str(broker_dir / "queue"),
            "data_folder_out": str(broker_dir / "queue"),
            "control_folder": str(broker_dir / "control"),
            "store_processed": False,
        },
    )
    for folder in (broker_dir / "queue", broker_dir / "control", tmp_path / "celery-results"):
        folder.mkdir(parents=True, exist_ok=True)
    token = uuid.uuid4().hex
    with celery_worker("celery", VAR_DIR=str(tmp_path), REDIS_URL=None, DATABASE_URL=None):
        result = client.send_task("games.tasks.ping", args=[token])
        assert result.get(timeout=60) == token
