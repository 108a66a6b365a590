"""The home page, and a game before its start: creating it, the invitation link, joining,
leaving, bots, invitations by email, cancelling and starting."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from games import spectators, wording
from games.bots import hgroup
from games.errors import GameError, TooMany
from games.forms import InviteForm, NewGameForm, time_limit_label
from games.models import BotKind, Game, Seat, TimeoutPolicy
from games.services import lobby
from games.views.access import run_service, too_many
from games.views.chat import chat_context


def home(request: HttpRequest) -> HttpResponse:
    context: dict = {
        "open_games": Game.objects.filter(
            status=Game.Status.OPEN, visibility=Game.Visibility.PUBLIC
        )
        .select_related("creator")
        .order_by("-created_at")[:20],
        "finished_games": Game.objects.filter(spectators.OPEN_AFTER_THE_END)
        .filter(status=Game.Status.FINISHED)
        .select_related("creator")
        .order_by("-finished_at")[:10],
        "games_to_watch": spectators.games_to_watch(request.user)[:20],
    }
    if request.user.is_authenticated:
        active = (
            Game.objects.filter(
                seats__user=request.user, status__in=[Game.Status.OPEN, Game.Status.PLAYING]
            )
            .prefetch_related("seats__user")
            .order_by("-created_at")
        )
        waiting_on_me = set(Game.objects.waiting_on(request.user).values_list("pk", flat=True))
        entries = [_lobby_entry(game, game.pk in waiting_on_me) for game in active]
        # Games waiting on me first, then games in play, then games still gathering players.
        entries.sort(key=lambda entry: (not entry["my_turn"], entry["game"].is_open()))
        context["my_games"] = entries
        context["my_turn_count"] = len(waiting_on_me)
        context["my_finished"] = Game.objects.filter(
            seats__user=request.user, status=Game.Status.FINISHED
        ).order_by("-finished_at")[:10]
    return render(request, "games/home.html", context)


def _lobby_entry(game: Game, my_turn: bool) -> dict:
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    current = next((s for s in seats if s.position == game.current_seat), None)
    return {
        "game": game,
        "names": [seat.name for seat in seats],
        "my_turn": my_turn,
        "waiting_on": current.name if current and game.is_playing() else None,
        "free_seats": sum(seat.is_free for seat in seats),
    }


def how_the_bots_play(request: HttpRequest) -> HttpResponse:
    return render(request, "games/bots.html")


def play_by_email(request: HttpRequest) -> HttpResponse:
    return render(request, "games/by_email.html")


@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        game = lobby.create_game(
            request.user,
            form.cleaned_data["options"],
            form.cleaned_data["visibility"],
            turn_time_limit=form.cleaned_data["turn_time_limit"],
            timeout_policy=form.cleaned_data["timeout_policy"],
            bots=form.cleaned_data["bots"],
            bot_kind=form.cleaned_data["bot_kind"],
            bot_level=form.cleaned_data["bot_level"],
            chat_policy=form.cleaned_data["chat_policy"],
            spectators=form.cleaned_data["spectators"],
        )
        messages.success(request, _("Game created. Invite players, then start it."))
        return redirect(game)
    return render(request, "games/new.html", {"form": form})


def invite_link(request: HttpRequest, game_id: int, code: str) -> HttpResponse:
    """The shareable link: shows the table and a button to join. A visitor without a login
    (often someone invited by email who has no account yet) sees who invites them to what,
    and signs up or logs in, coming back here to take the seat."""
    game = get_object_or_404(Game.objects.select_related("creator"), pk=game_id, invite_code=code)
    seat = game.seat_of(request.user) if request.user.is_authenticated else None
    if seat is not None:
        return redirect(game)
    if not game.is_open():
        reason = (
            _("This game was cancelled")
            if game.status == Game.Status.ABORTED
            else _("This game has already started")
        )
        messages.error(request, _("%(reason)s; you can no longer join it.") % {"reason": reason})
        return redirect("home")
    if not request.user.is_authenticated:
        return _invitation(request, game)
    return render(
        request,
        "games/join.html",
        {"game": game, "code": code, "names": game.seat_names()},
    )


def _invitation(request: HttpRequest, game: Game) -> HttpResponse:
    """The invitation as a newcomer sees it. Names only, never an email address: the link
    is the game's share link too, and anyone holding it may read this page."""
    options = game.game_options
    back_here = QueryDict(mutable=True)
    back_here["next"] = request.path
    return render(
        request,
        "games/invitation.html",
        {
            "game": game,
            "seats": list(game.seats.select_related("user").order_by("position")),
            "players": options.players,
            "variant": options.variant_name(),
            "fuses": options.fuses,
            "time_limit": _invitation_time_limit(game),
            "next_query": back_here.urlencode(safe="/"),
        },
    )


def _invitation_time_limit(game: Game) -> str:
    """'48 hours per turn; when time runs out, the game ends, timed out (score 0)', in the
    reader's language; '' without a limit."""
    if not game.turn_time_limit:
        return ""
    if game.timeout_policy == TimeoutPolicy.END_GAME:
        policy = _("the game ends, timed out (score 0)")
    else:
        policy = _("a bot makes the move for the absent player")
    return _("%(limit)s per turn; when time runs out, %(policy)s") % {
        "limit": time_limit_label(game.turn_time_limit),
        "policy": policy,
    }


def waiting_room(request: HttpRequest, game: Game, seat: Seat | None) -> HttpResponse:
    seats = list(game.seats.select_related("user").order_by("position"))
    # Invited addresses are for the table's players only: not for a stranger who opens a
    # public game.
    invited = _pending_invitations(game, seats, request.user) if seat is not None else []
    return render(
        request,
        "games/waiting.html",
        {
            "game": game,
            "seats": seats,
            "seat": seat,
            "is_creator": game.creator_id == request.user.pk,
            "hgroup_levels": hgroup.LEVELS,
            "full": not any(s.is_free for s in seats),
            "invite_url": request.build_absolute_uri(
                reverse("games:invite", args=[game.pk, game.invite_code])
            ),
            "invite_form": InviteForm(),
            "invited": invited,
            "options_text": wording.options_text(game.game_options),
            "turn_rule": _turn_rule(game),
            **chat_context(game, seat),
        },
    )


def _turn_rule(game: Game) -> str:
    """'72 hours per turn; when time runs out: …', in the reader's language."""
    if not game.turn_time_limit:
        return _("No time limit per turn.")
    if game.timeout_policy == TimeoutPolicy.END_GAME:
        policy = _("the game ends, timed out (score 0)")
    else:
        policy = _("a bot makes the move for the absent player")
    return _("%(limit)s per turn; when time runs out: %(policy)s.") % {
        "limit": time_limit_label(game.turn_time_limit),
        "policy": policy,
    }


def _pending_invitations(game: Game, seats: list[Seat], viewer: User) -> list[str]:
    """Who was invited and has not taken a seat yet. A friend or partner invited by name
    (friends/) is shown by name, never by address. An address typed by hand is shown as
    typed to the one who typed it, never by the name of an account it may belong to (that
    would tell the inviter who has an account), and to the other players only as someone
    invited by them."""
    seated = {seat.user.email.lower() for seat in seats if seat.user is not None}
    invitations = [
        invitation
        for invitation in game.invitations.select_related("invited_by").order_by("created_at")
        if invitation.email.lower() not in seated
    ]
    names = dict(
        User.objects.filter(
            email__in=[invitation.email for invitation in invitations if invitation.by_name],
            is_active=True,
        ).values_list("email", "display_name")
    )
    shown = []
    for invitation in invitations:
        if invitation.by_name:
            if invitation.email in names:
                shown.append(names[invitation.email])
        elif invitation.invited_by_id == viewer.pk:
            shown.append(invitation.email)
        else:
            shown.append(
                _("Someone invited by %(name)s") % {"name": invitation.invited_by.display_name}
            )
    return shown


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    code = request.POST.get("code", "")
    return run_service(request, game_id, lobby.join_game, code, success=_("You have a seat."))


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    return run_service(request, game_id, lobby.leave_game, success=_("You left the table."))


@login_required
@require_POST
def bot_seat(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        position = int(request.POST.get("position", ""))
    except ValueError:
        messages.error(request, _("Choose a seat."))
        return redirect("games:detail", game_id)
    bot = request.POST.get("bot") == "yes"
    kind = request.POST.get("kind", BotKind.HOUSE)
    try:
        level = int(request.POST.get("level", ""))
    except ValueError:
        level = None  # the service says which levels there are
    done = _("A bot takes the seat.") if bot else _("The seat is free again.")
    return run_service(request, game_id, lobby.set_bot, position, bot, kind, level, success=done)


@login_required
@require_POST
def cancel(request: HttpRequest, game_id: int) -> HttpResponse:
    run_service(request, game_id, lobby.abort_game, success=_("The game is cancelled."))
    return redirect("home")


@login_required
@require_POST
def start(request: HttpRequest, game_id: int) -> HttpResponse:
    # No "The game has started." message: the turn page says so, and a message would stay
    # above the table for as long as the page is open (the poll swaps the table alone).
    return run_service(request, game_id, lobby.start_game)


@login_required
@require_POST
def invite(request: HttpRequest, game_id: int) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("That is not an email address."))
        return redirect("games:detail", game_id)
    email = form.cleaned_data["email"]
    try:
        lobby.invite_by_email(game_id, request.user, email)
    except TooMany as error:
        return too_many(request, error, game_id)
    except GameError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Invitation sent to %(email)s.") % {"email": email})
    return redirect("games:detail", game_id)
