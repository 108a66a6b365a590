"""A small TCP load balancer for bench/multihost.py: what a deployment's proxy does in front of
its web hosts, and no more.

    python bench/tcp_proxy.py --route 0.0.0.0:8000=10.77.0.11:8000,10.77.0.12:8000 \\
        --route 0.0.0.0:8081=10.77.0.11:8000 --stats /tmp/proxy.json

Each --route listens on one address and spreads its connections over its backends in turn.
With --health-path, each backend is asked for that path every --health-interval seconds and
takes connections only while it answers 200 (a server that is starting, or whose host lost
its database, gets none). A backend that refuses a connection (or does not accept it within
--connect-timeout) is skipped for --down-seconds and the connection goes to the next one:
nothing was sent yet, so that is always safe. With no backend healthy, each is tried anyway.
Once bytes have gone to a backend, the connection is only ever relayed: if the backend dies
mid-request the client's connection is closed, and the client decides whether to ask again
(a move carries its turn, so asking again is safe). With every backend refusing, the client
gets a 502.

SIGUSR1 writes the counters as JSON to --stats; SIGTERM writes them and stops.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import time
from dataclasses import dataclass, field

BAD_GATEWAY = (
    b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 11\r\nConnection: close\r\n\r\nBad Gateway"
)


@dataclass
class Backend:
    host: str
    port: int
    down_until: float = 0.0
    connections: int = 0  # relayed to it
    refused: int = 0  # connection attempts that failed
    cut: int = 0  # relayed connections it closed with an error
    healthy: bool = True
    health_changes: list = field(default_factory=list)  # (monotonic time, healthy)

    @property
    def name(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass
class Route:
    listen: str
    backends: list[Backend]
    next: int = 0
    accepted: int = 0
    bad_gateway: int = 0
    failovers: int = 0  # connections that went to another backend after a refusal
    by_backend: dict[str, int] = field(default_factory=dict)


def parse_route(text: str, backends: dict[str, Backend]) -> Route:
    listen, _, targets = text.partition("=")
    chosen = []
    for target in targets.split(","):
        host, _, port = target.rpartition(":")
        chosen.append(backends.setdefault(target, Backend(host, int(port))))
    return Route(listen, chosen)


async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        with contextlib.suppress(Exception):
            if writer.can_write_eof():
                writer.write_eof()


async def connect(route: Route, timeout: float, down_seconds: float):
    """A connection to the next backend that takes it, trying each at most once."""
    count = len(route.backends)
    now = time.monotonic()
    order = [route.backends[(route.next + i) % count] for i in range(count)]
    route.next = (route.next + 1) % count
    # Backends unhealthy or marked down go last, still tried if no other takes it.
    order.sort(key=lambda backend: (not backend.healthy, backend.down_until > now))
    for attempt, backend in enumerate(order):
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(backend.host, backend.port), timeout
            )
        except (TimeoutError, OSError):
            backend.refused += 1
            backend.down_until = time.monotonic() + down_seconds
            continue
        if attempt:
            route.failovers += 1
        backend.down_until = 0.0
        return backend, reader, writer
    return None


def handler(route: Route, timeout: float, down_seconds: float):
    async def handle(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter):
        route.accepted += 1
        try:
            found = await connect(route, timeout, down_seconds)
            if found is None:
                route.bad_gateway += 1
                client_writer.write(BAD_GATEWAY)
                await client_writer.drain()
                return
            backend, reader, writer = found
            backend.connections += 1
            route.by_backend[backend.name] = route.by_backend.get(backend.name, 0) + 1
            try:
                upstream = asyncio.ensure_future(relay(client_reader, writer))
                await relay(reader, client_writer)
                upstream.cancel()
            except (OSError, asyncio.IncompleteReadError):
                backend.cut += 1
            finally:
                writer.close()
        except OSError:
            pass
        finally:
            client_writer.close()

    return handle


async def check_health(backend: Backend, path: str, interval: float, timeout: float) -> None:
    """Ask the backend for `path` every `interval` seconds; healthy while it answers 200."""
    request = f"GET {path} HTTP/1.0\r\nHost: {backend.host}\r\n\r\n".encode()
    while True:
        healthy = False
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(backend.host, backend.port), timeout
            )
            try:
                writer.write(request)
                status = await asyncio.wait_for(reader.readline(), max(timeout, 5.0))
                healthy = status.split()[1:2] == [b"200"]
            finally:
                writer.close()
        except (OSError, TimeoutError, IndexError):
            pass
        if healthy != backend.healthy:
            backend.healthy = healthy
            backend.health_changes.append((round(time.monotonic(), 2), healthy))
        await asyncio.sleep(interval)


def stats(routes: list[Route], backends: dict[str, Backend]) -> dict:
    return {
        "routes": {
            route.listen: {
                "accepted": route.accepted,
                "bad_gateway": route.bad_gateway,
                "failovers": route.failovers,
                "by_backend": route.by_backend,
            }
            for route in routes
        },
        "backends": {
            name: {
                "connections": b.connections,
                "refused": b.refused,
                "cut": b.cut,
                "healthy": b.healthy,
                "health_changes": b.health_changes,
            }
            for name, b in backends.items()
        },
    }


async def serve(args: argparse.Namespace) -> None:
    backends: dict[str, Backend] = {}
    routes = [parse_route(text, backends) for text in args.route]
    servers = []
    for route in routes:
        host, _, port = route.listen.rpartition(":")
        servers.append(
            await asyncio.start_server(
                handler(route, args.connect_timeout, args.down_seconds),
                host,
                int(port),
                backlog=1024,
                reuse_address=True,
            )
        )
    if args.health_path:
        checks = [  # kept: the loop holds tasks weakly
            asyncio.ensure_future(
                check_health(backend, args.health_path, args.health_interval, args.connect_timeout)
            )
            for backend in backends.values()
        ]
    else:
        checks = []
    stop = asyncio.Event()

    def write_stats() -> None:
        if args.stats:
            with open(args.stats, "w") as output:
                json.dump(stats(routes, backends), output)

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, write_stats)
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    print("proxy listening: " + ", ".join(args.route), flush=True)
    await stop.wait()
    for server in servers:
        server.close()
    for check in checks:
        check.cancel()
    write_stats()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--route", action="append", required=True, help="listen=host:port,…")
    parser.add_argument("--connect-timeout", type=float, default=1.0)
    parser.add_argument("--down-seconds", type=float, default=1.0)
    parser.add_argument("--health-path", help="a path that answers 200 while a backend is well")
    parser.add_argument("--health-interval", type=float, default=0.5)
    parser.add_argument("--stats", help="where SIGUSR1 and SIGTERM write the counters")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
