"""What the benchmarks share: a throwaway PostgreSQL database, and Redis's Celery queue."""

from __future__ import annotations

import argparse


def _server_connection(server_url: str):
    import psycopg

    return psycopg.connect(f"{server_url.rstrip('/')}/postgres", autocommit=True)


def drop_database(server_url: str, database: str) -> None:
    from psycopg import sql

    with _server_connection(server_url) as connection:
        name = sql.Identifier(database)
        # FORCE: a process left over from an interrupted run must not keep the old one alive.
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))


def recreate_database(server_url: str, database: str) -> None:
    from psycopg import sql

    drop_database(server_url, database)
    with _server_connection(server_url) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))


def empty_broker_queue(redis_url: str) -> int:
    """Drop the tasks queued in the bench's Redis database (no worker runs them); how many."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        queued = client.llen("celery")
        client.delete("celery")
    finally:
        client.close()
    return queued


def add_service_arguments(parser: argparse.ArgumentParser, database: str) -> None:
    """The options every bench on real services takes: where PostgreSQL and Redis are, the
    throwaway database, and the output's form."""
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    parser.add_argument("--database", default=database, help="dropped, recreated")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
