"""Celery tasks: thin wrappers that call games.services. Arguments are JSON (ids, not objects)."""

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task
def ping(token: str) -> str:
    """Echo the token back: shows that a worker picked the task up (used by tests)."""
    return token


@shared_task
def sweep() -> dict[str, int]:
    """Run every minute by beat. Later issues add the work it claims: overdue turn
    deadlines and outbox rows that are due but were never enqueued."""
    done: dict[str, int] = {}
    logger.debug("sweep: %s", done)
    return done
