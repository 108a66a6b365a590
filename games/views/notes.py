"""Writing a private note on a card (games/services/notes.py): a small form on each card of
the turn page, posted by HTMX (the table comes back) or as a plain form (back to the page)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.errors import GameError, NotAllowed
from games.services import notes
from games.views.access import game_for
from games.views.table import _turn_page
from games.wording import refusal


@login_required
@require_POST
def note(request: HttpRequest, game_id: int) -> HttpResponse:
    card = request.POST.get("card", "")
    if not card.isdigit() or len(card) > 6:
        messages.error(request, _("That card is not on the table: reload the page and try again."))
    else:
        try:
            notes.write_note(game_id, request.user, int(card), request.POST.get("note", ""))
        except NotAllowed:
            raise Http404("No such game") from None  # not a player here: as if no game
        except GameError as error:
            messages.error(request, refusal(str(error)))
    if not request.htmx:
        return redirect("games:detail", game_id)  # the page shows the message, if any
    game, seat = game_for(request, game_id)
    if seat is None:
        raise Http404("No such game")
    if not game.is_playing():
        return HttpResponseClientRedirect(game.get_absolute_url())
    # HTMX swaps only 2xx responses: a refusal's message comes with the table.
    return _turn_page(request, game, seat)
