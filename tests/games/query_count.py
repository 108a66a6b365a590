"""Counting a service call's database statements, for the query bounds of a move
(tests/games/test_move_queries.py, whose docstring says what is counted and why six),
of a snapshot (test_snapshots.py) and of a page that moves (test_page_queries.py)."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

MOVE_QUERIES = 6


class Counted:
    def __init__(self, queries: list[dict]) -> None:
        self.all = [query["sql"] for query in queries]
        self.statements = [sql for sql in self.all if not _is_savepoint(sql)]

    def __len__(self) -> int:
        return len(self.statements)

    def outbox_inserts(self) -> int:
        return sum(sql.startswith('INSERT INTO "games_outbox"') for sql in self.statements)

    def __str__(self) -> str:
        return "\n".join(f"{n}. {sql}" for n, sql in enumerate(self.statements, 1))


def _is_savepoint(sql: str) -> bool:
    return sql.lstrip().upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO"))


def counted(call) -> tuple[object, Counted]:
    with CaptureQueriesContext(connection) as context:
        result = call()
    queries = Counted(context.captured_queries)
    assert queries.outbox_inserts() == 1, str(queries)  # a move's rows: one INSERT
    return result, queries
