"""The spectator view: a game being played, watched by someone who does not play it, every
hand face up (as hanab.live's spectators see it), with the board, the discards, the history
and the table talk, read-only. Who may watch is games/spectators.py's; the page keeps live
by the push stream, as a player's page does (static/js/push.js: a stream that says only the
game's new version, after which the page asks for its table), and by asking every 5 s only
while the stream is down; an unchanged game answers 204. Nothing here changes what a
player's pages or emails show: watching raises no version and sends nothing."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from games import push_token, spectators, wording
from games.engine import spectator_view
from games.errors import GameError, NotAllowed
from games.models import Game
from games.safe_words import safe_readings
from games.table_context import table
from games.views.chat import chat_context
from games.views.table import automatic_turns


@login_required
@require_GET
@vary_on_headers("HX-Request")
def watch(request: HttpRequest, game_id: int) -> HttpResponse:
    game = Game.objects.filter(pk=game_id).only("status", "turn").first()
    if game is None:
        raise Http404("No such game")
    if game.is_finished():
        return _to_the_replay(request, game)
    try:
        game = spectators.admit(game_id, request.user)
    except NotAllowed as error:
        if request.htmx:
            return HttpResponseClientRefresh()  # the whole page, refused, says why
        your_game = str(error) == spectators.PLAYS_HERE
        context = {"game_id": game_id, "refused": str(error), "your_game": your_game}
        return render(request, "games/spectate.html", context, status=403)
    except GameError:
        raise Http404("No such game") from None
    if game.is_finished():  # (it ended a moment ago)
        return _to_the_replay(request, game)
    events = _events_url(request, game)
    if request.htmx:
        if request.GET.get("v") == str(game.version):
            response = HttpResponse(status=204)  # nothing new to show
        else:
            response = render(request, "games/spectate.html#watch", _context(game))
        if events:
            response["X-Events"] = events  # a fresh pass for the push stream (push.js)
        return response
    return render(request, "games/spectate.html", {**_context(game), "events_url": events})


def _events_url(request: HttpRequest, game: Game) -> str:
    """The push stream's address with a spectator's pass (games/push_token.py: this game,
    this user, this session, no seat), made only once spectators.admit has let them in; none
    without a session to tie it to."""
    session_key = request.session.session_key
    if not session_key:
        return ""
    token = push_token.mint(game.pk, request.user.pk, None, session_key)
    return f"{reverse('games:events', args=[game.pk])}?v={game.version}&t={token}"


def _to_the_replay(request: HttpRequest, game: Game) -> HttpResponse:
    """Every hand is in the replay once the game is over; the replay says who may see it
    (games/views/access.py)."""
    replay = reverse("games:replay", args=[game.pk, game.turn])
    return HttpResponseClientRedirect(replay) if request.htmx else redirect(replay)


def _context(game: Game) -> dict:
    """What the spectator sees of the game now: before its start, who sits at the table;
    once it is dealt, the engine's full state, every hand face up and no move offered."""
    seats = list(game.seats.select_related("user").order_by("position"))
    context = {
        "game": game,
        "watch_url": reverse("games:watch", args=[game.pk]),
        "names": [seat.name for seat in seats],
        **chat_context(game, None, seats),  # no seat: read only, nothing to report
    }
    if not game.is_playing():
        return context
    moves = list(
        game.moves.order_by("turn").values_list(
            "turn", "action", "made_by", "safe_reading", named=True
        )
    )
    state = game.load_state(moves)
    view = spectator_view(state, context["names"])
    view["viewer"] = None
    view["options_text"] = wording.options_text(game.game_options)
    return {
        **context,
        "view": view,
        # No notes: a player's notes are private until the game ends (its replay shows them).
        **table(view, automatic_turns(moves), state=state, safe_readings=safe_readings(moves)),
        "last_action": (
            wording.entry_sentence(view["history"][-1], state, context["names"])
            if view["history"]
            else None
        ),
    }
