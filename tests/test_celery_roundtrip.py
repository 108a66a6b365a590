"""A real Celery worker, in its own process, picks up a task and returns its result; each
worker of the Procfiles takes the tasks of its own queue only."""

import subprocess
import uuid
from pathlib import Path

import pytest
from celery import Celery
from django.conf import settings

from games.tasks import ping
from outbox import delivery
from tests.celery_helpers import (
    celery_config,
    celery_worker,
    procfile_command,
    procfile_process,
    wait_for,
)


@pytest.mark.redis
def test_task_round_trip_through_redis():
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    queue = f"test-{uuid.uuid4().hex}"
    token = uuid.uuid4().hex
    with celery_worker(queue), celery_config(task_always_eager=False):
        result = ping.apply_async(args=[token], queue=queue)
        assert result.get(timeout=60) == token


def filesystem_client(folder: Path) -> Celery:
    """A Celery app that sends through the embedded filesystem broker kept in `folder` (the
    site's VAR_DIR), as the site does without REDIS_URL."""
    broker_dir = folder / "broker"
    for path in (broker_dir / "queue", broker_dir / "control", folder / "celery-results"):
        path.mkdir(parents=True, exist_ok=True)
    return Celery(
        "client",
        set_as_current=False,  # the site's tasks stay bound to the site's app
        broker="filesystem://",
        backend=f"file://{folder / 'celery-results'}",
        broker_transport_options={
            "data_folder_in": str(broker_dir / "queue"),
            "data_folder_out": str(broker_dir / "queue"),
            "control_folder": str(broker_dir / "control"),
            "store_processed": False,
        },
    )


@pytest.mark.slow
def test_task_round_trip_through_the_embedded_filesystem_broker(tmp_path):
    """The default that needs no server must work across processes too."""
    client = filesystem_client(tmp_path)
    token = uuid.uuid4().hex
    with celery_worker("celery", VAR_DIR=str(tmp_path), REDIS_URL=None, DATABASE_URL=None):
        result = client.send_task("games.tasks.ping", args=[token])
        assert result.get(timeout=60) == token


@pytest.mark.slow  # two workers started one after the other
def test_the_embedded_broker_keeps_each_queue_to_its_own_worker_of_procfile_dev(tmp_path):
    """`python3 dev.py run` starts Procfile.dev's processes on the filesystem broker: its
    `worker` takes the default queue's tasks and leaves the analysis queue's, which its
    `analysis` worker takes. The analysis task is sent first: a worker that took every
    queue's tasks would take it before the other."""
    client = filesystem_client(tmp_path)
    waiting = tmp_path / "broker" / "queue"
    env = {"VAR_DIR": str(tmp_path), "REDIS_URL": None, "DATABASE_URL": None}
    env["CELERY_QUEUE"] = None  # the Procfile's default, as `dev.py run` has it
    analysis_token, default_token = uuid.uuid4().hex, uuid.uuid4().hex
    on_analysis = client.send_task("games.tasks.ping", [analysis_token], queue="celery-analysis")
    on_default = client.send_task("games.tasks.ping", [default_token], queue="celery")
    assert sorted(path.name.split(".", 1)[1] for path in waiting.iterdir()) == [
        "celery-analysis.msg",
        "celery.msg",
    ]

    with procfile_process("worker", **env):
        assert on_default.get(timeout=60) == default_token
        assert not on_analysis.ready()
        assert [path.name.split(".", 1)[1] for path in waiting.iterdir()] == ["celery-analysis.msg"]
    with procfile_process("analysis", **env):
        assert on_analysis.get(timeout=60) == analysis_token
    wait_for(lambda: not any(waiting.iterdir()), seconds=10)


@pytest.mark.parametrize("procfile", ["Procfile", "Procfile.dev"])
@pytest.mark.parametrize("default_queue", ["celery", "test-1234"])
def test_the_procfiles_analysis_worker_consumes_the_queue_analysis_rows_are_sent_to(
    procfile, default_queue
):
    """The worker's queue is written in the Procfile for the shell to expand: it must be the
    queue the outbox sends the analysis rows to (`delivery.queue_for`), whatever the default
    queue (CELERY_QUEUE, or Celery's own "celery" when unset)."""
    env = {} if default_queue == "celery" else {"CELERY_QUEUE": default_queue}
    command = procfile_command("analysis", procfile)
    expanded = subprocess.run(
        ["sh", "-c", f"printf '%s\\n' {command}"], env=env, capture_output=True, text=True
    ).stdout.split()
    queues = expanded[expanded.index("--queues") + 1]

    app = delivery.run_row.app
    with celery_config(task_default_queue=default_queue):
        assert queues == delivery.queue_for("analysis") == f"{default_queue}-analysis"
    assert app.conf.task_default_queue == settings.CELERY_TASK_DEFAULT_QUEUE
    # The default worker names no queue: it takes the default queue, and only that one.
    assert "--queues" not in procfile_command("worker", procfile)
    assert " -Q" not in procfile_command("worker", procfile)
