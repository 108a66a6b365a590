"""Presence follows the stream: while a player's game page holds its push stream open (and
so sends no polls), their seat is marked present, which holds back their turn emails
(games/emails.py reads Seat.last_seen_at).

The push process keeps the seats of its open streams in memory and writes them all in one
UPDATE every WRITE_EVERY, from one task of its event loop, on a database connection it
closes straight after: no connection and no query per stream. A stream's seat is written when
its first stream opens (the next tick) and at most WRITE_EVERY apart after that, the
interval at which the poll marked presence (games/services/play.py)."""

import asyncio
import logging
from collections import Counter

from asgiref.sync import sync_to_async
from django.db import connection
from django.utils import timezone

from games.models import Seat
from games.services.play import PRESENCE_WRITE_EVERY

log = logging.getLogger(__name__)

WRITE_EVERY = PRESENCE_WRITE_EVERY.total_seconds()
CHUNK = 1000  # seats per UPDATE


class _Presence:
    _current: "_Presence | None" = None

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.seats: Counter[int] = Counter()
        self.writer: asyncio.Task | None = None

    @classmethod
    def of_this_loop(cls) -> "_Presence":
        loop = asyncio.get_running_loop()
        if cls._current is None or cls._current.loop is not loop:
            cls._current = cls(loop)
        return cls._current

    def add(self, seat_id: int) -> None:
        self.seats[seat_id] += 1
        if self.writer is None or self.writer.done():
            self.writer = self.loop.create_task(self._write_while_open())

    def remove(self, seat_id: int) -> None:
        self.seats[seat_id] -= 1
        if self.seats[seat_id] <= 0:
            del self.seats[seat_id]
        if not self.seats and self.writer is not None:
            self.writer.cancel()
            self.writer = None

    async def _write_while_open(self) -> None:
        while self.seats:
            try:
                await sync_to_async(_mark_present)(list(self.seats))
            except Exception:
                log.warning("push: could not mark presence", exc_info=True)
            await asyncio.sleep(WRITE_EVERY)


def _mark_present(seat_ids: list[int]) -> None:
    now = timezone.now()
    try:
        for start in range(0, len(seat_ids), CHUNK):
            Seat.objects.filter(pk__in=seat_ids[start : start + CHUNK]).update(last_seen_at=now)
    finally:
        if not connection.in_atomic_block:
            connection.close()  # held by no stream between writes


def opened(seat_id: int) -> None:
    _Presence.of_this_loop().add(seat_id)


def closed(seat_id: int) -> None:
    _Presence.of_this_loop().remove(seat_id)


def seats_present() -> int:
    """Seats this process marks present (0 with no open stream)."""
    current = _Presence._current
    return len(current.seats) if current is not None else 0
