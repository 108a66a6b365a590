"""The streams of one push process waiting per game, fed by the process's one subscription
(Redis's pub/sub in games/push.py, the local socket in games/push_local.py): a stream costs
an entry in a dict and an asyncio.Event, no thread, no connection and no database.

Versions that arrive faster than a stream reads them are kept as the latest only (the page
asks for the table as it is, whatever the number)."""

import asyncio


class ChannelLost(Exception):
    """The process's subscription failed (Redis went away): the stream ends, and the page
    polls until it opens a new one."""


class Waiter:
    """One stream's place in a Fanout: the latest version delivered, not yet read."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self._latest: int | None = None
        self._lost = False
        self._arrived = asyncio.Event()

    def deliver(self, version: int) -> None:
        self._latest = version
        self._arrived.set()

    def lose(self) -> None:
        self._lost = True
        self._arrived.set()

    async def next(self, timeout: float) -> int | None:
        """The next version, or None after `timeout` of quiet; ChannelLost if the channel
        failed meanwhile."""
        # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a cancellation that
        # comes as the wait ends, and a closed stream would then wait on.
        try:
            async with asyncio.timeout(timeout):
                await self._arrived.wait()
        except TimeoutError:
            return None
        if self._lost:
            raise ChannelLost(self.channel)
        self._arrived.clear()
        version, self._latest = self._latest, None
        return version


class Fanout:
    """The waiters per channel. `add` and `remove` say when a channel gains its first waiter
    or loses its last, which is when the subscription must subscribe or unsubscribe."""

    def __init__(self) -> None:
        self.waiting: dict[str, set[Waiter]] = {}

    def add(self, waiter: Waiter) -> bool:
        """True if the waiter is the first for its channel."""
        waiters = self.waiting.setdefault(waiter.channel, set())
        waiters.add(waiter)
        return len(waiters) == 1

    def remove(self, waiter: Waiter) -> bool:
        """True if the channel has no waiter left."""
        waiters = self.waiting.get(waiter.channel)
        if waiters is None:
            return False
        waiters.discard(waiter)
        if waiters:
            return False
        del self.waiting[waiter.channel]
        return True

    def deliver(self, channel: str, version: int) -> None:
        for waiter in list(self.waiting.get(channel, ())):
            waiter.deliver(version)

    def lose_all(self) -> None:
        for waiters in list(self.waiting.values()):
            for waiter in list(waiters):
                waiter.lose()
        self.waiting.clear()

    def __len__(self) -> int:
        return sum(len(waiters) for waiters in self.waiting.values())
