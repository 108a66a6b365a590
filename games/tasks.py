"""Celery tasks of the games app, and the outbox handler of a bot's move: thin wrappers that
call games.services. Arguments are JSON (ids, not objects), and each is safe to run twice."""

import logging

from celery import shared_task
from django.utils import timezone

from accounts.models import User
from games import outbox_kinds
from games.services import announce, clock, play
from outbox.models import Outbox
from outbox.registry import handler

logger = logging.getLogger(__name__)


@shared_task
def ping(token: str) -> str:
    """Echo the token back: shows that a worker picked the task up (used by tests)."""
    return token


@handler(outbox_kinds.BOT_MOVE)
def make_bot_move(row: Outbox) -> None:
    play.bot_move(row.payload["game"], row.payload["turn"])


@shared_task
def sweep_deadlines() -> int:
    """Run every minute by beat: apply the timeout policy of every overdue game."""
    timed_out = 0
    for game_id, turn in clock.overdue_games(timezone.now()):
        try:
            # A player who moved since the query wins: time_out then does nothing.
            timed_out += clock.time_out(game_id, turn)
        except Exception:
            logger.exception(
                "timeout of game %s turn %s failed; the next sweep retries", game_id, turn
            )
    return timed_out


@shared_task
def daily_digest() -> int:
    """Once a day: a digest row for everyone who asked for one (at most one a day each)."""
    today = timezone.now().date().isoformat()
    users = User.objects.filter(notify=User.Notify.DAILY_DIGEST, is_active=True)
    return sum(
        announce.daily_digest(user_id, today)
        for user_id in users.values_list("pk", flat=True).iterator()
    )
