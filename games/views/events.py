"""/games/<id>/events/: the push stream of an open game page (games/push.py).

Served for real only by an ASGI server (the `push` process of the Procfile; the web process
of Procfile.dev, `manage.py runasgi`): there an open stream is a coroutine waiting on the
process's one subscription (Redis, or without it a local socket), and costs no worker, no
thread and no database connection. Under WSGI (gunicorn's web processes, runserver), or with
PUSH_ENABLED false, it answers 204, which tells the browser's EventSource not to ask again;
the page then keeps to its poll.

It authorises once, with the page's token (games/push_token.py: signed for this game, this
seat, or no seat for a spectator, and this browser session) and no database: a token for
another game, forged, expired, or from another session (logged out) is refused with 403,
which also stops EventSource (the page polls, and asks again with a fresh token later:
static/js/push.js).

Each event carries the game's version number only (or `unknown`, telling the page to check
with its poll), never anything of the table: the page asks for the table with its poll,
which checks the viewer again.
"""

import asyncio
import re
import time
from collections.abc import AsyncIterator
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.request import split_domain_port, validate_host

from games import push, push_presence, push_token
from games.push_fanout import ChannelLost

EVENTS_PATH = re.compile(r"^/games/(\d{1,12})/events/$")
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),  # nginx: pass each event on at once
]


def with_events(django_app):
    """The ASGI application in front of Django's (hanabi_site/asgi.py): the events URL is
    served here, without Django's request handling, whose synchronous middleware (the
    session, the user, the time zone) would hold a thread and a database connection for
    each open stream, for its whole life. The stream needs none of it: the token says who
    may listen. Everything else goes on to Django."""

    async def application(scope, receive, send):
        match = EVENTS_PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
        if match is None or scope.get("method") != "GET":
            return await django_app(scope, receive, send)
        return await serve(scope, receive, send, int(match.group(1)))

    return application


def _host_allowed(scope) -> bool:
    """Django's own check of the Host header (ALLOWED_HOSTS, as HttpRequest.get_host does),
    which its middleware would have made: the stream is served in front of it."""
    host = next((value for name, value in scope.get("headers", ()) if name == b"host"), b"")
    domain, _port = split_domain_port(host.decode("latin-1"))
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return bool(domain) and validate_host(domain, allowed)


def _security_headers() -> list[tuple[bytes, bytes]]:
    """What SecurityMiddleware and XFrameOptionsMiddleware add to every other answer."""
    headers = [
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", settings.SECURE_REFERRER_POLICY.encode()),
        (b"x-frame-options", settings.X_FRAME_OPTIONS.encode()),
    ]
    if settings.SECURE_HSTS_SECONDS:
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        headers.append((b"strict-transport-security", hsts.encode()))
    return headers


async def _empty(send, status: int) -> None:
    await send({"type": "http.response.start", "status": status, "headers": _security_headers()})
    await send({"type": "http.response.body", "body": b""})


async def serve(scope, receive, send, game_id: int) -> None:
    """The stream as a bare ASGI response: 400 for a host the site does not serve, 204 with
    push off, 403 without a valid token."""
    if not _host_allowed(scope):
        return await _empty(send, 400)
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    cookies = SimpleCookie()
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            cookies.load(value.decode("latin-1"))
    session = cookies.get(settings.SESSION_COOKIE_NAME)
    claims = push_token.check(
        query.get("t", [""])[0], game_id, session.value if session is not None else None
    )
    if not push.enabled() or claims is None:
        return await _empty(send, 204 if not push.enabled() else 403)
    try:
        shown = int(query.get("v", [""])[0])
    except ValueError:
        shown = -1
    start = {"type": "http.response.start", "status": 200}
    await send({**start, "headers": HEADERS + _security_headers()})

    async def write() -> None:
        async for chunk in _stream(game_id, shown, claims):
            await send({"type": "http.response.body", "body": chunk.encode(), "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    async def until_disconnected() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    writer = asyncio.ensure_future(write())
    watcher = asyncio.ensure_future(until_disconnected())
    try:
        await asyncio.wait({writer, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        # Until both have ended: a cancellation can be lost in a library's wait.
        while not (writer.done() and watcher.done()):
            writer.cancel()
            watcher.cancel()
            await asyncio.wait({writer, watcher}, timeout=1)
        await asyncio.gather(writer, watcher, return_exceptions=True)


async def events(request: HttpRequest, game_id: int) -> HttpResponse:
    """Django's view of the URL: reached under WSGI (204), or under an ASGI application
    without with_events in front (as a test client's)."""
    if not isinstance(request, ASGIRequest) or not push.enabled():
        return HttpResponse(status=204)
    claims = push_token.check(
        request.GET.get("t", ""), game_id, request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    )
    if claims is None:
        return HttpResponse(status=403)
    try:
        shown = int(request.GET.get("v", ""))
    except ValueError:
        shown = -1
    response = StreamingHttpResponse(
        _stream(game_id, shown, claims), content_type="text/event-stream; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _stream(game_id: int, shown: int, claims: dict) -> AsyncIterator[str]:
    """One `data: <version>` event per change, a comment line as a heartbeat, and now and
    then an `event: token` with a fresh pass for the page's next stream."""
    yield "retry: 5000\n\n"
    renewed_at = time.monotonic()
    try:
        async with push.subscribe(game_id) as subscription:
            seat = claims.get("s")  # None: a spectator, who holds back no email
            if seat is not None:
                push_presence.opened(seat)
            try:
                # Subscribed first, then the version read: a change in between is not lost.
                current = await push.cached_version(game_id)
                if current is None:
                    # The cache cannot say (the embedded default, or an entry expired): the
                    # page checks with one poll, which reads the database.
                    yield "data: unknown\n\n"
                elif current != shown:
                    yield f"data: {current}\n\n"
                while True:
                    version = await subscription.next(push.HEARTBEAT_SECONDS)
                    yield ": heartbeat\n\n" if version is None else f"data: {version}\n\n"
                    if time.monotonic() - renewed_at > push_token.RENEW_EVERY:
                        renewed_at = time.monotonic()
                        yield f"event: token\ndata: {push_token.renewed(claims)}\n\n"
            finally:
                if seat is not None:
                    push_presence.closed(seat)
    except ChannelLost:
        return  # the page polls, and opens a new stream in a few seconds
