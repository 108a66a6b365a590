"""The people side of a game's pages: the chat, reports (moderation/views.py takes them),
and what moderators did to the game."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms import ChatForm, ReportForm
from games.models import Game, Seat
from games.services.chat import post_message
from games.views.access import run_service


def chat_context(game: Game, seat: Seat | None, seats: list[Seat] | None = None) -> dict:
    """What was said, whether the viewer may write now, whom they may report, and what
    moderators did to the game. `seats`: the game's seats with their users, when the caller
    has them already (no query then for whom the viewer may report)."""
    return {
        "moderator_actions": game.moderator_actions.all(),
        "chat": game.chat.filter(hidden_at=None).select_related("author"),
        "chat_open": seat is not None and game.chat_open(),
        "chat_form": ChatForm(),
        "report_form": ReportForm(),
        "can_report": seat is not None,
        "reportable_players": _reportable_players(game, seat, seats),
        "chat_url": reverse("games:chat", args=[game.pk]),
        "report_url": reverse("moderation:report", args=[game.pk]),
    }


def _reportable_players(game: Game, seat: Seat | None, seats: list[Seat] | None) -> list:
    """The other people at the table, whom the viewer may report by name."""
    if seat is None:
        return []
    if seats is not None:
        others = [s for s in seats if s.user_id is not None and s.user_id != seat.user_id]
        return [other.user for other in sorted(others, key=lambda s: s.position)]
    seats = game.seats.exclude(user=None).exclude(user_id=seat.user_id).select_related("user")
    return [other.user for other in seats.order_by("position")]


@login_required
@require_POST
def chat(request: HttpRequest, game_id: int) -> HttpResponse:
    form = ChatForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("A message has 1 to 500 characters."))
        return redirect("games:detail", game_id)
    return run_service(request, game_id, post_message, form.cleaned_data["text"])
