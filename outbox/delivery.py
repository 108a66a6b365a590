"""Outbox rows written with the change that causes them, carried out after commit.

`schedule()` adds a row inside the caller's transaction and asks Celery to run it once the
transaction commits; inside `batched()`, the rows of one change are written together, in one
INSERT, when the block ends (a move's rows: issue 15). `run()` claims a row, does the work,
and marks it done; a row whose work fails goes back to waiting with a later due time. The
beat sweep calls `enqueue_due()`, which re-enqueues rows that are due and unclaimed (the
broker was down at commit time, a worker died mid-task), so nothing is lost. Each row goes
to the Celery queue of its kind (`queue_for`): the deal analysis has a queue and a worker of
its own, so that a bot's move or a turn email never waits behind a 20-second search.

An email row is sent at most once per claim, and marked done the moment the SMTP server
accepts it: a worker killed before that point leaves the row to be sent again after the
lease, with the same Message-ID (`Outbox.message_id`), so that the rare message the server
took just before the worker died is recognisably the same one (see README, "Nothing lost,
nothing twice").
"""

import logging
import time
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import (
    DatabaseError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    connections,
    router,
    transaction,
)
from django.db.models import F, Q
from django.utils import timezone

from lib.emails import OutgoingEmail, sending
from outbox import registry
from outbox.models import Outbox
from outbox.registry import Retry, handler_for

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8

# Marking a row sent after a dropped connection is tried again, on a fresh connection, after
# each of these pauses (seconds); they end well inside lib.emails.LEASE_MARGIN_SECONDS.
MARK_SENT_RETRY_DELAYS = (0.2, 1.0, 3.0)


def claim_lease() -> timedelta:
    """A claimed row whose worker vanished is retried after this long (OUTBOX_LEASE_SECONDS).
    An email's claim is renewed when its SMTP conversation starts, which cannot outlast it
    (lib.emails bounds each step, and the wait after the message, by the lease), so a live
    worker is never overtaken mid-send."""
    return timedelta(seconds=settings.OUTBOX_LEASE_SECONDS)


def __getattr__(name: str):
    # CLAIM_LEASE, read by older callers, follows the setting as claim_lease() does.
    if name == "CLAIM_LEASE":
        return claim_lease()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Rows due sooner than this are handed to Celery with a countdown; later ones wait for the
# sweep, because a broker must not hold tasks scheduled far ahead (Redis redelivers them).
SHORT_DELAY = timedelta(minutes=10)

# Once the broker has failed to take a row, this process leaves the next rows to the sweep
# for a while instead of trying again: a commit that writes seven rows (a game's end) makes
# its page wait for at most one broker timeout, not seven.
BROKER_PAUSE_SECONDS = 5.0
_broker_failed_at: float | None = None


def schedule(
    kind: str, payload: dict, delay: timedelta = timedelta(0), dedupe_key: str = ""
) -> Outbox | None:
    """Add a row in the current transaction; enqueue its task after commit.

    With a dedupe_key, a second row of the same kind and key is never added (None).

    Inside `batched()`, the row is written with the block's other rows when the block ends,
    in one INSERT: what is returned then is the row to be written (its pk is set, or a keyed
    row that already exists is left out, at the end of the block).
    """
    handler_for(kind)  # a kind nobody carries out is a bug: fail now, not in a worker
    row = Outbox(kind=kind, payload=payload, due_at=timezone.now() + delay, dedupe_key=dedupe_key)
    pending = _batch.get()
    if pending is not None:
        pending.append((row, delay))
        return row
    return _write([(row, delay)])[0]


# The rows of the innermost open `batched()` block (None outside one).
_batch: ContextVar[list[tuple[Outbox, timedelta]] | None] = ContextVar("outbox_batch", default=None)


@contextmanager
def batched():
    """Write the rows that `schedule()` adds inside the block in one INSERT (two when there
    are rows both with and without a dedupe key) at its end, in the caller's transaction,
    with the same after-commit enqueue and dedupe guarantee as one by one. A block that
    raises writes nothing. Nested blocks are written by the outermost one."""
    if _batch.get() is not None:
        yield
        return
    token = _batch.set([])
    try:
        yield
        rows = _batch.get()
    finally:
        _batch.reset(token)
    _write(rows)


def _write(rows: list[tuple[Outbox, timedelta]]) -> list[Outbox | None]:
    """Insert the rows (those without a dedupe key in one bulk INSERT, those with one in
    another that skips a key already written), then enqueue each written row after commit.
    Returns each row, or None where its key was already taken."""
    if not rows:
        return []
    plain = [row for row, _ in rows if not row.dedupe_key]
    keyed = [row for row, _ in rows if row.dedupe_key]
    if plain:
        if _returns_bulk_ids():
            Outbox.objects.bulk_create(plain)
        else:  # pragma: no cover (PostgreSQL and SQLite both return them)
            for row in plain:
                row.save()
    written = {id(row) for row in plain}
    written.update(id(row) for row in _insert_new_keys(keyed))
    result = []
    for row, delay in rows:
        if id(row) not in written:
            result.append(None)
            continue
        result.append(row)
        if delay <= SHORT_DELAY:
            transaction.on_commit(
                lambda row_id=row.pk, kind=row.kind, delay=delay: (
                    _enqueue_unless_the_broker_just_failed(row_id, kind, delay)
                )
            )
    return result


def _returns_bulk_ids() -> bool:
    return connections[router.db_for_write(Outbox)].features.can_return_rows_from_bulk_insert


def _insert_new_keys(rows: list[Outbox]) -> list[Outbox]:
    """Insert the rows whose (kind, dedupe_key) is not taken yet, in one statement, and
    return them with their pk. A key taken by an earlier row, by a concurrent transaction
    (the constraint `outbox_dedupe` makes the INSERT wait for it, then skip the row) or by an
    earlier row of the same list is skipped, never an error: the caller's transaction goes on."""
    unique: dict[tuple[str, str], Outbox] = {}
    for row in rows:
        unique.setdefault((row.kind, row.dedupe_key), row)
    if not unique:
        return []
    connection = connections[router.db_for_write(Outbox)]
    if connection.vendor not in ("postgresql", "sqlite"):  # pragma: no cover
        return [row for row in unique.values() if _save_unless_taken(row)]
    quote = connection.ops.quote_name
    fields = [field for field in Outbox._meta.concrete_fields if not field.primary_key]
    values, params = [], []
    for row in unique.values():
        values.append("(" + ", ".join(["%s"] * len(fields)) + ")")
        params.extend(
            field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields
        )
    pk, kind, key = (
        quote(Outbox._meta.get_field(name).column) for name in ("id", "kind", "dedupe_key")
    )
    # ON CONFLICT DO NOTHING (no target: the constraint is a partial unique index) RETURNING
    # only the rows inserted: PostgreSQL, and SQLite from 3.35.
    sql = (
        f"INSERT INTO {quote(Outbox._meta.db_table)} "  # noqa: S608 (names, not input)
        f"({', '.join(quote(field.column) for field in fields)}) VALUES {', '.join(values)} "
        f"ON CONFLICT DO NOTHING RETURNING {pk}, {kind}, {key}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        inserted = cursor.fetchall()
    for row_id, row_kind, row_key in inserted:
        unique[(row_kind, row_key)].pk = row_id
    return [unique[(row_kind, row_key)] for _, row_kind, row_key in inserted]


def _save_unless_taken(row: Outbox) -> bool:  # pragma: no cover (other databases)
    if Outbox.objects.filter(kind=row.kind, dedupe_key=row.dedupe_key).exists():
        return False
    try:
        # A savepoint, so that losing the race does not break the caller's transaction.
        with transaction.atomic():
            row.save()
    except IntegrityError:  # the same key, added by a concurrent transaction
        return False
    return True


def queue_for(kind: str) -> str:
    """The Celery queue a row of this kind runs on: the default queue, or, for a kind
    registered with a queue of its own ("analysis"), `<default queue>-analysis`. Derived
    from the default queue, so that a site and its workers given a queue of their own
    (CELERY_QUEUE: a test's, a bench's) have their own of each. A kind this process does not
    know goes to the default queue, where the worker records that it cannot run it."""
    default = run_row.app.conf.task_default_queue
    registered = registry.registered(kind)
    if registered is None or not registered.queue:
        return default
    return f"{default}-{registered.queue}"


def _enqueue(row_id: int, kind: str, delay: timedelta = timedelta(0)) -> bool:
    """Hand the row to Celery, on its kind's queue, at once or not at all (the settings make
    a broker that is down fail within a fraction of a second). False if the broker did not
    take it."""
    global _broker_failed_at
    try:
        run_row.apply_async(
            (row_id,),
            queue=queue_for(kind),
            countdown=delay.total_seconds() or None,
            retry=False,
        )
    except Exception:
        # The row is committed; the sweep will enqueue it when the broker is back.
        _broker_failed_at = time.monotonic()
        logger.warning(
            "could not enqueue outbox row %s; the sweep will retry", row_id, exc_info=True
        )
        return False
    return True


def _enqueue_unless_the_broker_just_failed(row_id: int, kind: str, delay: timedelta) -> None:
    failed_at = _broker_failed_at
    if failed_at is not None and time.monotonic() - failed_at < BROKER_PAUSE_SECONDS:
        logger.warning("outbox row %s left to the sweep: the broker just failed", row_id)
        return
    _enqueue(row_id, kind, delay)


def forget_broker_failure() -> None:
    """Try the broker again at the next row (tests that change the broker call this)."""
    global _broker_failed_at
    _broker_failed_at = None


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min, … capped at an hour."""
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 3600))


class ClaimLost(Exception):
    """Another worker took the row over (this one outlived its lease): do not send."""


def _claimable(now: datetime) -> Q:
    return Q(claimed_at=None) | Q(claimed_at__lt=now - claim_lease())


class _Claim:
    """This worker's hold on a row: every change it makes is conditional on still holding
    it (the row's claimed_at is the one it wrote), except recording a sent email."""

    def __init__(self, row: Outbox, claimed_at: datetime) -> None:
        self.row = row
        self.claimed_at = claimed_at

    def _mine(self):
        return Outbox.objects.filter(pk=self.row.pk, claimed_at=self.claimed_at, done_at=None)

    def renew(self) -> None:
        """Just before an email goes: a full lease for the send, or ClaimLost."""
        now = timezone.now()
        if not self._mine().update(claimed_at=now):
            raise ClaimLost(self.row.pk)
        self.claimed_at = now

    def record_sent(self) -> None:
        """The server has the message: done, whoever holds the row now, before anything
        else can fail (outside any transaction: Celery runs run() in autocommit).

        A connection that drops here would leave the row claimed, to be sent again when the
        lease lapses: the broken connection is closed and the mark tried again on a fresh
        one, a few times, before giving up."""
        database = connections[router.db_for_write(Outbox)]
        for delay in (*MARK_SENT_RETRY_DELAYS, None):
            try:
                Outbox.objects.filter(pk=self.row.pk, done_at=None).update(
                    done_at=timezone.now(), last_error=""
                )
                return
            except (OperationalError, InterfaceError):
                # Inside a transaction the retry would run outside it, and a closed
                # connection loses the transaction: only the caller can retry that.
                if delay is None or database.in_atomic_block:
                    raise
                logger.warning(
                    "outbox row %s: marking it sent failed; retrying on a fresh connection",
                    self.row.pk,
                    exc_info=True,
                )
                with suppress(DatabaseError):  # broken already: closing it forgets it
                    database.close()
                time.sleep(delay)

    def release(self, **changes) -> None:
        self._mine().update(claimed_at=None, **changes)

    def outgoing_email(self) -> OutgoingEmail:
        return OutgoingEmail(
            self.row.message_id(), on_send=self.renew, on_accepted=self.record_sent
        )


def run(row_id: int) -> bool:
    """Claim and carry out one row. False if it was not ours to run (done, claimed, not due)."""
    now = timezone.now()
    claimed = Outbox.objects.filter(
        _claimable(now), pk=row_id, done_at=None, due_at__lte=now
    ).update(claimed_at=now, attempts=F("attempts") + 1)
    if not claimed:
        return False
    row = Outbox.objects.get(pk=row_id)
    claim = _Claim(row, now)
    try:
        with sending(claim.outgoing_email()):
            handler_for(row.kind)(row)
    except ClaimLost:
        logger.warning("outbox row %s (%s) was taken over by another worker", row.pk, row.kind)
        return False
    except Retry as retry:
        claim.release(due_at=now + retry.delay, attempts=F("attempts") - 1)
        if retry.delay <= SHORT_DELAY:
            _enqueue_unless_the_broker_just_failed(row.pk, row.kind, retry.delay)
        return False
    except Exception as error:
        # Also a row of a kind this worker has no handler for (registry.UnknownKind): a
        # retired kind, given up after MAX_ATTEMPTS with the reason in last_error, or one a
        # newer release wrote during a deploy, which one of its workers runs at a retry.
        logger.exception("outbox row %s (%s) failed", row.pk, row.kind)
        give_up = row.attempts >= MAX_ATTEMPTS
        claim.release(
            due_at=now + backoff(row.attempts),
            last_error=f"{type(error).__name__}: {error}",
            done_at=now if give_up else None,
        )
        return False
    Outbox.objects.filter(pk=row.pk, done_at=None).update(done_at=timezone.now(), last_error="")
    return True


def enqueue_due(limit: int = 500) -> int:
    """Enqueue every row that is due and not claimed (or whose claim has lapsed), and say
    how many. The first row the broker refuses ends the sweep: the next one retries."""
    now = timezone.now()
    due = (
        Outbox.objects.filter(_claimable(now), done_at=None, due_at__lte=now)
        .order_by("due_at")
        .values_list("pk", "kind")[:limit]
    )
    enqueued = 0
    for row_id, kind in due:
        if not _enqueue(row_id, kind):
            break
        enqueued += 1
    return enqueued


# No result is stored: nobody reads it, and with Redis down the result backend's own
# reconnection loop (20 tries a second apart) would hold the page that enqueues.
@shared_task(name="outbox.delivery.run_row", ignore_result=True)
def run_row(row_id: int) -> bool:
    return run(row_id)


@shared_task(name="outbox.sweep", ignore_result=True)
def sweep_outbox() -> int:
    """Run every minute by beat: re-enqueue rows that are due but were never run."""
    return enqueue_due()
