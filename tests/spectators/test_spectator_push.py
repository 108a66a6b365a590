"""The spectator page follows the game by the push stream, as a player's page does (issue 28:
the stream replaces the poll). Its pass (games/push_token.py) names the game, the spectator
and a digest of their session, and no seat: it is minted only by the spectator view, once
games/spectators.py has admitted them, and opens the stream of that game only. The stream
carries version numbers only; the table still comes from the spectator's poll, which checks
them again. A spectator's stream marks no seat present (that holds back a player's emails)."""

import asyncio
import re

import pytest
from django.conf import settings as django_settings
from django.db.backends import utils as db_utils
from django.test import Client
from django.urls import reverse

from games import push, push_presence, push_token
from games.models import Game, Seat, SpectatorPolicy
from games.services import play
from tests import event_loop
from tests.games.conftest import current_user, start_game
from tests.games.helpers import deck
from tests.games.test_push_streams import Stream, channel  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}


def watched_game(*players, spectators: str = SpectatorPolicy.DURING) -> Game:
    game = start_game(*players, deck=deck())
    Game.objects.filter(pk=game.pk).update(spectators=spectators)
    game.refresh_from_db()
    return game


def watching(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def events_url_of(page: str) -> str | None:
    found = re.search(r'data-events="([^"]+)"', page)
    return found.group(1).replace("&amp;", "&") if found else None


def token_of(url: str) -> str:
    return re.search(r"[?&]t=([^&]+)", url).group(1)


def session_key_of(client: Client) -> str:
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


async def status_of(game_id: int, token: str, key: str | None) -> int:
    stream = Stream(game_id, token, key)
    status = await stream.status()
    await stream.close()
    return status


def test_the_spectator_page_carries_a_pass_for_its_game_and_spectator_and_no_seat(
    alice, bob, mallory
):
    game = watched_game(alice, bob)
    client = watching(mallory)
    page = client.get(reverse("games:watch", args=[game.pk])).content.decode()
    url = events_url_of(page)
    assert url is not None, "the spectator page opens no stream"
    assert url.startswith(f"{reverse('games:events', args=[game.pk])}?v={game.version}&t=")
    claims = push_token.check(token_of(url), game.pk, session_key_of(client))
    assert claims is not None
    assert (claims["g"], claims["u"], claims["s"]) == (game.pk, mallory.pk, None)
    assert push_token.check(token_of(url), game.pk + 1, session_key_of(client)) is None
    # The same fallback as a player's page: push.js, and the line it shows while polling.
    assert re.search(r'src="[^"]*/js/push\b[^"]*\.js"', page) and 'id="push-status"' in page
    assert "Live updates paused" in page


def test_the_spectators_poll_brings_a_fresh_pass(alice, bob, mallory):
    """A page whose stream was down for longer than a pass lives gets a new one with its
    next answer (push.js reads X-Events), changed game or not."""
    game = watched_game(alice, bob)
    client = watching(mallory)
    poll = f"{reverse('games:watch', args=[game.pk])}?v={game.version}"
    unchanged = client.get(poll, **HTMX)
    assert unchanged.status_code == 204
    play.submit_action(game.pk, current_user(game), {"type": "clue", "target": 1, "rank": 5}, 0)
    changed = client.get(poll, **HTMX)
    assert changed.status_code == 200
    game.refresh_from_db()
    for answer in (unchanged, changed):
        claims = push_token.check(token_of(answer["X-Events"]), game.pk, session_key_of(client))
        assert claims is not None and claims["u"] == mallory.pk and claims["s"] is None
    assert f"?v={game.version}&" in changed["X-Events"]


def test_nobody_refused_the_spectator_view_gets_a_pass(alice, bob, carol, mallory):
    watched = watched_game(alice, bob)
    closed = watched_game(carol, bob, spectators=SpectatorPolicy.AFTER)
    refusals = {
        "a player of the game": (watching(bob), watched),
        "a game closed to spectators": (watching(mallory), closed),
    }
    for why, (client, game) in refusals.items():
        url = reverse("games:watch", args=[game.pk])
        response = client.get(url)
        assert response.status_code == 403, why
        assert events_url_of(response.content.decode()) is None, why
        assert "X-Events" not in client.get(f"{url}?v=0", **HTMX), why


def test_a_spectators_pass_opens_the_stream_of_that_game_only(
    channel,  # noqa: F811 (the fixture)
    alice,
    bob,
    carol,
    mallory,
    monkeypatch,
):
    game = watched_game(alice, bob)
    closed = watched_game(carol, bob, spectators=SpectatorPolicy.AFTER)  # mallory may not watch
    also_watched = watched_game(carol, alice)
    client = watching(mallory)
    url = events_url_of(client.get(reverse("games:watch", args=[game.pk])).content.decode())
    token, key = token_of(url), session_key_of(client)
    other_key = session_key_of(watching(mallory))  # mallory in another browser
    refused = {
        "a game she may not watch": (closed.pk, token, key),
        "another game she may watch": (also_watched.pk, token, key),
        "forged": (game.pk, token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB"), key),
        "another session": (game.pk, token, other_key),
        "no session cookie": (game.pk, token, None),
    }
    for why, args in refused.items():
        assert event_loop.run(status_of(*args)) == 403, why

    async def events():
        stream = Stream(game.pk, token, key, shown=game.version - 1)
        assert await stream.status() == 200
        first = await stream.next_event()
        await asyncio.sleep(0.05)
        push.announce(game.pk, game.version + 1)
        second = await stream.next_event()
        await stream.close()
        return first, second

    first, second = event_loop.run(events())
    # Version numbers only: nothing of the table (no card, no name) travels on the stream.
    assert re.fullmatch(r"\d+|unknown", first) and second == str(game.version + 1)

    client.logout()  # the session is deleted, and the browser's cookie with it
    after = client.cookies.get(django_settings.SESSION_COOKIE_NAME)
    assert event_loop.run(status_of(game.pk, token, after.value if after else None)) == 403
    monkeypatch.setattr(push_token, "MAX_AGE", -1)  # every pass has expired
    assert event_loop.run(status_of(game.pk, token, other_key)) == 403


def test_a_spectators_stream_marks_no_seat_present_and_reads_nothing(
    channel,  # noqa: F811 (the fixture)
    alice,
    bob,
    mallory,
    monkeypatch,
):
    game = watched_game(alice, bob)
    client = watching(mallory)
    url = events_url_of(client.get(reverse("games:watch", args=[game.pk])).content.decode())
    token, key = token_of(url), session_key_of(client)
    Seat.objects.filter(game=game).update(last_seen_at=None)
    queries: list[str] = []
    real_execute = db_utils.CursorWrapper._execute_with_wrappers

    def counted(self, sql, *args, **kwargs):
        queries.append(sql)
        return real_execute(self, sql, *args, **kwargs)

    monkeypatch.setattr(db_utils.CursorWrapper, "_execute_with_wrappers", counted)

    async def scenario():
        streams = [Stream(game.pk, token, key) for _ in range(3)]
        assert [await s.status() for s in streams] == [200] * 3
        await asyncio.sleep(0.5)  # a presence write would be done by now
        present = push_presence.seats_present()
        for stream in streams:
            await stream.close()
        return present

    assert event_loop.run(scenario()) == 0
    assert queries == []
    monkeypatch.undo()
    assert not Seat.objects.filter(game=game, last_seen_at__isnull=False).exists()
