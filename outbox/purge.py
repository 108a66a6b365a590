"""Deleting the outbox rows that are done, so that the table holds the work in hand and a
week of history, not every email the site ever sent (they were about half of a finished
game's bytes on disk: bench/disk.py).

`purge_done()` deletes the rows done (sent, carried out, or given up after MAX_ATTEMPTS)
longer ago than `settings.OUTBOX_KEEP_DAYS` (7 by default), at most BATCH rows per DELETE,
each in its own transaction, so a large backlog never holds a long lock. Beat runs it
nightly (the task `outbox.purge`); running it twice, or two at once, deletes nothing more.

Rows that are not done (waiting, claimed, failing and waiting to retry) are never deleted,
however old: they are work still to do.

**Rows with a dedupe key.** A row with a `dedupe_key` is also a record: `schedule()` refuses
a second row of the same kind and key for as long as the first exists, so deleting it would
let the same key be written again. Such a row may go only once its key can never come back.
Every kind written with a key (`dedupe_key=` in games/services/announce.py; accounts,
moderation and mailplay write none) is listed in KEY_CANNOT_RECUR_AFTER, with how long after
the row is done its key is certain not to recur; rows of any other kind with a key are
kept, so a kind that starts using a key stays safe until someone reasons about it here:

* `analysis` (key: the game) and `game_over` (key: game and player): written only by
  `announce.game_over()`, which runs in the transaction that moves a game from playing to
  finished, under the game's lock (`play.apply_action` at the last move, and
  `clock._end_timed_out`, both of which first check that the game is in play). Finished is
  final: nothing sets a finished game's status again, and PostgreSQL never hands out a game
  id twice. So the key cannot come again, after a week or ever, and the row may go with
  the others. (A future data migration that looks for finished games without an analysis,
  as games/migrations/0008 did, must look at `DealAnalysis`, not at the outbox.)
* `digest` (key: player and the UTC day `games.tasks.daily_digest` ran on): the same key
  does come again the same day, whenever the task runs more than once (beat restarted, a
  retry, an operator), and must then find the row. It cannot once the day is over, since
  the day is today's date. A row is done after it is written, so a row done more than two
  days ago (one for the day, one for clocks that disagree) has a key that is past: the
  digest's rows are kept at least that long, whatever `older_than` says.
"""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from lib.batches import delete_in_batches
from outbox.models import Outbox

logger = logging.getLogger(__name__)

# Rows per DELETE: each statement is short, and the rows it locks are done (no worker
# touches them), so the purge never makes a move's commit wait.
BATCH = 1000
DAY = timedelta(days=1)

# For each kind written with a dedupe key: how long after its row is done the key is sure
# never to be scheduled again (see the module's docstring). A kind missing here keeps its
# keyed rows forever.
KEY_CANNOT_RECUR_AFTER: dict[str, timedelta] = {
    Outbox.Kind.ANALYSIS: timedelta(0),
    Outbox.Kind.GAME_OVER: timedelta(0),
    Outbox.Kind.DIGEST: timedelta(days=2),
}


def purgeable(older_than: timedelta) -> Q:
    """The rows purge_done deletes: done before now - older_than and, for a row with a
    dedupe key, of a kind whose key can no longer recur."""
    now = timezone.now()
    keyed = Q()
    for kind, recur_after in KEY_CANNOT_RECUR_AFTER.items():
        keyed |= Q(kind=kind, done_at__lt=now - max(older_than, recur_after))
    return Q(done_at__lt=now - older_than) & (Q(dedupe_key="") | keyed)


def purge_done(older_than: timedelta | None = None, batch: int = BATCH) -> int:
    """Delete the rows done longer ago than `older_than` (by default OUTBOX_KEEP_DAYS days),
    `batch` at a time, oldest first; how many were deleted."""
    if older_than is None:
        older_than = timedelta(days=settings.OUTBOX_KEEP_DAYS)
    if older_than < timedelta(0):
        raise ValueError(f"older_than must not be negative: {older_than}")
    deleted = delete_in_batches(Outbox.objects.filter(purgeable(older_than)), batch)
    if deleted:
        logger.info("outbox: %d rows done over %s days ago purged", deleted, older_than / DAY)
    return deleted


@shared_task(name="outbox.purge", ignore_result=True)
def purge_outbox() -> int:
    """Run nightly by beat: delete the rows done over OUTBOX_KEEP_DAYS days ago."""
    return purge_done()
