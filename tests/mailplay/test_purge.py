"""Processed replies are deleted after INBOUND_KEEP_DAYS days; waiting ones never."""

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from hanabi_site.celery import app
from mailplay.inbound import dedupe_key
from mailplay.models import InboundMessage
from mailplay.purge import purge_processed

pytestmark = pytest.mark.django_db
SERIAL = itertools.count()


def stored(status: str, processed_days_ago: float | None) -> InboundMessage:
    raw = f"Message-ID: <{next(SERIAL)}@x>\n\nplay 1".encode()
    processed_at = (
        None if processed_days_ago is None else timezone.now() - timedelta(days=processed_days_ago)
    )
    return InboundMessage.objects.create(
        source=InboundMessage.Source.SMTP,
        raw=raw,
        dedupe_key=dedupe_key(raw, ""),
        recipient="play+1-0-0-0123456789abcdef0123@localhost",
        status=status,
        processed_at=processed_at,
    )


def test_processed_replies_go_after_the_kept_days_and_waiting_ones_stay(settings):
    settings.INBOUND_KEEP_DAYS = 30
    old = [stored(status, 31) for status in ("moved", "answered", "ignored")]
    recent = stored("moved", 29)
    waiting = stored("received", None)
    assert purge_processed() == len(old)
    assert set(InboundMessage.objects.values_list("pk", flat=True)) == {recent.pk, waiting.pk}
    assert purge_processed() == 0


def test_many_are_deleted_in_batches():
    for _ in range(7):
        stored("moved", 40)
    assert purge_processed(batch=3) == 7
    assert not InboundMessage.objects.exists()


def test_beat_runs_the_purge_nightly(settings):
    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "mailplay.purge" in names
    app.loader.import_default_modules()
    assert "mailplay.purge" in app.tasks
