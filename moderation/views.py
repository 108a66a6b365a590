"""A player's report, and the moderator's view of a game's cards at any turn."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms import ReportForm
from games.models import Game
from games.permissions import may_inspect
from games.services.replays import game_record
from games.views.access import run_service
from games.views.replay import replay_page
from moderation import services


@login_required
@require_POST
def report(request: HttpRequest, game_id: int) -> HttpResponse:
    form = ReportForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say what is wrong, in at most 1,000 characters."))
        return redirect("games:detail", game_id)
    data = form.cleaned_data
    return run_service(
        request,
        game_id,
        services.report,
        data["reason"],
        data["message"],
        data["reported_user"],
        success=_("Thank you: a moderator will look at it."),
    )


def moderator_turn_view(request: HttpRequest, game_id: int, turn: int) -> HttpResponse:
    """A moderator sees any game at any turn with every hand face up (served inside the
    admin, which checks staff status). A moderator who plays in a game in progress does not:
    their own cards stay hidden from them like from any player."""
    game = get_object_or_404(Game, pk=game_id)
    if not may_inspect(request.user, game):
        raise PermissionDenied(
            "Only moderators see a game's hands, and not in a game they are playing."
        )
    if game.status == Game.Status.OPEN:
        raise Http404("The cards are not dealt yet")
    record = game_record(game, _("Game %(game)s: moderator's view") % {"game": game.pk})
    back = reverse("admin:games_game_change", args=[game.pk])
    return replay_page(
        request, record, turn, "admin:games_game_turn", [game.pk], {"back_url": back}
    )
