"""Celery tasks: thin wrappers that call games.services or games.outbox. Arguments are JSON
(ids, not objects), and every task is safe to run twice."""

import logging

from celery import shared_task
from django.utils import timezone

from accounts.models import User
from games import outbox, services
from games.models import Outbox

logger = logging.getLogger(__name__)


@shared_task
def ping(token: str) -> str:
    """Echo the token back: shows that a worker picked the task up (used by tests)."""
    return token


@shared_task
def run_outbox(row_id: int) -> bool:
    return outbox.run(row_id)


@shared_task
def time_out(game_id: int, turn: int) -> bool:
    return services.time_out(game_id, turn)


@shared_task
def sweep() -> dict[str, int]:
    """Run every minute by beat: apply the timeout policy of every overdue game, and
    re-enqueue outbox rows that are due but were never run."""
    timed_out = 0
    for game_id, turn in services.overdue_games(timezone.now()):
        try:
            # A player who moved since the query wins: time_out then does nothing.
            timed_out += services.time_out(game_id, turn)
        except Exception:
            logger.exception(
                "timeout of game %s turn %s failed; the next sweep retries", game_id, turn
            )
    return {"timed_out": timed_out, "outbox_enqueued": outbox.enqueue_due()}


@shared_task
def daily_digest() -> int:
    """Once a day: a digest row for everyone who asked for one (at most one a day each)."""
    today = timezone.now().date().isoformat()
    users = User.objects.filter(notify=User.Notify.DAILY_DIGEST, is_active=True)
    count = 0
    for user_id in users.values_list("pk", flat=True).iterator():
        row = outbox.schedule(
            Outbox.Kind.DIGEST, {"user": user_id}, dedupe_key=f"{user_id}:{today}"
        )
        count += row is not None
    return count
