"""Push streams that cost almost nothing while idle (issue 28): the stream authorises once,
with the page's signed token and no session or database (games/push_token.py); it carries
version numbers only; while open it holds no thread and makes no query of its own (one
presence write per process per interval marks every open stream's seat); the process holds
one subscription, and a closed stream leaves nothing subscribed. Driven here as uvicorn
drives the ASGI application in front of Django (games/views/events.py: serve)."""

import asyncio
import re
import shutil
import tempfile
import threading
from pathlib import Path

import pytest
import redis
from django.conf import settings as django_settings
from django.db.backends import utils as db_utils
from django.utils import timezone

from games import push, push_presence, push_token
from games.models import Seat
from games.services import versions
from games.views import events
from outbox.models import Outbox
from tests import event_loop
from tests.games.conftest import current_user, start_game
from tests.mail import run_due

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["local", "redis"])
def channel(request, settings):
    """Each test runs on both channels: the embedded default's socket, and Redis."""
    settings.PUSH_ENABLED = True
    folder = Path(tempfile.mkdtemp(prefix="push-"))
    settings.PUSH_SOCKET = folder / "push.sock"
    if request.param == "local":
        settings.REDIS_URL = ""
    elif not django_settings.REDIS_URL:
        pytest.skip("needs REDIS_URL")
    yield request.param
    shutil.rmtree(folder, ignore_errors=True)


class Stream:
    """One open stream as uvicorn would drive it: what it sent, and a way to hang up."""

    def __init__(self, game_id: int, token: str, session_key: str | None, shown: int = 0):
        cookie = f"{django_settings.SESSION_COOKIE_NAME}={session_key}" if session_key else ""
        self.scope = {
            "type": "http",
            "method": "GET",
            "path": f"/games/{game_id}/events/",
            "query_string": f"v={shown}&t={token}".encode(),
            "headers": [(b"host", b"testserver")]
            + ([(b"cookie", cookie.encode())] if cookie else []),
        }
        self.sent: asyncio.Queue = asyncio.Queue()
        self.hung_up = asyncio.Event()
        self.task = asyncio.ensure_future(
            events.with_events(None)(self.scope, self._receive, self.sent.put)
        )

    async def _receive(self):
        await self.hung_up.wait()
        return {"type": "http.disconnect"}

    async def status(self) -> int:
        start = await asyncio.wait_for(self.sent.get(), 5)
        return start["status"]

    async def next_event(self, timeout: float = 5) -> str:
        """The next `data:` line's value (heartbeats and the retry line skipped)."""
        while True:
            message = await asyncio.wait_for(self.sent.get(), timeout)
            for line in message["body"].decode().splitlines():
                if line.startswith("data: "):
                    return line.removeprefix("data: ")

    async def close(self) -> None:
        self.hung_up.set()
        try:
            await asyncio.wait_for(asyncio.shield(self.task), 5)
        except TimeoutError:
            for task in asyncio.all_tasks():
                task.print_stack()
            raise


def session_of(client, user) -> str:
    client.force_login(user)
    return client.session.session_key


def token_for(game, user, session_key: str) -> str:
    seat = Seat.objects.get(game=game, user=user)
    return push_token.mint(game.pk, user.pk, seat.pk, session_key)


def test_a_valid_token_opens_a_stream_of_version_numbers_only(channel, client, alice, bob):
    game = start_game(alice, bob)
    key = session_of(client, alice)
    token = token_for(game, alice, key)

    async def scenario():
        stream = Stream(game.pk, token, key, shown=game.version - 1)
        assert await stream.status() == 200
        # Behind the game: the stream says the version at once (from the shared cache), or,
        # where the cache cannot say (the embedded default), tells the page to check.
        first = await stream.next_event()
        await asyncio.sleep(0.05)
        push.announce(game.pk, game.version + 1)
        assert await stream.next_event() == str(game.version + 1)
        await stream.close()
        return first

    first = event_loop.run(scenario())
    assert first == ("unknown" if channel == "local" else str(game.version))
    # Nothing of the table travels: a number, or "unknown" (no card, no name, no JSON).
    assert re.fullmatch(r"\d+|unknown", first)


def test_the_stream_is_refused_without_a_valid_token_for_this_game_and_session(
    channel, client, alice, bob, carol, monkeypatch
):
    game = start_game(alice, bob)
    other = start_game(carol, bob)
    alice_key = session_of(client, alice)
    bob_key = session_of(client.__class__(), bob)
    alices = token_for(game, alice, alice_key)
    refused = {
        "another game": (other.pk, alices, alice_key),
        "another viewer's token (bob's seat, alice's session)": (
            game.pk,
            token_for(game, bob, bob_key),
            alice_key,
        ),
        "forged": (
            game.pk,
            alices[:-3] + ("AAA" if not alices.endswith("AAA") else "BBB"),
            alice_key,
        ),
        "made up": (game.pk, push_token.mint(game.pk, alice.pk, 1, alice_key) + "x", alice_key),
        "no session cookie": (game.pk, alices, None),
        "no token": (game.pk, "", alice_key),
    }

    async def status_of(game_id, token, key):
        stream = Stream(game_id, token, key)
        status = await stream.status()
        await stream.close()
        return status

    for why, args in refused.items():
        assert event_loop.run(status_of(*args)) == 403, why
    assert event_loop.run(status_of(game.pk, alices, alice_key)) == 200

    # Logged out: the session is deleted, and the browser's cookie with it.
    client.logout()
    after = client.cookies.get(django_settings.SESSION_COOKIE_NAME)
    assert event_loop.run(status_of(game.pk, alices, after.value if after else None)) == 403

    monkeypatch.setattr(push_token, "MAX_AGE", -1)  # every token has expired
    assert event_loop.run(status_of(game.pk, alices, alice_key)) == 403


def test_the_page_carries_a_token_for_its_game_viewer_and_session(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    url = re.search(r'data-events="([^"]+)"', page).group(1).replace("&amp;", "&")
    token = re.search(r"[?&]t=([^&]+)", url).group(1)
    claims = push_token.check(token, game.pk, client.session.session_key)
    assert claims == {**claims, "g": game.pk, "u": alice.pk}
    assert claims["s"] == Seat.objects.get(game=game, user=alice).pk
    assert push_token.check(token, game.pk + 1, client.session.session_key) is None


def _serves_a_live_server_request(thread: threading.Thread) -> bool:
    """A request thread of pytest-django's live server, which lives as long as the xdist
    worker: a page left open by an earlier browser test may still be asking it for things."""
    return "process_request_thread" in thread.name


def _threads() -> int:
    return sum(not _serves_a_live_server_request(t) for t in threading.enumerate())


def test_open_streams_hold_no_thread_and_make_no_query_of_their_own(
    channel, client, alice, bob, monkeypatch
):
    game = start_game(alice, bob)
    keys = {user: session_of(client.__class__(), user) for user in (alice, bob)}
    tokens = {user: token_for(game, user, keys[user]) for user in (alice, bob)}
    queries: list[str] = []
    real_execute = db_utils.CursorWrapper._execute_with_wrappers

    def counted(self, sql, *args, **kwargs):
        if not _serves_a_live_server_request(threading.current_thread()):
            queries.append(sql)
        return real_execute(self, sql, *args, **kwargs)

    monkeypatch.setattr(db_utils.CursorWrapper, "_execute_with_wrappers", counted)

    async def scenario():
        threads_before = _threads()
        streams = [
            Stream(game.pk, tokens[user], keys[user]) for user in (alice, bob) for _ in range(20)
        ]
        assert all([await s.status() == 200 for s in streams])
        for stream in streams:
            await stream.next_event()
        await asyncio.sleep(0.5)
        threads_open = _threads()
        push.announce(game.pk, game.version + 5)
        assert {await s.next_event() for s in streams} == {str(game.version + 5)}
        for stream in streams:
            await stream.close()
        return threads_before, threads_open

    threads_before, threads_open = event_loop.run(scenario())
    # 40 streams: at most the one thread that writes presence for all of them.
    assert threads_open <= threads_before + 1
    # The only queries: presence, one UPDATE for every open stream's seat at once.
    assert len(queries) <= 2 and all(q.startswith('UPDATE "games_seat"') for q in queries), queries


def test_closed_streams_leave_nothing_subscribed(channel, client, alice, bob, carol):
    game = start_game(alice, bob)
    other = start_game(carol, bob)
    key = session_of(client, bob)
    tokens = {g.pk: token_for(g, bob, key) for g in (game, other)}

    async def scenario():
        streams = [Stream(g, tokens[g], key) for g in (game.pk, game.pk, other.pk)]
        assert [await s.status() for s in streams] == [200, 200, 200]
        if channel == "redis":
            assert push.subscribed_channels() == 2
        await streams[0].close()
        if channel == "redis":
            assert push.subscribed_channels() == 2  # another stream still follows the game
        for stream in streams[1:]:
            await stream.close()
        assert push.subscribed_channels() == 0
        assert push_presence.seats_present() == 0
        await asyncio.sleep(0.2)  # the connection closes after the last stream

    event_loop.run(scenario())
    if channel == "redis":
        counts = redis.Redis.from_url(django_settings.REDIS_URL).pubsub_numsub(
            push.channel(game.pk), push.channel(other.pk)
        )
        assert [count for _, count in counts] == [0, 0]


def test_a_player_with_the_stream_open_gets_no_turn_email(
    channel, client, alice, bob, mailoutbox, settings
):
    settings.NOTIFY_DELAY_SECONDS = 60
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = start_game(alice, bob)
    mover = current_user(game)
    key = session_of(client, mover)
    token = token_for(game, mover, key)
    Seat.objects.filter(game=game).update(last_seen_at=None)

    async def scenario():
        stream = Stream(game.pk, token, key)
        assert await stream.status() == 200
        await stream.next_event()
        await asyncio.sleep(0.5)  # the process's presence write
        return stream

    async def hang_up(stream):
        await stream.close()

    with event_loop.LoopInThread() as loop:
        stream = loop.run(scenario())
        seat = Seat.objects.get(game=game, user=mover)
        assert seat.last_seen_at is not None
        assert timezone.now() - seat.last_seen_at < timezone.timedelta(seconds=5)
        Outbox.objects.filter(kind="your_turn").update(due_at=timezone.now())
        assert run_due("your_turn") == 0  # held back: the page is open
        assert mailoutbox == []
        loop.run(hang_up(stream))


def test_the_cache_key_of_a_version_is_the_one_versions_writes():
    assert push.versions_key(5) == versions._version_key(5)


def test_a_turn_emails_pass_opens_the_stream_of_its_game(channel, alice, bob):
    """accounts/scoped.py: a browser that followed the email's link, logged in to nothing,
    gets a page whose stream opens, for that game only."""
    from urllib.parse import urlsplit

    from django.test import Client

    from games.emails import game_link

    game = start_game(alice, bob)
    mover = current_user(game)
    browser = Client()
    link = urlsplit(game_link(mover, game))
    browser.get(f"{link.path}?{link.query}" if link.query else link.path, follow=True)
    assert browser.session.get("_auth_user_id") is None
    page = browser.get(f"/games/{game.pk}/").content.decode()
    url = re.search(r'data-events="([^"]+)"', page).group(1).replace("&amp;", "&")
    token = re.search(r"[?&]t=([^&]+)", url).group(1)
    key = browser.cookies[django_settings.SESSION_COOKIE_NAME].value

    async def status_of(game_id):
        stream = Stream(game_id, token, key)
        status = await stream.status()
        await stream.close()
        return status

    assert event_loop.run(status_of(game.pk)) == 200
    assert event_loop.run(status_of(game.pk + 1)) == 403
