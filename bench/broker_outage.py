"""How long a commit waits for its after-commit enqueues when Redis is up, stopped or
frozen. Not a test: it prints figures (issue 13: "a move answers at once whatever the
broker's state").

    .venv/bin/python bench/broker_outage.py                  # every case, 5 commits each
    .venv/bin/python bench/broker_outage.py --repeat 3 --json

Each case runs in a child process of its own, against a redis-server of its own on a free
port (never the shared one), so that Celery's pools start fresh and a case that hangs can
be cut off (--limit seconds); the parent stops that server whatever happens. The child
first sends a task with Redis up, as a web process that has been serving does (its pools
hold live connections), then puts Redis in the case's state and times --repeat commits,
each enqueueing --rows rows (1: a move; 7: the end of a 6-player game, its analysis and an
email to each player):

* states: "up"; "stopped" (killed: connections are refused); "frozen" (SIGSTOP: the kernel
  still accepts connections, nothing answers, as with a hung or partitioned server);
* configurations: "site" (settings.py and outbox/delivery.py as they are) and "defaults"
  (Celery's and kombu's own settings, and the enqueue as it was before issue 13: the result
  backend subscribed to, the publish retried).

Between commits the outbox forgets its last broker failure, as if the next commit came
after its pause (BROKER_PAUSE_SECONDS): each commit meets the broker afresh.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATES = ("up", "stopped", "frozen")
CONFIGURATIONS = ("site", "defaults")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_redis(port: int) -> subprocess.Popen:
    redis = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1"]
        + ["--save", "", "--appendonly", "no", "--daemonize", "no"],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return redis
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def child(state: str, configuration: str, rows: int, repeat: int, port: int, redis: int) -> None:
    """Runs in the child process, against the redis-server (pid `redis`) the parent started
    on `port`: prints one JSON line of commit times in seconds."""
    os.environ.update(REDIS_URL=f"redis://127.0.0.1:{port}/0", DEBUG="true")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanabi_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from datetime import timedelta

    from outbox import delivery

    app = delivery.run_row.app
    queue = f"bench-{port}"
    app.conf.task_default_queue = queue

    if configuration == "site":

        def enqueue(row_id: int) -> None:
            delivery._enqueue_unless_the_broker_just_failed(row_id, "your_turn", timedelta(0))

    else:
        app.conf.update(
            broker_connection_timeout=4,
            task_publish_retry=True,
            broker_transport_options={},
            redis_socket_connect_timeout=None,
            redis_socket_timeout=120.0,
            result_backend_transport_options={},
        )

        def enqueue(row_id: int) -> None:
            # outbox/delivery.py's _enqueue before issue 13, which logged the failure
            with contextlib.suppress(Exception):
                delivery.run_row.apply_async((row_id,), ignore_result=False)

    enqueue(0)  # warm: the pools now hold live connections
    if state == "stopped":
        os.kill(redis, signal.SIGKILL)
    elif state == "frozen":
        os.kill(redis, signal.SIGSTOP)
    seconds = []
    for _ in range(repeat):
        delivery.forget_broker_failure()
        started = time.perf_counter()
        for row_id in range(rows):
            enqueue(row_id)
        seconds.append(time.perf_counter() - started)
    print(json.dumps(seconds), flush=True)


def measure(state: str, configuration: str, rows: int, repeat: int, limit: float) -> dict:
    # The parent owns the redis-server, so that it is stopped even when a case is cut off.
    port = free_port()
    redis = start_redis(port)
    arguments = [state, configuration, str(rows), str(repeat), str(port), str(redis.pid)]
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--child", *arguments],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=limit,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return {"state": state, "configuration": configuration, "rows": rows, "hung": limit}
    finally:
        if redis.poll() is None:
            redis.send_signal(signal.SIGCONT)
            redis.kill()
        redis.wait()
    seconds = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "state": state,
        "configuration": configuration,
        "rows": rows,
        "median": statistics.median(seconds),
        "max": max(seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="1,7", help="rows enqueued per commit")
    parser.add_argument("--repeat", type=int, default=5, help="commits per case")
    parser.add_argument(
        "--limit", type=float, default=180.0, help="seconds before a case is cut off"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        state, configuration, *numbers = args.child
        child(state, configuration, *(int(number) for number in numbers))
        return
    results = [
        measure(state, configuration, int(rows), args.repeat, args.limit)
        for rows in args.rows.split(",")
        for state in STATES
        for configuration in CONFIGURATIONS
    ]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'rows':>4}  {'Redis':<8} {'configuration':<14} {'median':>10} {'max':>10}")
    for result in results:
        if "hung" in result:
            figures = f"{'> ' + format(result['hung'], '.0f') + ' s (cut off)':>21}"
        else:
            figures = f"{result['median'] * 1000:>8.1f} ms {result['max'] * 1000:>8.1f} ms"
        print(f"{result['rows']:>4}  {result['state']:<8} {result['configuration']:<14} {figures}")


if __name__ == "__main__":
    main()
