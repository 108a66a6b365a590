"""Push's channel without Redis (the embedded default): the processes of one machine (web,
workers, the mail receiver) tell the push process of a game's new version by a datagram on a
Unix socket (settings.PUSH_SOCKET, under var/), and the push process hands it, in memory, to
the streams waiting on that game.

A datagram, not a connection: sending never waits (the socket does not block; with no push
process listening, or its queue full, the datagram is dropped), so a move never waits on
push, and a page that misses a change sees it at its next poll. The push process binds the
socket while at least one of its streams is open and shares it between them all: a stream
costs an entry in a dict (games/push_fanout.py, shared with Redis), no thread, no
connection. Only one process can listen on it, which
is what the embedded default runs (Procfile.dev); a site of several push processes uses
Redis (games/push.py).
"""

import asyncio
import contextlib
import logging
import socket
from pathlib import Path

from django.conf import settings

from games.push_fanout import Fanout, Waiter

log = logging.getLogger(__name__)

_sender: socket.socket | None = None


def publish(channel: str, version: int) -> None:
    """Send the version to the push process, if one listens. Never raises, never waits."""
    global _sender
    try:
        if _sender is None:
            _sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            _sender.setblocking(False)
        _sender.sendto(f"{version} {channel}".encode(), str(settings.PUSH_SOCKET))
    except OSError as error:
        # No page is open (no push process listens), or it cannot keep up: pages poll.
        log.debug("push: game version %s of %s not sent: %s", version, channel, error)


class Subscription(Waiter):
    """The versions sent for one channel from the moment it is entered:

        async with Subscription(channel) as subscription:
            version = await subscription.next(timeout)  # None after `timeout` of quiet

    Entered, it is registered with the process's listening socket, already bound: a version
    read after that cannot miss a change sent in between (games/push_fanout.py keeps the
    latest version only)."""

    def __init__(self, channel: str) -> None:
        super().__init__(channel)
        self._listener: _Listener | None = None

    async def __aenter__(self) -> "Subscription":
        try:
            self._listener = _Listener.of_this_loop()
        except OSError as error:
            # The socket cannot be bound (its path too long, its folder not writable): the
            # stream sends only heartbeats and the page keeps to its poll, rather than
            # failing and being asked for again every few seconds.
            log.warning("push: cannot listen on %s: %s", settings.PUSH_SOCKET, error)
            return self
        self._listener.fanout.add(self)
        return self

    async def __aexit__(self, *exc_info) -> None:
        if self._listener is not None:
            self._listener.remove(self)
            self._listener = None


class _Listener:
    """The push process's one socket, read by its event loop, and the subscriptions waiting
    per channel. Bound when the first subscription enters, closed (and its file removed)
    when the last one leaves: a process with no open stream holds nothing."""

    _current: "_Listener | None" = None

    def __init__(self, path: Path, loop: asyncio.AbstractEventLoop) -> None:
        self.path = path
        self.loop = loop
        self.fanout = Fanout()
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.setblocking(False)
        # A file left by a push process that stopped without closing (killed, crashed).
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        try:
            self.socket.bind(str(path))
        except OSError:
            self.socket.close()
            raise
        self.inode = path.stat().st_ino
        loop.add_reader(self.socket.fileno(), self._receive)

    @classmethod
    def of_this_loop(cls) -> "_Listener":
        loop = asyncio.get_running_loop()
        current = cls._current
        if current is not None and current.loop is not loop:
            current.close()  # its loop has gone (a test's own loop): its streams with it
            current = None
        if current is None:
            current = cls._current = cls(Path(settings.PUSH_SOCKET), loop)
        return current

    def remove(self, subscription: Subscription) -> None:
        self.fanout.remove(subscription)
        if not self.fanout.waiting and _Listener._current is self:
            self.close()

    def close(self) -> None:
        if _Listener._current is self:
            _Listener._current = None
        with contextlib.suppress(Exception):  # the loop may be closed already
            self.loop.remove_reader(self.socket.fileno())
        self.socket.close()
        # Not another process's socket, bound at the same path since.
        with contextlib.suppress(OSError):
            if self.path.stat().st_ino == self.inode:
                self.path.unlink()

    def _receive(self) -> None:
        while True:
            try:
                datagram = self.socket.recv(1024)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                log.warning("push: the local socket failed", exc_info=True)
                return
            number, _, channel = datagram.decode("utf-8", "replace").partition(" ")
            try:
                version = int(number)
            except ValueError:
                continue
            self.fanout.deliver(channel, version)
