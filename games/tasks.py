"""Celery tasks: thin wrappers that call games.services or games.outbox. Arguments are JSON
(ids, not objects), and every task is safe to run twice."""

from celery import shared_task

from games import outbox


@shared_task
def ping(token: str) -> str:
    """Echo the token back: shows that a worker picked the task up (used by tests)."""
    return token


@shared_task
def run_outbox(row_id: int) -> bool:
    return outbox.run(row_id)


@shared_task
def sweep() -> dict[str, int]:
    """Run every minute by beat: re-enqueue outbox rows that are due but were never run."""
    return {"outbox_enqueued": outbox.enqueue_due()}
