"""The nightly purge deletes outbox rows done over OUTBOX_KEEP_DAYS days ago, in batches, and
never a row still to do, nor a dedupe record whose key could still come again."""

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import tasks
from games.errors import GameError
from games.services import clock, play
from outbox import purge
from outbox.models import Outbox
from outbox.purge import key_cannot_recur_after, purge_done, purge_outbox
from tests.games.conftest import play_to_the_end, start_game

ROOT = Path(__file__).resolve().parents[2]
DAY = timedelta(days=1)

pytestmark = pytest.mark.django_db


def add_row(
    done_ago: timedelta | None,
    created_ago: timedelta = timedelta(days=30),
    kind: str = "your_turn",
    dedupe_key: str = "",
    **fields,
) -> Outbox:
    """A row created `created_ago` and done `done_ago` (None: not done)."""
    now = timezone.now()
    row = Outbox.objects.create(
        kind=kind,
        payload={"game": 1, "turn": 0},
        due_at=now - created_ago,
        done_at=None if done_ago is None else now - done_ago,
        dedupe_key=dedupe_key,
        **fields,
    )
    return row


def remaining() -> set[int]:
    return set(Outbox.objects.values_list("pk", flat=True))


def deletes(queries: CaptureQueriesContext) -> int:
    return sum(query["sql"].startswith("DELETE") for query in queries.captured_queries)


class Clock:
    """timezone.now() at a chosen moment, for everything that asks (the services, the row's
    created_at, the purge)."""

    def __init__(self, monkeypatch, at: datetime) -> None:
        self.at = at
        monkeypatch.setattr(timezone, "now", lambda: self.at)


# -- what goes, what stays ------------------------------------------------------------------


def test_rows_done_over_the_kept_days_ago_go_and_recent_ones_stay(settings):
    assert settings.OUTBOX_KEEP_DAYS == 7
    old = [add_row(done_ago=timedelta(days=7, minutes=1)), add_row(done_ago=timedelta(days=90))]
    recent = [add_row(done_ago=timedelta(days=6, hours=23)), add_row(done_ago=timedelta(0))]

    assert purge_done() == 2
    assert remaining() == {row.pk for row in recent}
    assert {row.pk for row in old}.isdisjoint(remaining())


def test_the_setting_and_the_argument_choose_the_age(settings):
    rows = {days: add_row(done_ago=timedelta(days=days, minutes=1)) for days in (1, 5, 10)}
    assert purge_done() == 1  # 7 days: the 10-day-old one
    settings.OUTBOX_KEEP_DAYS = 3
    assert purge_done() == 1  # the 5-day-old one
    assert remaining() == {rows[1].pk}
    assert purge_done(older_than=timedelta(days=2)) == 0
    assert purge_done(older_than=timedelta(0)) == 1
    assert remaining() == set()


def test_rows_not_done_stay_whatever_their_age():
    long_ago = timedelta(days=400)
    waiting = add_row(done_ago=None, created_ago=long_ago)
    claimed = add_row(done_ago=None, created_ago=long_ago, claimed_at=timezone.now() - long_ago)
    failing = add_row(done_ago=None, created_ago=long_ago, attempts=5, last_error="SMTP: 451")
    done = add_row(done_ago=long_ago, created_ago=long_ago)

    assert purge_done(older_than=timedelta(0)) == 1
    assert remaining() == {waiting.pk, claimed.pk, failing.pk}
    assert done.pk not in remaining()


def test_a_row_given_up_on_is_done_and_goes_like_the_others():
    """After MAX_ATTEMPTS a row is marked done with its last error: nothing runs it again,
    and the error stays in the admin for the kept days (and in the log for good)."""
    given_up = add_row(done_ago=timedelta(days=8), attempts=8, last_error="SMTP: 554")
    assert purge_done() == 1
    assert given_up.pk not in remaining()


def test_a_backlog_larger_than_a_batch_goes_in_several_short_deletes():
    now = timezone.now()
    Outbox.objects.bulk_create(
        Outbox(kind="your_turn", payload={}, due_at=now, done_at=now - 30 * DAY)
        for _ in range(2 * purge.BATCH + 1)
    )
    kept = add_row(done_ago=DAY)

    with CaptureQueriesContext(connection) as queries:
        assert purge_done() == 2 * purge.BATCH + 1
    assert deletes(queries) == 3  # 1,000 + 1,000 + 1, one statement each
    assert remaining() == {kept.pk}


def test_batches_of_any_size_count_every_row_once():
    rows = [add_row(done_ago=timedelta(days=8 + n)) for n in range(25)]
    kept = [add_row(done_ago=None) for _ in range(3)] + [add_row(done_ago=DAY)]

    with CaptureQueriesContext(connection) as queries:
        assert purge_done(batch=10) == 25
    assert deletes(queries) == 3
    assert remaining() == {row.pk for row in kept}
    assert purge_done(batch=10) == 0  # idempotent: a second run finds nothing
    assert not {row.pk for row in rows} & remaining()


def test_a_negative_age_is_refused():
    add_row(done_ago=DAY)
    with pytest.raises(ValueError, match="negative"):
        purge_done(older_than=-DAY)
    assert len(remaining()) == 1


def test_the_task_purges_with_the_setting_and_runs_twice_harmlessly(settings):
    settings.OUTBOX_KEEP_DAYS = 2
    add_row(done_ago=3 * DAY)
    kept = add_row(done_ago=DAY)

    purge_outbox.delay()  # as beat sends it (run here, eagerly)
    assert remaining() == {kept.pk}
    assert purge_outbox() == 0


def test_beat_runs_the_purge_nightly_and_every_beat_task_is_registered_in_a_worker(settings):
    """As a worker starts: Django set up, Celery's autodiscovery of each app's tasks module.
    A fresh process, so that nothing this test imported counts."""
    entry = settings.CELERY_BEAT_SCHEDULE["outbox-purge"]
    assert entry["task"] == "outbox.purge"
    assert (entry["schedule"].hour, entry["schedule"].minute) == ({3}, {30})

    script = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        "from hanabi_site.celery import app\n"
        "app.loader.import_default_modules()\n"
        "beat = {e['task'] for e in settings.CELERY_BEAT_SCHEDULE.values()}\n"
        "print(' '.join(sorted(beat - set(app.tasks))) or 'ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "hanabi_site.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok", f"beat tasks no worker knows: {result.stdout}"


# -- dedupe records -------------------------------------------------------------------------


def test_a_keyed_row_of_a_kind_nobody_has_reasoned_about_is_kept_for_good():
    assert "invitation" not in key_cannot_recur_after()
    keyed = add_row(done_ago=timedelta(days=400), kind="invitation", dedupe_key="k")
    plain = add_row(done_ago=timedelta(days=400), kind="invitation")

    assert purge_done(older_than=timedelta(0)) == 1
    assert remaining() == {keyed.pk}
    assert plain.pk not in remaining()


def test_a_finished_game_s_keyed_rows_go_and_nothing_can_announce_its_end_again(
    monkeypatch, alice, bob
):
    """The game-over emails and the analysis are keyed by the game: once purged, a second
    row would be written if anything announced the game's end again. Nothing can: finished
    is final. Every kind a game writes with a key is one the purge has reasoned about."""
    game = play_to_the_end(start_game(alice, bob, turn_time_limit=24))
    keyed = Outbox.objects.exclude(dedupe_key="")
    assert sorted(keyed.values_list("kind", flat=True)) == ["analysis", "game_over", "game_over"]
    assert set(keyed.values_list("kind", flat=True)) <= set(key_cannot_recur_after())
    Outbox.objects.update(done_at=timezone.now())  # every row carried out

    written = Outbox.objects.count()
    Clock(monkeypatch, timezone.now() + timedelta(days=8))
    assert purge_done() == written
    assert not Outbox.objects.exists()

    # Everything that ends a game, tried on the finished one, again.
    for user in (alice, bob):
        with pytest.raises(GameError):
            play.submit_action(game.pk, user, {"type": "discard", "slot": 0}, game.turn)
    play.bot_move(game.pk, game.turn)
    assert clock.time_out(game.pk, game.turn) is False
    assert tasks.sweep_deadlines() == 0
    game.refresh_from_db()
    assert game.is_finished()
    assert not Outbox.objects.exists()


def test_a_digest_is_kept_while_its_day_can_come_again(monkeypatch, alice, bob, settings):
    """The daily digest is keyed by player and UTC day, and beat may run the task more than
    once a day: a purge the same day, even told to keep nothing, must not let a second
    digest through. Once the day is over the key cannot come again and the row goes."""
    User.objects.filter(pk__in=[alice.pk, bob.pk]).update(notify=User.Notify.DAILY_DIGEST)
    now = Clock(monkeypatch, datetime(2030, 5, 10, 7, 0, tzinfo=UTC))

    assert tasks.daily_digest() == 2
    Outbox.objects.update(done_at=now.at)  # sent at once

    # The rest of that day: beat (or a person) may run the task again; the purge, however
    # eager, leaves the record that stops a second digest.
    for later in (timedelta(minutes=1), timedelta(hours=12), timedelta(hours=16, minutes=59)):
        now.at = datetime(2030, 5, 10, 7, 0, tzinfo=UTC) + later
        assert purge_done(older_than=timedelta(0)) == 0
        assert tasks.daily_digest() == 0
    settings.OUTBOX_KEEP_DAYS = 0
    now.at = datetime(2030, 5, 10, 23, 59, 59, tzinfo=UTC)
    assert purge_outbox() == 0
    assert tasks.daily_digest() == 0
    digests = Outbox.objects.filter(kind="digest")
    assert sorted(digests.values_list("dedupe_key", flat=True)) == sorted(
        [f"{alice.pk}:2030-05-10", f"{bob.pk}:2030-05-10"]
    )

    # Over a week on, the day's rows go: that day can never be today again.
    settings.OUTBOX_KEEP_DAYS = 7
    now.at = datetime(2030, 5, 17, 7, 1, tzinfo=UTC)
    assert purge_done() == 2
    assert tasks.daily_digest() == 2  # today's, a new key
    assert sorted(digests.values_list("dedupe_key", flat=True)) == sorted(
        [f"{alice.pk}:2030-05-17", f"{bob.pk}:2030-05-17"]
    )
