"""Idle push streams in one push process (issue 28): N streams held open on one uvicorn
process (hanabi_site.asgi, PostgreSQL and Redis as production), and what they cost.

    .venv/bin/python bench/streams.py --streams 1000
    .venv/bin/python bench/streams.py --streams 10000

Reports, for the uvicorn process: its memory (RSS), threads, open file descriptors and
PostgreSQL connections with no stream, with N open (after an idle spell, its CPU over that
spell), the time from one publish per game (one Redis pipeline) to each stream's event
(p50, p100), and the same figures after every stream has closed, with the channels still
subscribed in Redis (0 expected). The streams follow N/2 games (two players a game) on a
private channel prefix: the bench's own throwaway database (the channel's name holds the
database's name) and its own cache key prefix. The database is touched only by the push
process's presence write (one UPDATE every 20 s for every open stream's seat; the seats here
do not exist, so it changes nothing)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.services import add_service_arguments, recreate_database  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_figures(pid: int, database: str, pg: str) -> dict:
    status = Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    import psycopg

    with psycopg.connect(f"{pg}/postgres", autocommit=True) as connection:
        (connections,) = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database]
        ).fetchone()
    return {
        "rss_mb": round(int(fields["VmRSS"].split()[0]) / 1024, 1),
        "threads": int(fields["Threads"]),
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
        "pg_connections": connections,
    }


def cpu_seconds(pid: int) -> float:
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / CLOCK_TICKS  # utime + stime


class Client:
    """One stream, read by a coroutine that notes when each event arrives."""

    def __init__(self, game: int) -> None:
        self.game = game
        self.events: asyncio.Queue = asyncio.Queue()
        self.writer: asyncio.StreamWriter | None = None

    async def open(self, port: int, path: str, cookie: str) -> None:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"Cookie: {cookie}\r\n\r\n".encode()
        )
        await self.writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream refused: {status!r}")
        self.task = asyncio.ensure_future(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while line := await reader.readline():
            if line.startswith(b"data: "):
                self.events.put_nowait((time.perf_counter(), line[6:].strip().decode()))

    def close(self) -> None:
        self.task.cancel()
        self.writer.close()


async def run(args, port: int, pid: int, env: dict) -> dict:
    os.environ.update(env)
    import django

    django.setup()
    import redis.asyncio
    from django.conf import settings

    from games import push, push_token

    figures = {"streams": args.streams, "games": max(1, args.streams // 2)}
    figures["before"] = process_figures(pid, args.database, args.pg)
    games = figures["games"]
    clients = [Client(1 + i % games) for i in range(args.streams)]
    started = time.perf_counter()
    for start in range(0, len(clients), args.batch):
        opening = []
        for number, client in enumerate(clients[start : start + args.batch], start):
            session = f"bench{number}"
            token = push_token.mint(client.game, number, 10**9 + number, session)
            path = f"/games/{client.game}/events/?v=1&t={token}"
            opening.append(client.open(port, path, f"{settings.SESSION_COOKIE_NAME}={session}"))
        await asyncio.gather(*opening)
    figures["open_seconds"] = round(time.perf_counter() - started, 1)
    # Each stream's first event: "unknown" (the cache holds no version of these games).
    firsts = await asyncio.gather(
        *(asyncio.wait_for(c.events.get(), 120) for c in clients), return_exceptions=True
    )
    figures["first_event_missing"] = sum(isinstance(f, BaseException) for f in firsts)
    figures["first_event_s"] = round(
        max(at for at, _ in (f for f in firsts if not isinstance(f, BaseException))) - started, 1
    )
    await asyncio.sleep(2)
    cpu_before = cpu_seconds(pid)
    await asyncio.sleep(args.idle)
    figures["idle_cpu_percent"] = round(100 * (cpu_seconds(pid) - cpu_before) / args.idle, 2)
    figures["open"] = process_figures(pid, args.database, args.pg)

    publisher = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    pipeline = publisher.pipeline(transaction=False)
    for game in range(1, games + 1):
        pipeline.publish(push.channel(game), 2)
    published = time.perf_counter()
    await pipeline.execute()
    arrivals = await asyncio.gather(
        *(asyncio.wait_for(c.events.get(), 60) for c in clients), return_exceptions=True
    )
    delays = sorted(
        (a[0] - published) * 1000
        for a in arrivals
        if not isinstance(a, BaseException) and a[1] == "2"
    )
    figures["publish_missed"] = len(clients) - len(delays)
    figures["streams_ended"] = sum(c.task.done() for c in clients)
    figures["publish_to_event_ms"] = {
        "p50": round(statistics.median(delays), 1),
        "p100": round(delays[-1], 1),
    }

    for client in clients:
        client.close()
    await asyncio.sleep(3)
    figures["closed"] = process_figures(pid, args.database, args.pg)
    numsub = await publisher.pubsub_numsub(*(push.channel(g) for g in range(1, games + 1)))
    figures["closed"]["redis_channels_subscribed"] = sum(1 for _, count in numsub if count)
    await publisher.aclose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_service_arguments(parser, "hanabi_bench_streams")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idle CPU measured")
    parser.add_argument("--batch", type=int, default=500, help="streams opened at once")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
    if hard < args.streams + 1000:
        sys.exit(f"open files limited to {hard}: too few for {args.streams} streams")

    recreate_database(args.pg, args.database)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "hanabi_site.settings",
        "DATABASE_URL": f"{args.pg}/{args.database}",
        "REDIS_URL": args.redis_url,
        "CACHE_KEY_PREFIX": f"bench-streams-{secrets.token_hex(4)}",
        "SECRET_KEY": secrets.token_hex(32),
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SITE_URL": "http://127.0.0.1",
    }
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "hanabi_site.asgi:application"]
        + ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
        + ["--backlog", "4096", "--timeout-graceful-shutdown", "2"],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    sys.exit("uvicorn did not start")
                time.sleep(0.2)
        figures = asyncio.run(run(args, port, server.pid, env))
    finally:
        server.terminate()
        server.wait(timeout=30)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{figures['streams']} streams on {figures['games']} games, one uvicorn process")
    print(
        f"opened in {figures['open_seconds']} s (first events after {figures['first_event_s']} s",
        end="",
    )
    print(f", {figures['first_event_missing']} missing); idle CPU {figures['idle_cpu_percent']} %")
    print(
        f"publish (one per game, one pipeline) to event: {figures['publish_to_event_ms']} ms",
        end="",
    )
    print(f" ({figures['publish_missed']} missed; {figures['streams_ended']} streams ended)")
    for moment in ("before", "open", "closed"):
        print(f"{moment:>7}: {figures[moment]}")


if __name__ == "__main__":
    main()
