"""Running Celery for real in tests: a worker in its own process, and temporary changes to
the configuration of the app the site uses."""

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kombu import pools

from hanabi_site.celery import app as celery_app

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def celery_worker(queue: str, **env_overrides: str | None) -> Iterator[subprocess.Popen]:
    """A real worker process consuming `queue`; env_overrides set (or, with None, remove)
    environment variables, e.g. to point it at the test database or an SMTP server."""
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


@contextmanager
def celery_config(**changes) -> Iterator[None]:
    """Change the app's configuration for a while (its conf is not a plain object)."""
    before = {key: celery_app.conf[key] for key in changes}
    celery_app.conf.update(changes)
    _forget_broker_connections()
    try:
        yield
    finally:
        celery_app.conf.update(before)
        _forget_broker_connections()


def _forget_broker_connections() -> None:
    # The app keeps pools of connections and producers for the broker it first reached;
    # forget them so that the next task is sent to the broker configured now.
    pools.reset()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
