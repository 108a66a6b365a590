"""The turn page: the table as the viewer may see it, the poll that follows the game, and
the moves and clock buttons on it."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from games.engine import view_for
from games.errors import GameError, StaleMove
from games.forms import ExtendForm, action_from_post
from games.models import Game, MadeBy, Seat
from games.permissions import may_extend
from games.services import clock, play, versions
from games.table_context import table
from games.views.access import game_for, run_service
from games.views.chat import chat_context
from games.views.lobby import waiting_room


@login_required
@vary_on_headers("HX-Request")
def detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seat = game_for(request, game_id)
    if game.is_open() or game.status == Game.Status.ABORTED:
        return waiting_room(request, game, seat)
    if game.is_finished():
        return redirect("games:replay", game.pk, game.turn)
    return _turn_page(request, game, seat)


def _turn_page(
    request: HttpRequest, game: Game, seat: Seat, status: int = 200, confirm: dict | None = None
) -> HttpResponse:
    seats = list(game.seats.select_related("user").order_by("position"))
    _remember_viewer(request, game.pk, game.version)  # its poll: from the cache at once
    names = [s.name for s in seats]
    moves = list(game.moves.order_by("turn"))
    state = game.load_state(moves)
    view = view_for(state, seat.position, names)
    if seat.is_bot:
        # A bot plays this seat now: the player watches, and is offered no move.
        view["your_turn"], view["legal"] = False, None
    template = "games/game.html"
    if request.htmx:
        template += "#table"
    context = {
        "game": game,
        "seat": seat,
        "view": view,
        **table(view, automatic_turns(moves)),
        "confirm": confirm,
        "pause_votes": [s.name for s in seats if s.wants_pause],
        "can_extend": may_extend(request.user, game),
        "extend_form": ExtendForm(),
        **chat_context(game, seat),
    }
    return render(request, template, context, status=status)


def automatic_turns(moves) -> dict[int, str]:
    """Turns not played by the player themself, with why (a timeout, a bot)."""
    return {move.turn: move.made_by for move in moves if move.made_by != MadeBy.PLAYER}


@login_required
@require_GET
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """Has the game changed since the page was rendered? 204 (nothing to transfer) if not.

    The page says what it showed: `status`, and the game's version `v` (pages from before
    versions: `turn` on the turn page, `filled` seats in the waiting room). An unchanged game
    is mostly answered from the cache before this view runs (`unchanged_poll_middleware`);
    this is the database's answer, which also tells the cache. Only players poll, so the one
    small query also checks the seat.
    """
    known = (
        Game.objects.filter(pk=game_id, seats__user=request.user)
        .values_list("version", "turn", "status")
        .first()
    )
    if known is None:
        raise Http404("No such game")
    version, turn, status = known
    play.record_presence(game_id, request.user.pk)
    shown_version = _shown_version(request)
    if shown_version == version:
        _remember_viewer(request, game_id, version)
        return HttpResponse(status=204)
    shown_status = request.GET.get("status", Game.Status.PLAYING)
    if status != shown_status or status not in (Game.Status.PLAYING, Game.Status.OPEN):
        return HttpResponseClientRedirect(reverse("games:detail", args=[game_id]))
    if shown_version is None:  # a page from before versions
        if status == Game.Status.PLAYING:
            unchanged = request.GET.get("turn") == str(turn)
        else:
            filled = Seat.objects.filter(game_id=game_id).taken().count()
            unchanged = request.GET.get("filled") == str(filled)
        if unchanged:
            return HttpResponse(status=204)
    if status == Game.Status.OPEN:
        return HttpResponseClientRefresh()
    game, seat = game_for(request, game_id)
    _remember_viewer(request, game_id, game.version)  # the version the new table shows
    return _turn_page(request, game, seat)


def _remember_viewer(request: HttpRequest, game_id: int, version: int) -> None:
    if request.session.session_key:
        versions.remember_viewer(game_id, version, request.session.session_key, request.user.pk)


def _shown_version(request: HttpRequest) -> int | None:
    shown = request.GET.get("v", "")
    return int(shown) if shown.isdigit() and len(shown) < 12 else None


def unchanged_poll_middleware(get_response):
    """Answers a poll from the cache alone when the game is still at the version the page
    shows (204: nothing to transfer), before the session, the user or the database are
    looked at; anything else goes on to the view. Goes before SessionMiddleware.

    The cache must say both that the game is at that version and that this browser session
    polled the game before through the view, which checked its user and seat
    (games/services/versions.py). A 204 tells nothing of the game, so a session that has
    died since (logged out, suspended) learns nothing from one; the first change, or the
    cache entry's expiry, sends it through the view again."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and request.path_info.endswith("/poll/"):
            response = _unchanged_poll(request)
            if response is not None:
                return response
        return get_response(request)

    return middleware


def _unchanged_poll(request: HttpRequest) -> HttpResponse | None:
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    shown_version = _shown_version(request)
    if not session_key or shown_version is None:
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    if match.view_name != "games:poll":
        return None
    game_id = match.kwargs["game_id"]
    user_id = versions.unchanged_for(game_id, shown_version, session_key)
    if user_id is None:
        return None
    play.record_presence(game_id, user_id)
    response = HttpResponse(status=204)
    patch_vary_headers(response, ["Cookie"])
    return response


@login_required
@require_POST
def move(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seat = game_for(request, game_id)
    if seat is None:
        raise Http404("No such game")
    action, expected_turn, error = action_from_post(request.POST)
    if error:
        messages.error(request, error)
        return _after_move(request, game_id, seat, status=400)
    if action["type"] == "play" and request.POST.get("confirmed") != "yes":
        game.refresh_from_db()
        if game.turn == expected_turn and game.is_playing():
            return _turn_page(request, game, seat, confirm=action)
    try:
        play.submit_action(game_id, request.user, action, expected_turn)
    except StaleMove as error:
        messages.warning(request, str(error))
        return _after_move(request, game_id, seat, status=409)
    except GameError as error:
        messages.error(request, str(error))
        return _after_move(request, game_id, seat, status=400)
    return _after_move(request, game_id, seat)


def _after_move(request: HttpRequest, game_id: int, seat: Seat, status: int = 200):
    """The table as it is now. HTMX swaps only 2xx responses, so it gets 200 and the message;
    a plain form post is redirected (a refresh does not post again) unless it failed."""
    game = Game.objects.get(pk=game_id)
    if not game.is_playing():
        if request.htmx:
            return HttpResponseClientRedirect(game.get_absolute_url())
        return redirect(game)
    if request.htmx:
        return _turn_page(request, game, seat)
    if status == 200:
        return redirect(game)
    return _turn_page(request, game, seat, status=status)


@login_required
@require_POST
def pause(request: HttpRequest, game_id: int) -> HttpResponse:
    wants = request.POST.get("wants_pause", "yes") == "yes"
    done = "You asked for a pause." if wants else "You withdrew your pause request."
    return run_service(request, game_id, clock.vote_pause, wants, success=done)


@login_required
@require_POST
def resume(request: HttpRequest, game_id: int) -> HttpResponse:
    return run_service(request, game_id, clock.resume, success="The game is running again.")


@login_required
@require_POST
def extend(request: HttpRequest, game_id: int) -> HttpResponse:
    form = ExtendForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose how much more time to give.")
        return redirect("games:detail", game_id)
    hours = form.cleaned_data["hours"]
    done = f"The turn has {hours} more hours."
    return run_service(request, game_id, clock.extend_deadline, hours, success=done)


@login_required
@require_POST
def mute(request: HttpRequest, game_id: int) -> HttpResponse:
    muted = request.POST.get("muted") == "yes"
    done = "Emails about this game are muted." if muted else "Emails about this game are on."
    return run_service(request, game_id, play.set_muted, muted, success=done)


@login_required
@require_POST
def reclaim(request: HttpRequest, game_id: int) -> HttpResponse:
    done = "Your seat is yours again: the bot has stepped aside."
    return run_service(request, game_id, play.reclaim_seat, success=done)
