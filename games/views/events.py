"""/games/<id>/events/: the push stream of an open game page (games/push.py).

Served for real only by an ASGI server (the `push` process of the Procfile; the web process
of Procfile.dev, `manage.py runasgi`): there an open stream waits on the push channel (Redis,
or without it a local socket) and costs no worker. Under WSGI (gunicorn's web processes,
runserver), or with PUSH_ENABLED false, it answers 204, which tells the browser's
EventSource not to ask again; the page then keeps to its poll.
"""

from collections.abc import AsyncIterator

from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse

from games import push
from games.models import Game, Seat


async def events(request: HttpRequest, game_id: int) -> HttpResponse:
    if not isinstance(request, ASGIRequest) or not push.enabled():
        return HttpResponse(status=204)
    user = await request.auser()
    if (
        not user.is_authenticated
        or not await Seat.objects.filter(game_id=game_id, user=user).aexists()
    ):
        raise Http404("No such game")
    try:
        shown = int(request.GET.get("v", ""))
    except ValueError:
        shown = -1
    response = StreamingHttpResponse(
        _stream(game_id, shown), content_type="text/event-stream; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _stream(game_id: int, shown: int) -> AsyncIterator[str]:
    """One `data: <version>` event per change, and a comment line as a heartbeat."""
    yield "retry: 5000\n\n"
    async with push.subscribe(game_id) as subscription:
        # Subscribed first, then the version read: a change in between is not lost.
        current = await Game.objects.filter(pk=game_id).values_list("version", flat=True).afirst()
        if current is not None and current != shown:
            yield f"data: {current}\n\n"
        while True:
            version = await subscription.next(push.HEARTBEAT_SECONDS)
            yield ": heartbeat\n\n" if version is None else f"data: {version}\n\n"
