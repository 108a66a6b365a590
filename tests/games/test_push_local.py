"""Push without Redis (games/push_local.py): a datagram on a Unix socket from any process of
the machine reaches the streams of the push process waiting on that game; it never breaks or
delays a move, with or without a push process; and a subscription entered before the version
is read misses no change."""

import asyncio
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.db import connection, transaction

from games import push, push_local
from games.services import versions
from tests import event_loop
from tests.games.conftest import start_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def local_push(settings):
    """The embedded default's channel, on a socket of this test's own (a short path: a Unix
    socket's must fit in 108 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="push-"))
    settings.REDIS_URL = ""
    settings.PUSH_ENABLED = True
    settings.PUSH_SOCKET = folder / "push.sock"
    yield settings.PUSH_SOCKET
    shutil.rmtree(folder, ignore_errors=True)


def test_a_published_version_reaches_every_stream_of_its_game_and_no_other(local_push):
    async def scenario():
        async with (
            push.subscribe(1) as first,
            push.subscribe(1) as second,
            push.subscribe(2) as other,
        ):
            push.announce(1, 7)
            assert await first.next(1) == 7
            assert await second.next(1) == 7
            assert await other.next(0.2) is None

    event_loop.run(scenario())


def test_a_version_sent_by_another_process_reaches_the_stream(local_push, settings):
    """The worker and the mail receiver are other processes than the push process."""
    script = (
        "import socket, sys; s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); "
        "s.sendto(sys.argv[2].encode(), sys.argv[1])"
    )

    async def scenario():
        async with push.subscribe(3) as subscription:
            subprocess.run(
                [sys.executable, "-c", script, str(local_push), f"12 {push.channel(3)}"],
                check=True,
            )
            assert await subscription.next(2) == 12

    event_loop.run(scenario())


def test_a_subscription_entered_misses_nothing_sent_after(local_push):
    """The stream enters its subscription, then reads the version: a change committed after
    that read is sent after the subscription was entered, and must arrive, however soon."""

    async def scenario():
        for version in range(20):
            async with push.subscribe(4) as subscription:
                push.announce(4, version)  # at once: no pause after entering
                assert await subscription.next(1) == version

    event_loop.run(scenario())


def test_changes_faster_than_the_stream_reads_them_leave_the_latest(local_push):
    async def scenario():
        async with push.subscribe(5) as subscription:
            for version in (1, 2, 3):
                push.announce(5, version)
            await asyncio.sleep(0.05)
            assert await subscription.next(1) == 3
            assert await subscription.next(0.1) is None

    event_loop.run(scenario())


def test_the_socket_is_bound_while_a_stream_is_open_and_removed_after(local_push):
    async def scenario():
        assert not local_push.exists()
        async with push.subscribe(6):
            assert local_push.is_socket()
        assert not local_push.exists()

    event_loop.run(scenario())


def test_a_socket_left_by_a_push_process_that_died_is_taken_over(local_push):
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    dead.bind(str(local_push))
    dead.close()  # its file stays, as after a kill

    async def scenario():
        async with push.subscribe(7) as subscription:
            push.announce(7, 70)
            assert await subscription.next(1) == 70

    event_loop.run(scenario())


def test_publishing_without_a_push_process_neither_raises_nor_waits(local_push):
    # No socket at all (no page open), then a socket nobody reads whose queue is full.
    started = time.monotonic()
    push.announce(1, 1)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    stale.bind(str(local_push))
    stale.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    try:
        for version in range(2000):
            push.announce(1, version)
    finally:
        stale.close()
    push.announce(1, 2)  # the file is still there, nobody behind it
    assert time.monotonic() - started < 2


@pytest.mark.django_db(transaction=True)
def test_a_move_commits_with_no_push_process_and_reaches_an_open_stream(local_push, alice, bob):
    game = start_game(alice, bob)
    with transaction.atomic():
        version = versions.bump(game)  # no push process: nothing listens
    game.refresh_from_db()
    assert game.version == version

    async def scenario():
        async with push.subscribe(game.pk) as subscription:
            await asyncio.to_thread(bump_and_commit, game)
            return await subscription.next(2)

    assert event_loop.run(scenario()) == version + 1


def bump_and_commit(game):
    """In a thread of its own, as another process would commit; its connection closed (the
    test database is dropped at the end)."""
    try:
        with transaction.atomic():
            versions.bump(game)
    finally:
        connection.close()


def test_the_local_channel_is_the_default_without_redis(local_push):
    assert push.enabled()
    assert isinstance(push.subscribe(1), push_local.Subscription)


def test_a_socket_that_cannot_be_bound_leaves_the_page_to_its_poll(settings, caplog):
    settings.REDIS_URL = ""
    settings.PUSH_SOCKET = Path("/nonexistent-folder") / "push.sock"

    async def scenario():
        async with push.subscribe(8) as subscription:
            return await subscription.next(0.1)

    assert event_loop.run(scenario()) is None  # a heartbeat, not an error
    assert "cannot listen on" in caplog.text
