"""The events URL is served in front of Django (games/views/events.py), so what Django's
middleware does for every other page it does itself: a request for a host the site does not
serve is refused before anything else, and every answer carries the site's security headers
(no sniffing, no framing, no referrer; HSTS where the site runs on HTTPS)."""

import asyncio

import pytest

from games import push_token
from games.models import Seat
from games.views import events
from tests import event_loop
from tests.games.conftest import start_game

pytestmark = pytest.mark.django_db(transaction=True)


def answer(path: str, query: str, host: bytes | None, cookie: str = "") -> dict:
    """The response start the events application sends (its stream hung up at once)."""
    headers = [(b"cookie", cookie.encode())] if cookie else []
    if host is not None:
        headers.append((b"host", host))
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": query.encode(),
        "headers": headers,
    }
    sent: list[dict] = []

    async def receive():
        await asyncio.sleep(0.2)
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    async def run():
        await events.with_events(None)(scope, receive, send)

    event_loop.run(run())
    return sent[0]


def header(start: dict, name: bytes) -> bytes | None:
    return dict(start["headers"]).get(name)


@pytest.fixture
def stream_request(settings, client, alice, bob):
    settings.PUSH_ENABLED = True
    settings.REDIS_URL = ""  # the local channel: nothing here needs Redis
    game = start_game(alice, bob)
    client.force_login(alice)
    key = client.session.session_key
    seat = Seat.objects.get(game=game, user=alice)
    token = push_token.mint(game.pk, alice.pk, seat.pk, key)
    return f"/games/{game.pk}/events/", f"v={game.version}&t={token}", f"sessionid={key}"


def test_a_host_the_site_does_not_serve_is_refused(settings, stream_request):
    settings.ALLOWED_HOSTS = ["hanabi.example.org"]
    path, query, cookie = stream_request
    assert answer(path, query, b"hanabi.example.org", cookie)["status"] == 200
    assert answer(path, query, b"evil.example.com", cookie)["status"] == 400
    assert answer(path, query, b"hanabi.example.org.evil.com", cookie)["status"] == 400
    assert answer(path, query, None, cookie)["status"] == 400


def test_every_answer_carries_the_sites_security_headers(settings, stream_request):
    settings.ALLOWED_HOSTS = ["hanabi.example.org"]
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    path, query, cookie = stream_request
    for start in (
        answer(path, query, b"hanabi.example.org", cookie),  # the stream
        answer(path, "t=forged", b"hanabi.example.org", cookie),  # refused: 403
    ):
        assert header(start, b"x-content-type-options") == b"nosniff"
        assert header(start, b"referrer-policy") == b"same-origin"
        assert header(start, b"x-frame-options") == b"DENY"
        assert header(start, b"strict-transport-security") == b"max-age=3600; includeSubDomains"
    settings.SECURE_HSTS_SECONDS = 0
    assert (
        header(answer(path, query, b"hanabi.example.org", cookie), b"strict-transport-security")
        is None
    )
