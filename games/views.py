"""Pages of the game site. Views are thin: they check access, call one service, and render
the engine's view for the person looking. For an HTMX request they render a named partial
of the same template."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from games import hindsight, services
from games.engine import (
    ExportError,
    GameOptions,
    HanabLiveImportError,
    action_to_dict,
    from_hanablive,
    replay,
    spectator_view,
    to_hanablive,
    view_for,
)
from games.forms import (
    ChatForm,
    ExtendForm,
    ImportForm,
    InviteForm,
    NewGameForm,
    ReportForm,
    action_from_post,
)
from games.models import Game, ImportedReplay, MadeBy, Seat
from games.table import table

# -- access ---------------------------------------------------------------------------------


def _game_for(request: HttpRequest, game_id: int) -> tuple[Game, Seat | None]:
    """The game and the viewer's seat, or 404 when the viewer may not see it. A game in
    progress is seen only by its players; a finished public game by everyone."""
    game = get_object_or_404(Game.objects.select_related("creator"), pk=game_id)
    seat = services.seat_of(game, request.user)
    if seat is not None:
        return game, seat
    if game.visibility == Game.Visibility.PUBLIC and game.status in (
        Game.Status.OPEN,
        Game.Status.FINISHED,
    ):
        return game, None
    raise Http404("No such game")


# -- lobby ----------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    context: dict = {
        "open_games": Game.objects.filter(
            status=Game.Status.OPEN, visibility=Game.Visibility.PUBLIC
        )
        .select_related("creator")
        .order_by("-created_at")[:20],
        "finished_games": Game.objects.filter(
            status=Game.Status.FINISHED, visibility=Game.Visibility.PUBLIC
        )
        .select_related("creator")
        .order_by("-finished_at")[:10],
    }
    if request.user.is_authenticated:
        active = (
            Game.objects.filter(
                seats__user=request.user, status__in=[Game.Status.OPEN, Game.Status.PLAYING]
            )
            .prefetch_related("seats__user")
            .order_by("-created_at")
        )
        entries = [_lobby_entry(game, request.user) for game in active]
        # Games waiting on me first, then games in play, then games still gathering players.
        entries.sort(key=lambda entry: (not entry["my_turn"], entry["game"].is_open()))
        context["my_games"] = entries
        context["my_turn_count"] = sum(entry["my_turn"] for entry in entries)
        context["my_finished"] = Game.objects.filter(
            seats__user=request.user, status=Game.Status.FINISHED
        ).order_by("-finished_at")[:10]
    return render(request, "games/home.html", context)


def _lobby_entry(game: Game, user) -> dict:
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    current = next((s for s in seats if s.position == game.current_seat), None)
    return {
        "game": game,
        "names": [seat.name for seat in seats],
        "my_turn": game.is_playing()
        and current is not None
        and current.user_id == user.pk
        and not current.is_bot,
        "waiting_on": current.name if current and game.is_playing() else None,
        "free_seats": sum(1 for seat in seats if seat.user_id is None and not seat.is_bot),
    }


def how_the_bots_play(request: HttpRequest) -> HttpResponse:
    return render(request, "games/bots.html")


# -- creating and gathering players ----------------------------------------------------------


@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        game = services.create_game(
            request.user,
            form.cleaned_data["options"],
            form.cleaned_data["visibility"],
            turn_time_limit=form.cleaned_data["turn_time_limit"],
            timeout_policy=form.cleaned_data["timeout_policy"],
            bots=form.cleaned_data["bots"],
            chat_policy=form.cleaned_data["chat_policy"],
        )
        messages.success(request, "Game created. Invite players, then start it.")
        return redirect(game)
    return render(request, "games/new.html", {"form": form})


@login_required
def invite_link(request: HttpRequest, game_id: int, code: str) -> HttpResponse:
    """The shareable link: shows the table and a button to join."""
    game = get_object_or_404(Game, pk=game_id, invite_code=code)
    seat = services.seat_of(game, request.user)
    if seat is not None or not game.is_open():
        if seat is None:
            messages.error(request, "This game has already started; you can no longer join it.")
            return redirect("home")
        return redirect(game)
    return render(
        request,
        "games/join.html",
        {"game": game, "code": code, "names": services.seat_names(game)},
    )


def _run(request: HttpRequest, game_id: int, action, *args, success: str = "") -> HttpResponse:
    """Call a service, report how it went as a message, and go back to the game (or home,
    for someone without a seat there: a moderator, a player who just left)."""
    try:
        action(game_id, request.user, *args)
    except services.NotAllowed as error:
        messages.error(request, str(error))
        return redirect("home")
    except services.GameError as error:
        messages.error(request, str(error))
    else:
        if success:
            messages.success(request, success)
    if not Seat.objects.filter(game_id=game_id, user=request.user).exists():
        return redirect("home")
    return redirect("games:detail", game_id)


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    code = request.POST.get("code", "")
    return _run(request, game_id, services.join_game, code, success="You have a seat.")


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    return _run(request, game_id, services.leave_game, success="You left the table.")


@login_required
@require_POST
def bot_seat(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        position = int(request.POST.get("position", ""))
    except ValueError:
        messages.error(request, "Choose a seat.")
        return redirect("games:detail", game_id)
    bot = request.POST.get("bot") == "yes"
    done = "A bot takes the seat." if bot else "The seat is free again."
    return _run(request, game_id, services.set_bot, position, bot, success=done)


@login_required
@require_POST
def cancel(request: HttpRequest, game_id: int) -> HttpResponse:
    _run(request, game_id, services.abort_game)
    return redirect("home")


@login_required
@require_POST
def start(request: HttpRequest, game_id: int) -> HttpResponse:
    return _run(request, game_id, services.start_game, success="The game has started.")


@login_required
@require_POST
def invite(request: HttpRequest, game_id: int) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That is not an email address.")
        return redirect("games:detail", game_id)
    email = form.cleaned_data["email"]
    try:
        services.invite_by_email(game_id, request.user, email)
    except services.GameError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Invitation sent to {email}.")
    return redirect("games:detail", game_id)


def _chat_context(game: Game, seat: Seat | None) -> dict:
    """The people side of a game's pages: what was said, whether the viewer may write now,
    and what moderators did to the game."""
    return {
        "moderator_actions": game.moderator_actions.all(),
        "chat": game.chat.filter(hidden_at=None).select_related("author"),
        "chat_open": seat is not None and game.chat_open(),
        "chat_form": ChatForm(),
        "report_form": ReportForm(),
        "can_report": seat is not None,
        "reportable_players": _reportable_players(game, seat),
    }


def _reportable_players(game: Game, seat: Seat | None) -> list:
    """The other people at the table, whom the viewer may report by name."""
    if seat is None:
        return []
    seats = game.seats.exclude(user=None).exclude(user_id=seat.user_id).select_related("user")
    return [other.user for other in seats.order_by("position")]


@login_required
@require_POST
def chat(request: HttpRequest, game_id: int) -> HttpResponse:
    form = ChatForm(request.POST)
    if not form.is_valid():
        messages.error(request, "A message has 1 to 500 characters.")
        return redirect("games:detail", game_id)
    return _run(request, game_id, services.post_message, form.cleaned_data["text"])


@login_required
@require_POST
def report(request: HttpRequest, game_id: int) -> HttpResponse:
    form = ReportForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say what is wrong, in at most 1,000 characters.")
        return redirect("games:detail", game_id)
    data = form.cleaned_data
    done = "Thank you: a moderator will look at it."
    return _run(
        request,
        game_id,
        services.report,
        data["reason"],
        data["message"],
        data["reported_user"],
        success=done,
    )


# -- the table ------------------------------------------------------------------------------


@login_required
@vary_on_headers("HX-Request")
def detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seat = _game_for(request, game_id)
    if game.is_open() or game.status == Game.Status.ABORTED:
        return _waiting_room(request, game, seat)
    if game.is_finished():
        return redirect("games:replay", game.pk, game.turn)
    return _turn_page(request, game, seat)


def _waiting_room(request: HttpRequest, game: Game, seat: Seat | None) -> HttpResponse:
    seats = list(game.seats.select_related("user").order_by("position"))
    return render(
        request,
        "games/waiting.html",
        {
            "game": game,
            "seats": seats,
            "seat": seat,
            "is_creator": game.creator_id == request.user.pk,
            "full": all(s.user_id or s.is_bot for s in seats),
            "filled": sum(1 for s in seats if s.user_id or s.is_bot),
            "invite_url": request.build_absolute_uri(
                reverse("games:invite", args=[game.pk, game.invite_code])
            ),
            "invite_form": InviteForm(),
            "options_text": game.game_options.describe(),
            **_chat_context(game, seat),
        },
    )


def _turn_page(
    request: HttpRequest, game: Game, seat: Seat, status: int = 200, confirm: dict | None = None
) -> HttpResponse:
    seats = list(game.seats.select_related("user").order_by("position"))
    names = [s.name for s in seats]
    moves = list(game.moves.order_by("turn"))
    state = services.load_state(game, moves)
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
        "can_extend": game.turn_deadline is not None
        and (game.creator_id == request.user.pk or request.user.is_staff),
        "extend_form": ExtendForm(),
        **_chat_context(game, seat),
    }
    return render(request, template, context, status=status)


def automatic_turns(moves) -> dict[int, str]:
    """Turns not played by the player themself, with why (a timeout, a bot)."""
    return {move.turn: move.made_by for move in moves if move.made_by != MadeBy.PLAYER}


@login_required
@require_GET
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """Has the game moved on since the page was rendered? 204 (nothing to transfer) if not.

    The page says what it showed: `status`, and `turn` (turn page) or `filled` seats
    (waiting room). Only players poll, so the one small query also checks the seat.
    """
    known = (
        Game.objects.filter(pk=game_id, seats__user=request.user)
        .values_list("turn", "status")
        .first()
    )
    if known is None:
        raise Http404("No such game")
    turn, status = known
    shown_status = request.GET.get("status", Game.Status.PLAYING)
    services.record_presence(game_id, request.user)
    if status == shown_status == Game.Status.PLAYING:
        if request.GET.get("turn") == str(turn):
            return HttpResponse(status=204)
        game, seat = _game_for(request, game_id)
        return _turn_page(request, game, seat)
    if status == shown_status == Game.Status.OPEN:
        filled = Seat.objects.filter(game_id=game_id, user__isnull=False).count()
        if request.GET.get("filled") == str(filled):
            return HttpResponse(status=204)
        return HttpResponseClientRefresh()
    return HttpResponseClientRedirect(reverse("games:detail", args=[game_id]))


@login_required
@require_POST
def move(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seat = _game_for(request, game_id)
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
        services.submit_action(game_id, request.user, action, expected_turn)
    except services.StaleMove as error:
        messages.warning(request, str(error))
        return _after_move(request, game_id, seat, status=409)
    except services.GameError as error:
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
    return _run(request, game_id, services.vote_pause, wants, success=done)


@login_required
@require_POST
def resume(request: HttpRequest, game_id: int) -> HttpResponse:
    return _run(request, game_id, services.resume, success="The game is running again.")


@login_required
@require_POST
def extend(request: HttpRequest, game_id: int) -> HttpResponse:
    form = ExtendForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose how much more time to give.")
        return redirect("games:detail", game_id)
    hours = form.cleaned_data["hours"]
    done = f"The turn has {hours} more hours."
    return _run(request, game_id, services.extend_deadline, hours, success=done)


@login_required
@require_POST
def mute(request: HttpRequest, game_id: int) -> HttpResponse:
    muted = request.POST.get("muted") == "yes"
    done = "Emails about this game are muted." if muted else "Emails about this game are on."
    return _run(request, game_id, services.set_muted, muted, success=done)


@login_required
@require_POST
def reclaim(request: HttpRequest, game_id: int) -> HttpResponse:
    done = "Your seat is yours again: the bot has stepped aside."
    return _run(request, game_id, services.reclaim_seat, success=done)


# -- finished games: replay and export -------------------------------------------------------


def _replay_page(
    request: HttpRequest,
    record: dict,
    turn: int,
    url_name: str,
    url_args: list,
    extra: dict,
) -> HttpResponse:
    """A replay: every hand face up, stepping through the turns of a game that is over (or
    of an imported record). `record` holds title, options, deck_source, actions, names."""
    options, deck_source, actions = record["options"], record["deck_source"], record["actions"]
    if not 0 <= turn <= len(actions):
        raise Http404("No such turn")
    final = replay(options, deck_source, actions)
    state = final if turn == len(actions) else replay(options, deck_source, actions, upto=turn)
    view = spectator_view(state, record["names"])
    view["viewer"] = None
    over = final.is_over or bool(record.get("end"))
    outcome = services.outcome(final, record.get("end", "")) if over else None

    def link(t: int) -> str:
        return reverse(url_name, args=[*url_args, t])

    context = {
        "title": record["title"],
        "view": view,
        **table(view),
        "outcome": outcome,
        "turn": turn,
        "last_turn": len(actions),
        "nav": {
            "first": link(0) if turn > 0 else None,
            "previous": link(turn - 1) if turn > 0 else None,
            "next": link(turn + 1) if turn < len(actions) else None,
            "last": link(len(actions)) if turn < len(actions) else None,
        },
        "last_action": view["history"][-1]["text"] if turn else None,
        **extra,
    }
    template = "games/replay.html"
    if request.htmx:
        template += "#replay"
    return render(request, template, context)


def _game_record(game: Game, title: str) -> dict:
    """What _replay_page steps through, for a game of this site."""
    return {
        "title": title,
        "options": game.game_options,
        "deck_source": game.deck_source,
        "actions": list(game.moves.order_by("turn").values_list("action", flat=True)),
        "names": services.seat_names(game),
        "end": game.end,
    }


@login_required
@vary_on_headers("HX-Request")
def replay_view(request: HttpRequest, game_id: int, turn: int) -> HttpResponse:
    game, seat = _game_for(request, game_id)
    if not game.is_finished():
        raise Http404("The replay opens when the game is over")
    record = _game_record(game, f"Game {game.pk}")
    return _replay_page(
        request,
        record,
        turn,
        "games:replay",
        [game.pk],
        {
            "game": game,
            "export_url": reverse("games:export", args=[game.pk]),
            **_chat_context(game, seat),
            **hindsight.page_context(game, record["names"]),
        },
    )


@require_GET
@login_required
def analysis(request: HttpRequest, game_id: int) -> HttpResponse:
    """The analysis section alone, which a finished game's page asks for until it is ready."""
    game, _ = _game_for(request, game_id)
    if not game.is_finished():
        raise Http404("The analysis opens when the game is over")
    context = {"game": game, **hindsight.page_context(game, services.seat_names(game))}
    return render(request, "games/_analysis.html", context)


def moderator_turn_view(request: HttpRequest, game_id: int, turn: int) -> HttpResponse:
    """A moderator sees any game at any turn with every hand face up (served inside the
    admin, which checks staff status). A moderator who plays in a game in progress does not:
    their own cards stay hidden from them like from any player."""
    game = get_object_or_404(Game, pk=game_id)
    if not services.may_inspect(request.user, game):
        raise PermissionDenied(
            "Only moderators see a game's hands, and not in a game they are playing."
        )
    if game.status == Game.Status.OPEN:
        raise Http404("The cards are not dealt yet")
    record = _game_record(game, f"Game {game.pk}: moderator's view")
    back = reverse("admin:games_game_change", args=[game.pk])
    return _replay_page(
        request, record, turn, "admin:games_game_turn", [game.pk], {"back_url": back}
    )


@login_required
def export(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _ = _game_for(request, game_id)
    if not game.is_finished():
        raise Http404("A game can be downloaded once it is over")
    state = services.load_state(game)
    try:
        data = to_hanablive(
            game.game_options, list(state.deck), state.actions, services.seat_names(game)
        )
    except ExportError as error:
        messages.error(request, f"This game cannot be downloaded for hanab.live: {error}")
        return redirect("games:replay", game.pk, game.turn)
    response = JsonResponse(data, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="hanabi-game-{game.pk}.json"'
    return response


# -- imported replays -----------------------------------------------------------------------

MAX_IMPORT_BYTES = 1_000_000


@login_required
def import_game(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > MAX_IMPORT_BYTES:
                raise HanabLiveImportError("the file is larger than 1 MB")
            try:
                data = json.loads(upload.read())
            except (ValueError, UnicodeDecodeError):
                raise HanabLiveImportError("the file is not JSON") from None
            imported = from_hanablive(data)
            replay(imported.options, imported.deck, imported.actions)
        except HanabLiveImportError as error:
            form.add_error("file", f"This file cannot be imported: {error}")
        except Exception as error:  # an illegal action or deck the importer let through
            form.add_error("file", f"This file cannot be imported: {error}")
        else:
            record = ImportedReplay.objects.create(
                owner=request.user,
                options=imported.options.to_dict(),
                deck=[list(card) for card in imported.deck],
                actions=[action_to_dict(action) for action in imported.actions],
                player_names=list(imported.player_names),
                file_name=upload.name[:200],
            )
            return redirect("games:imported", record.pk, 0)
    return render(request, "games/import.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@vary_on_headers("HX-Request")
def imported_replay(request: HttpRequest, replay_id: int, turn: int) -> HttpResponse:
    record = get_object_or_404(ImportedReplay, pk=replay_id, owner=request.user)
    replay_record = {
        "title": f"Imported game: {', '.join(record.player_names)}",
        "options": GameOptions.from_dict(record.options),
        "deck_source": record.deck,
        "actions": record.actions,
        "names": record.player_names,
    }
    return _replay_page(
        request,
        replay_record,
        turn,
        "games:imported",
        [record.pk],
        {},
    )
