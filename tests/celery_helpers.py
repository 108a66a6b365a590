"""Running Celery for real in tests: a worker in its own process, a Redis server of the
test's own (which it may stop and start), and temporary changes to the configuration of the
app the site uses."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection
from kombu import pools

from hanabi_site.celery import app as celery_app
from outbox import delivery

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def celery_worker(
    queue: str, pool: str = "solo", concurrency: int = 1, **env_overrides: str | None
) -> Iterator[subprocess.Popen]:
    """A real worker process consuming `queue`; env_overrides set (or, with None, remove)
    environment variables, e.g. to point it at the test database or an SMTP server. With
    pool="prefork", `concurrency` child processes run the tasks, and the worker replaces
    one that dies (within 5 s: billiard's upkeep interval)."""
    quiet = "--loglevel=INFO --without-mingle --without-gossip --without-heartbeat"
    pool_options = [f"--pool={pool}"] + ([] if pool == "solo" else [f"--concurrency={concurrency}"])
    command = [sys.executable, "-m", "celery", "-A", "hanabi_site", "worker", "--queues", queue]
    with _process(command + pool_options + quiet.split(), env_overrides) as worker:
        yield worker


def procfile_command(name: str, procfile: str = "Procfile.dev") -> str:
    """The command of the process `name` in the Procfile (as honcho and Heroku read it)."""
    for line in (ROOT / procfile).read_text().splitlines():
        process, _, command = line.partition(":")
        if process.strip() == name:
            return command.strip()
    raise LookupError(f"{procfile} has no process {name!r}")


@contextmanager
def procfile_process(
    name: str, procfile: str = "Procfile.dev", **env_overrides: str | None
) -> Iterator[subprocess.Popen]:
    """The Procfile's process `name`, run as honcho runs it (by the shell, which expands its
    variables), with this environment's Python first on the PATH; env_overrides as for
    celery_worker."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env_overrides = {"PATH": path, **env_overrides}
    # exec: the shell becomes the process, which is then stopped as a worker is.
    with _process(f"exec {procfile_command(name, procfile)}", env_overrides) as process:
        yield process


@contextmanager
def _process(
    command: list[str] | str, env_overrides: dict[str, str | None]
) -> Iterator[subprocess.Popen]:
    """A process of the site (a string: run by the shell), stopped at the end; what it
    prints is shown when the test fails."""
    environment = {**os.environ, "DEBUG": "true"}
    for key, value in env_overrides.items():
        if value is None:
            environment.pop(key, None)
        else:
            environment[key] = value
    # Its output goes to a file, not a pipe: a pipe nobody reads until the end fills up
    # after a few hundred tasks' log lines, and the worker then blocks.
    with tempfile.TemporaryFile(mode="w+") as log:
        process = subprocess.Popen(
            command,
            shell=isinstance(command, str),
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            yield process
        finally:
            process.terminate()  # a worker's warm shutdown: the task it runs may finish
            process.wait(timeout=30)
            log.seek(0)
            print(log.read())  # shown by pytest when the test fails


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
    # The app keeps pools of connections and producers for the broker it first reached,
    # and its result backend; forget them so that the next task is sent to the broker
    # configured now. The outbox forgets that a broker failed a moment ago.
    pools.reset()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    celery_app._backend_cache = None
    celery_app._local.__dict__.pop("backend", None)
    delivery.forget_broker_failure()


def wait_for_port(port: int, process: subprocess.Popen, what: str, seconds: float = 30) -> None:
    """Wait until `process` (just started) accepts connections on 127.0.0.1:`port`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise AssertionError(f"{what} did not start on port {port}") from None
            time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """A redis-server of the test's own on a free port, which the test may stop and start
    again on the same port (never the shared one that other tests use)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no", "--daemonize", "no"],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError as refused:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    message = f"redis-server did not start on port {self.port}"
                    raise RuntimeError(message) from refused
                time.sleep(0.02)

    def stop(self) -> None:
        """Killed, as a crash or a lost machine would stop it: connections are refused."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    """A running RedisServer, killed at the end."""
    if not shutil.which("redis-server"):
        if os.environ.get("CI"):
            raise RuntimeError("redis-server is not installed")
        pytest.skip("needs redis-server (apt install redis-server)")
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def wait_for(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the worker")
        time.sleep(0.1)


def database_url_of_this_test() -> str:
    """The URL of the (PostgreSQL) database this test runs on, for a worker to share it."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


def child_processes(parent: subprocess.Popen) -> list[int]:
    """The pids of a process's children: a prefork worker's pool processes."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # "pid (command) state ppid …": the command may hold spaces and parentheses.
            state_and_more = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(state_and_more[1]) == parent.pid:
            children.append(int(stat.parent.name))
    return children


def process_connected_from(port: int, to_port: int, candidates: list[int]) -> int:
    """Which of the candidate processes holds the TCP connection from local `port` to
    `to_port` on 127.0.0.1 (found through /proc/net/tcp and each process's descriptors)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if int(local.split(":")[1], 16) == port and int(remote.split(":")[1], 16) == to_port:
            inodes.add(f"socket:[{inode}]")
    for pid in candidates:
        try:
            descriptors = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        for descriptor in descriptors:
            try:
                if os.readlink(descriptor) in inodes:
                    return pid
            except OSError:
                continue
    raise LookupError(f"no process among {candidates} is connected from port {port}")
