"""The rematch's pages: the proposal (a button under a finished game), the invitation page
with each person's answer, and the answers and the proposer's start with bots."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import GameError, NotAllowed
from rematches import services
from rematches.models import Invitee, Rematch


@login_required
@require_POST
def propose(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        rematch, created = services.propose(game_id, request.user)
    except NotAllowed as error:
        messages.error(request, str(error))
        return redirect("home")
    except GameError as error:
        messages.error(request, str(error))
        return redirect("games:detail", game_id)
    if not created:
        messages.info(request, _("A rematch of this game was proposed already: here it is."))
    elif rematch.game.is_open():
        messages.success(request, _("The others are invited to play again."))
    return redirect(rematch)


@login_required
def detail(request: HttpRequest, rematch_id: int) -> HttpResponse:
    """For the proposer and the invitees only: to anyone else it does not exist."""
    rematch = get_object_or_404(
        Rematch.objects.select_related("game", "proposer", "finished_game"), pk=rematch_id
    )
    invitees = list(rematch.invitees.select_related("user").order_by("pk"))
    mine = next((i for i in invitees if i.user_id == request.user.pk), None)
    is_proposer = rematch.proposer_id == request.user.pk
    if mine is None and not is_proposer:
        raise Http404("no such rematch")
    context = {
        "rematch": rematch,
        "game": rematch.game,
        "invitees": invitees,
        "mine": mine,
        "is_proposer": is_proposer,
        "waiting": [i for i in invitees if i.answer != Invitee.Answer.ACCEPTED],
    }
    return render(request, "rematches/detail.html", context)


def _answer(request: HttpRequest, rematch_id: int, service, success: str) -> HttpResponse:
    """Call the service; say how it went; go to the new game once it has started, else
    back to the invitation (or home, for someone it is not for)."""
    try:
        rematch = service(rematch_id, request.user)
    except NotAllowed as error:
        messages.error(request, str(error))
        return redirect("home")
    except GameError as error:
        messages.error(request, str(error))
        if not Rematch.objects.filter(pk=rematch_id).exists():
            return redirect("home")
        return redirect("rematches:detail", rematch_id)
    rematch.game.refresh_from_db()
    if rematch.game.is_playing():
        return redirect(rematch.game)
    messages.success(request, success)
    return redirect(rematch)


@login_required
@require_POST
def accept(request: HttpRequest, rematch_id: int) -> HttpResponse:
    return _answer(request, rematch_id, services.accept, _("You have a seat at the new table."))


@login_required
@require_POST
def decline(request: HttpRequest, rematch_id: int) -> HttpResponse:
    return _answer(request, rematch_id, services.decline, _("You declined the rematch."))


@login_required
@require_POST
def start_with_bots(request: HttpRequest, rematch_id: int) -> HttpResponse:
    return _answer(request, rematch_id, services.start_with_bots, "")
