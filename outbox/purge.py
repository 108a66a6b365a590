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
let the same key be written again. Such a row may go only once its key can never come back:
the app that writes a kind with a key registers how long after the row is done its key is
certain not to recur (`key_cannot_recur_after`, outbox/registry.py; the reasoning for each
is beside its registration, e.g. games/outbox_kinds.py). Keyed rows of any other kind are
kept, so a kind that starts using a key stays safe until someone reasons about it there.
"""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from lib.batches import delete_in_batches
from outbox import registry
from outbox.models import Outbox

logger = logging.getLogger(__name__)

# Rows per DELETE: each statement is short, and the rows it locks are done (no worker
# touches them), so the purge never makes a move's commit wait.
BATCH = 1000
DAY = timedelta(days=1)


def key_cannot_recur_after() -> dict[str, timedelta]:
    """For each kind whose keyed rows may be purged: how long after its row is done the key
    is sure never to be scheduled again (a kind missing here keeps its keyed rows forever)."""
    return {
        kind.name: kind.key_cannot_recur_after
        for kind in registry.kinds()
        if kind.key_cannot_recur_after is not None
    }


def purgeable(older_than: timedelta) -> Q:
    """The rows purge_done deletes: done before now - older_than and, for a row with a
    dedupe key, of a kind whose key can no longer recur."""
    now = timezone.now()
    keyed = Q()
    for kind, recur_after in key_cannot_recur_after().items():
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
