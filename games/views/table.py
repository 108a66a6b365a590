"""The turn page: the table as the viewer may see it, the poll that follows the game, and
the moves and clock buttons on it."""

import functools
import hashlib
import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import Resolver404, get_script_prefix, resolve, reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.timesince import timeuntil
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from games import push_token, wording
from games.engine import view_for
from games.errors import GameError, NotAllowed, StaleMove
from games.forms import ExtendForm, action_from_post
from games.models import Game, MadeBy, Seat
from games.permissions import may_extend
from games.safe_words import safe_readings
from games.services import clock, play, versions
from games.services.notes import notes_by_card
from games.table_context import table
from games.views.access import game_and_seats, game_for, run_service
from games.views.chat import chat_context
from games.views.lobby import waiting_room
from lib import cache_batch
from lib.cache_batch import Batch
from lib.cache_failures import failing_cache_is_no_cache
from lib.db_retry import retried_after_a_dropped_connection

log = logging.getLogger(__name__)


@login_required
@vary_on_headers("HX-Request")
def detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seat, seats = game_and_seats(request, game_id)
    if game.is_open() or game.status == Game.Status.ABORTED:
        return waiting_room(request, game, seat)
    if game.is_finished():
        return redirect("games:replay", game.pk, game.turn)
    return _turn_page(request, game, seat, seats=seats)


# The rendered table is kept per (game, version, viewer) for TABLE_TTL seconds. The version,
# read from the database in the same request, is in the key, so an entry is never served
# for another state of the game: a change writes nothing here, it makes a new key.
TABLE_TTL = 600
# Filled in per request. Each starts with "<", which the template's escaping never lets
# through from a name, a chat message or any other text of the page.
CSRF_SLOT = mark_safe("<!--csrf-token-->")  # noqa: S308 (a constant)
TIME_LEFT_SLOT = mark_safe("<!--time-left-->")  # noqa: S308
MESSAGES_SLOT = mark_safe("<!--messages-->")  # noqa: S308


def _turn_page(
    request: HttpRequest,
    game: Game,
    seat: Seat,
    status: int = 200,
    confirm: dict | None = None,
    seats: list[Seat] | None = None,
) -> HttpResponse:
    if seats is None:
        seats = list(game.seats.select_related("user").order_by("position"))
    urls = _urls(game.pk)
    key = _table_key(request, game, seat, seats)
    # One round trip to the cache (lib/cache_batch.py): the poll told of this page (from the
    # cache at once) and the cached table read.
    batch = Batch()
    _remember_viewer(request, game.pk, game.version, batch)
    found = None if confirm else batch.get(key)
    batch.send()
    cached = found.value if found is not None and isinstance(found.value, dict) else None
    if cached is None:
        cached = _render_table(request, game, seat, seats, urls, confirm)
        if not confirm:
            _cache_set(key, cached)
    html, your_turn = cached["html"], cached["your_turn"]
    html = _fill_in(request, game, html)
    if request.htmx:
        # htmx takes a <title> at the top level of a response as the new page title.
        title = format_html(
            "<title>{}{} · {}</title>",
            _("(Your turn)") + " " if your_turn else "",
            _("Game %(game)s") % {"game": game.pk},
            _("Hanabi by post"),
        )
        response = HttpResponse(html + title, status=status)
        events = _events_url(request, game, seat, urls)
        if events:
            response["X-Events"] = events  # a fresh pass for the push stream (push.js)
        return response
    context = {
        "game": game,
        "urls": urls,
        "your_turn": your_turn,
        "table_html": html,
        "events_url": _events_url(request, game, seat, urls),
    }
    return render(request, "games/game.html", context, status=status)


def _events_url(request: HttpRequest, game: Game, seat: Seat, urls: dict) -> str:
    """The push stream's address with its pass (games/push_token.py), made here, where the
    seat has just been read from the database; none without a session to tie it to."""
    session_key = request.session.session_key
    if not session_key:
        return ""
    token = push_token.mint(game.pk, request.user.pk, seat.pk, session_key)
    return f"{urls['events']}?v={game.version}&t={token}"


_URL_NAMES = (
    "detail",
    "poll",
    "events",
    "move",
    "note",
    "reclaim",
    "resume",
    "pause",
    "extend",
    "mute",
)


def _urls(game_id: int) -> dict[str, str]:
    """Every link and form address of the turn page, made once (not by a tag per form)."""
    return dict(_urls_under(get_script_prefix(), game_id))


@functools.lru_cache(maxsize=4096)
def _urls_under(script_prefix: str, game_id: int) -> tuple[tuple[str, str], ...]:
    """_urls, kept per process (issue 28: ten reverse() calls were 7 % of a turn page's CPU).
    The addresses depend on nothing but the game and the script prefix the site is served
    under, both in the key."""
    return tuple((name, reverse(f"games:{name}", args=[game_id])) for name in _URL_NAMES)


def _table_key(request: HttpRequest, game: Game, seat: Seat, seats: list[Seat]) -> str:
    """Everything the cached table depends on besides the moves and chat (which raise the
    version): the game's version, the viewer (user, seat and its state, whether they may
    extend the deadline, their time zone and language: dates and words are shown in them;
    their private notes on cards: writing one changes no one else's page, so it raises no
    version) and the players' names."""
    parts = [
        request.user.pk,
        request.scoped_pass is not None,  # a pass is offered a login, not the votes and chat
        seat.position,
        seat.is_bot,
        seat.timeouts_in_a_row,
        seat.wants_pause,
        seat.muted,
        may_extend(request.user, game),
        timezone.get_current_timezone_name(),
        get_language(),
        [(s.position, s.name, s.wants_pause) for s in seats],
        sorted((seat.notes or {}).items()),
    ]
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:32]
    return f"game:{game.pk}:table:{game.version}:{digest}"


def _render_table(
    request: HttpRequest,
    game: Game,
    seat: Seat,
    seats: list[Seat],
    urls: dict,
    confirm: dict | None,
) -> dict:
    """The table's HTML with its per-request parts left as slots, and whether it is the
    viewer's turn (the page's title says so)."""
    names = [s.name for s in seats]
    moves = list(
        game.moves.order_by("turn").values_list(
            "turn", "action", "made_by", "safe_reading", named=True
        )
    )
    state = game.load_state(moves)
    view = view_for(state, seat.position, names)
    view["options_text"] = wording.options_text(state.options)
    if seat.is_bot:
        # A bot plays this seat now: the player watches, and is offered no move.
        view["your_turn"], view["legal"] = False, None
    context = {
        "game": game,
        "seat": seat,
        "view": view,
        **table(
            view,
            automatic_turns(moves),
            notes_by_card([seat], writer_names=False),
            state=state,
            safe_readings=safe_readings(moves),
        ),
        "confirm": confirm,
        "confirm_slot": _slot_of(view, confirm["card_id"]) if confirm else None,
        "note_forms": True,
        "pause_votes": [s.name for s in seats if s.wants_pause],
        "can_extend": may_extend(request.user, game),
        "extend_form": ExtendForm(),
        **chat_context(game, seat, seats),
        "urls": urls,
        "csrf_token": CSRF_SLOT,
        "time_left": TIME_LEFT_SLOT,
        "live_messages": MESSAGES_SLOT,
    }
    html = render_to_string("games/game.html#table", context, request)
    return {"html": html, "your_turn": bool(view["your_turn"])}


def _slot_of(view: dict, card_id: int) -> int | None:
    """The slot of a card in the viewer's hand (the confirmation names it)."""
    for hand in view["hands"]:
        if hand["seat"] == view["viewer"]:
            return next((c["slot"] for c in hand["cards"] if c["id"] == card_id), None)
    return None


def automatic_turns(moves) -> dict[int, str]:
    """Turns not played by the player themself, with why (a timeout, a bot)."""
    return {move.turn: move.made_by for move in moves if move.made_by != MadeBy.PLAYER}


def _fill_in(request: HttpRequest, game: Game, html: str) -> str:
    """The cached table with this request's CSRF token, time left and messages. The messages
    are in the table, not above it, so that the next refresh of the table takes them away
    (games/game.html leaves base.html's out); an HTMX answer announces them at once."""
    messages_html = ""
    shown = list(messages.get_messages(request))
    if shown:
        messages_html = format_html(
            '<div role="{}"><ul class="messages">{}</ul></div>',
            "alert" if request.htmx else "status",
            format_html_join("", '<li class="{}">{}</li>', ((m.tags, m) for m in shown)),
        )
    time_left = escape(timeuntil(game.turn_deadline)) if game.turn_deadline else ""
    html = html.replace(CSRF_SLOT, escape(get_token(request)), -1)
    html = html.replace(TIME_LEFT_SLOT, time_left, 1).replace(MESSAGES_SLOT, messages_html, 1)
    return mark_safe(html)  # noqa: S308 (rendered by the template, slots escaped)


def _cache_set(key: str, value: dict) -> None:
    with failing_cache_is_no_cache(log, "could not write a table to the cache"):
        caches[DEFAULT_CACHE_ALIAS].set(key, value, TABLE_TTL)


@login_required
@require_GET
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """Has the game changed since the page was rendered? 204 (nothing to transfer) if not.

    The page says what it showed: `status`, and the game's version `v`; a poll without a
    version is refused (400), as nothing can be compared. An unchanged game is mostly
    answered from the cache before this view runs (`unchanged_poll_middleware`); this is the
    database's answer, which also tells the cache. Only players poll, so the one small query
    also checks the seat.
    """
    known = (
        Game.objects.filter(pk=game_id, seats__user=request.user)
        .values_list("version", "status")
        .first()
    )
    if known is None:
        raise Http404("No such game")
    version, status = known
    shown_version = _shown_version(request)
    if shown_version is None:
        return HttpResponseBadRequest("The poll must say which version of the game it shows (v).")
    play.record_presence(game_id, request.user.pk)
    if shown_version == version:
        _remember_viewer(request, game_id, version)
        return HttpResponse(status=204)
    shown_status = request.GET.get("status", Game.Status.PLAYING)
    if status != shown_status or status not in (Game.Status.PLAYING, Game.Status.OPEN):
        return HttpResponseClientRedirect(reverse("games:detail", args=[game_id]))
    if status == Game.Status.OPEN:
        return HttpResponseClientRefresh()
    game, seat = game_for(request, game_id)
    _remember_viewer(request, game_id, game.version)  # the version the new table shows
    return _turn_page(request, game, seat)


def _remember_viewer(
    request: HttpRequest, game_id: int, version: int, batch: Batch | None = None
) -> None:
    if request.session.session_key:
        versions.remember_viewer(
            game_id, version, request.session.session_key, request.user.pk, batch
        )


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


@retried_after_a_dropped_connection  # one transaction; the form's turn refuses a rerun
@login_required
@require_POST
def move(request: HttpRequest, game_id: int) -> HttpResponse:
    """Make the viewer's move. The service checks the seat and the turn under the game's
    lock, so a move that goes through reads nothing else: no game before it, none after."""
    action, expected_turn, error = action_from_post(request.POST)
    if error:
        messages.error(request, error)
        return _after_refusal(request, game_id, status=400)
    if action["type"] == "play" and request.POST.get("confirmed") != "yes":
        game, seat = game_for(request, game_id)
        if seat is None:
            raise Http404("No such game")
        if game.turn == expected_turn and game.is_playing():
            return _turn_page(request, game, seat, confirm=action)
    try:
        # The move's cache writes after its commit (the state, the version, the push) in one
        # round trip (lib/cache_batch.py).
        with cache_batch.collected():
            made = play.submit_action(game_id, request.user, action, expected_turn)
    except NotAllowed:
        raise Http404("No such game") from None  # not a player here: as if there were no game
    except StaleMove as error:
        messages.warning(request, wording.refusal(str(error)))
        return _after_refusal(request, game_id, status=409)
    except GameError as error:
        messages.error(request, wording.refusal(str(error)))
        return _after_refusal(request, game_id, status=400)
    game = made.game  # as the move left it (its summary and version are set)
    if request.htmx:
        if not game.is_playing():
            return HttpResponseClientRedirect(game.get_absolute_url())
        return _turn_page(request, *game_for(request, game_id))
    return redirect(game)  # a refresh does not post again


def _after_refusal(request: HttpRequest, game_id: int, status: int) -> HttpResponse:
    """The table as it is now, with the message saying why nothing was done. HTMX swaps only
    2xx responses, so it gets 200; a plain form post gets the status."""
    game, seat = game_for(request, game_id)
    if seat is None:
        raise Http404("No such game")
    if not game.is_playing():
        if request.htmx:
            return HttpResponseClientRedirect(game.get_absolute_url())
        return redirect(game)
    return _turn_page(request, game, seat, status=200 if request.htmx else status)


@login_required
@require_POST
def pause(request: HttpRequest, game_id: int) -> HttpResponse:
    wants = request.POST.get("wants_pause", "yes") == "yes"
    done = _("You asked for a pause.") if wants else _("You withdrew your pause request.")
    return run_service(request, game_id, clock.vote_pause, wants, success=done)


@login_required
@require_POST
def resume(request: HttpRequest, game_id: int) -> HttpResponse:
    return run_service(request, game_id, clock.resume, success=_("The game is running again."))


@login_required
@require_POST
def extend(request: HttpRequest, game_id: int) -> HttpResponse:
    form = ExtendForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose how much more time to give."))
        return redirect("games:detail", game_id)
    hours = form.cleaned_data["hours"]
    done = ngettext(
        "The turn has %(hours)d more hour.", "The turn has %(hours)d more hours.", hours
    ) % {"hours": hours}
    return run_service(request, game_id, clock.extend_deadline, hours, success=done)


@login_required
@require_POST
def mute(request: HttpRequest, game_id: int) -> HttpResponse:
    muted = request.POST.get("muted") == "yes"
    done = _("Emails about this game are muted.") if muted else _("Emails about this game are on.")
    return run_service(request, game_id, play.set_muted, muted, success=done)


@login_required
@require_POST
def reclaim(request: HttpRequest, game_id: int) -> HttpResponse:
    done = _("Your seat is yours again: the bot has stepped aside.")
    return run_service(request, game_id, play.reclaim_seat, success=done)
