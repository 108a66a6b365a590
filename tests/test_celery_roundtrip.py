"""A real Celery worker, in its own process, picks up a task and returns its result."""

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from celery import Celery
from django.conf import settings

from games.tasks import ping

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def celery_worker(queue: str, **env_overrides: str | None) -> Iterator[subprocess.Popen]:
    environment = {**os.environ, "DEBUG": "true"}
    for key, value in env_overrides.items():
        if value is None:
            environment.pop(key, None)
        else:
            environment[key] = value
    quiet = "--pool=solo --loglevel=INFO --without-mingle --without-gossip --without-heartbeat"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "hanabi_site", "worker", "--queues", queue]
        + quiet.split(),
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield worker
    finally:
        worker.terminate()
        output, _ = worker.communicate(timeout=30)
        print(output)  # shown by pytest when the test fails


@pytest.mark.redis
def test_task_round_trip_through_redis():
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    queue = f"test-{uuid.uuid4().hex}"
    token = uuid.uuid4().hex
    with celery_worker(queue):
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
