"""Replies are kept raw (they quote the turn email) only as long as they may be needed: a
nightly task deletes those processed over INBOUND_KEEP_DAYS days ago. One waiting to be
processed is never deleted. A provider that delivered the same message again after that
would find it gone and its reply answered "that turn has passed": harmless, and a month
is far longer than any provider retries."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from lib.batches import delete_in_batches
from mailplay.models import InboundMessage

BATCH = 500  # raw messages are up to INBOUND_MAX_BYTES each


def purge_processed(older_than: timedelta | None = None, batch: int = BATCH) -> int:
    """Delete the messages processed longer ago than `older_than` (by default
    INBOUND_KEEP_DAYS days); how many were deleted."""
    if older_than is None:
        older_than = timedelta(days=settings.INBOUND_KEEP_DAYS)
    rows = InboundMessage.objects.exclude(status=InboundMessage.Status.RECEIVED).filter(
        processed_at__lt=timezone.now() - older_than
    )
    return delete_in_batches(rows, batch)


@shared_task(name="mailplay.purge", ignore_result=True)
def purge_inbound() -> int:
    """Run nightly by beat."""
    return purge_processed()
