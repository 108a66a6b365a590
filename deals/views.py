"""A deal's page (its tables' results, the bots' scores, the best score a seeing team could
reach), starting a table on it, a finished game's deal, and the weekly deal.

Nobody who sits at a game on the deal that is not over sees any of these (`refused`): the
other games would show them their own cards. The results show no card; the links to the
games that played the deal (which do) are given only to those who have seen it, or who
choose to, which counts as having seen it (deals/seen.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from deals import game_links, results, services
from deals.models import Deal, DealView
from deals.seen import has_seen, playing
from games.errors import GameError
from games.models import Game
from games.views.access import game_for


def refused(request: HttpRequest, game: Game) -> HttpResponse:
    """The answer to anyone at a table of the deal whose game is not over: nothing of it."""
    return render(request, "deals/refused.html", {"my_game": game}, status=403)


@login_required
@vary_on_headers("HX-Request")  # the results alone, for the section that asks again
def detail(request: HttpRequest, deal_id: int) -> HttpResponse:
    deal = get_object_or_404(Deal, pk=deal_id)
    if game := playing(deal.pk, request.user):
        return refused(request, game)
    template = "deals/deal.html#results" if request.htmx else "deals/deal.html"
    return render(request, template, page_context(request, deal))


@login_required
@require_POST
def look(request: HttpRequest, deal_id: int) -> HttpResponse:
    """Show me the games played on this deal: from now on I have seen it."""
    with transaction.atomic():
        # Under the deal's row lock, as starting a table on it (deals/services.py): nobody
        # both opens its games and sits down to play it.
        deal = get_object_or_404(Deal.objects.select_for_update(), pk=deal_id)
        if game := playing(deal.pk, request.user):
            return refused(request, game)
        DealView.objects.get_or_create(deal=deal, user=request.user)
    return redirect(deal)


def page_context(request: HttpRequest, deal: Deal) -> dict:
    seen = has_seen(deal.pk, request.user)
    return {
        "deal": deal,
        "seen": seen,
        "share_url": request.build_absolute_uri(reverse("deals:play", args=[deal.pk])),
        "open_tables": [] if seen else results.open_tables(deal),
        **results.of(deal),
    }


@login_required
def play(request: HttpRequest, deal_id: int) -> HttpResponse:
    """Start a table on the deal: a page that says what it means, and its button."""
    deal = get_object_or_404(Deal, pk=deal_id)
    if game := playing(deal.pk, request.user):
        return refused(request, game)
    if request.method == "POST":
        visibility = request.POST.get("visibility", Game.Visibility.PUBLIC)
        if visibility not in Game.Visibility.values:
            visibility = Game.Visibility.PUBLIC
        try:
            game = services.start_table(deal.pk, request.user, visibility)
        except GameError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Your table on this deal is open: others can join it."))
            return redirect(game)
    context = {
        "deal": deal,
        "seen": has_seen(deal.pk, request.user),
        "open_tables": results.open_tables(deal),
        "visibilities": [
            (Game.Visibility.PUBLIC, _("open in the lobby")),
            (Game.Visibility.INVITE, _("by invitation only")),
        ],
    }
    return render(request, "deals/play.html", context)


@login_required
def from_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game's deal: stored and linked the first time, then its page."""
    deal_id = game_links.deal_id_of(game_id)
    if deal_id is not None and (game := playing(deal_id, request.user)):
        return refused(request, game)
    game, _seat = game_for(request, game_id)
    try:
        deal = services.share(game)
    except GameError as error:
        messages.error(request, str(error))
        return redirect(game)
    return redirect(deal)


@login_required
def weekly(request: HttpRequest) -> HttpResponse:
    return redirect(services.weekly_deal())


@login_required
def weekly_play(request: HttpRequest) -> HttpResponse:
    return redirect("deals:play", services.weekly_deal().pk)
