"""A player's profile, their history of finished games, and the owner's privacy setting.

Open to anyone logged in; a hidden profile shows only "this profile is private" to anyone
but its owner. Only finished games appear, so nothing here tells more of a game in progress
than the lobby does. A game's replay is linked for a viewer who may open it (one the viewer
played, or one its spectators option opens to all after the end: games/spectators.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games.models import Seat
from games.spectators import open_after_the_end
from players.figures import figures_of
from players.forms import HistoryFilter
from players.models import GameRecord, PartnerStats, PlayerProfile, VariantStats

LAST_GAMES = 10
PER_PAGE = 25
PARTNER_CHOICES = 50


def _player(user_id: int) -> tuple[User, PlayerProfile]:
    """The player and their profile row (unsaved and empty before their first game)."""
    player = get_object_or_404(User.objects.select_related("player_profile"), pk=user_id)
    try:
        return player, player.player_profile
    except PlayerProfile.DoesNotExist:
        return player, PlayerProfile(user=player)


def _private(request: HttpRequest, player: User, profile: PlayerProfile) -> HttpResponse | None:
    if profile.hidden and request.user.pk != player.pk:
        return render(request, "players/private.html", {"player": player})
    return None


def _records(player: User) -> QuerySet:
    """The player's finished games, newest first, each with its game and seats. The games
    are fetched for the page's rows only, not joined: a deep page skips its OFFSET rows
    in the records' index alone (bench/README.md)."""
    seats = Seat.objects.select_related("user").order_by("position")
    return (
        GameRecord.objects.filter(user=player)
        .prefetch_related("game", Prefetch("game__seats", queryset=seats))
        .order_by("-finished_at", "-game_id")
    )


def _rows(records, player: User, viewer: User) -> list[dict]:
    rows = []
    for record in records:
        game = record.game
        seats = list(game.seats.all())
        # As games/views/access.py opens a finished game: its spectators option decides.
        may_open = open_after_the_end(game) or any(seat.user_id == viewer.pk for seat in seats)
        rows.append(
            {
                "record": record,
                "others": [seat.name for seat in seats if seat.user_id != player.pk],
                "replay_url": reverse("games:replay", args=[game.pk, 0]) if may_open else "",
                "game_url": game.get_absolute_url() if may_open else "",
            }
        )
    return rows


@require_GET
@login_required
def profile(request: HttpRequest, user_id: int) -> HttpResponse:
    player, player_profile = _player(user_id)
    if private := _private(request, player, player_profile):
        return private
    return render(
        request,
        "players/profile.html",
        {
            "player": player,
            "profile": player_profile,
            "is_owner": request.user.pk == player.pk,
            "last_games": _rows(_records(player)[:LAST_GAMES], player, request.user),
            **figures_of(player),
        },
    )


@require_GET
@login_required
def history(request: HttpRequest, user_id: int) -> HttpResponse:
    player, player_profile = _player(user_id)
    if private := _private(request, player, player_profile):
        return private
    variants = VariantStats.objects.filter(user=player).values_list("variant", flat=True)
    filters = HistoryFilter(
        request.GET or None, sorted(set(variants)), _partner_choices(player, request.GET)
    )
    records = _records(player)
    if filters.is_bound and filters.is_valid():
        records = filters.apply(records)
    page = Paginator(records, PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "players/history.html",
        {
            "player": player,
            "filters": filters,
            "page": page,
            "rows": _rows(page.object_list, player, request.user),
            "query": query.urlencode(),
        },
    )


def _partner_choices(player: User, query) -> list[tuple[int, str]]:
    """The partner filter's choices: the most frequent partners (a long-time player has
    thousands, too many for a list), and the one asked for if they are another partner."""
    partners = PartnerStats.objects.filter(user=player).values_list(
        "partner_id", "partner__display_name"
    )
    choices = list(partners.order_by("-played", "partner_id")[:PARTNER_CHOICES])
    asked = query.get("partner", "")
    if asked.isdigit() and int(asked) not in {pk for pk, _ in choices}:
        choices += list(partners.filter(partner_id=int(asked)))
    return sorted(choices, key=lambda choice: (choice[1].casefold(), choice[0]))


@require_POST
@login_required
def privacy(request: HttpRequest) -> HttpResponse:
    """The owner shows or hides their own profile (and history)."""
    hidden = request.POST.get("hidden") == "1"
    PlayerProfile.objects.update_or_create(user=request.user, defaults={"hidden": hidden})
    if hidden:
        messages.success(request, _("Your profile is now private: only you can see it."))
    else:
        messages.success(request, _("Your profile is now visible to everyone who logs in."))
    return redirect("players:profile", request.user.pk)
