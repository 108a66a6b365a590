"""Rearranging one's own hand (the game option; games/services/rearrange.py): the one-line
form in the viewer's hand section (templates/games/_rearrange.html), posted by HTMX (the
table comes back) or as a plain form (back to the page)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.errors import GameError, NotAllowed, StaleMove
from games.services import rearrange
from games.views.access import game_for
from games.views.table import _turn_page
from games.wording import refusal

UNREADABLE = gettext_lazy("That form is incomplete or damaged: reload the page and try again.")


def _slots_and_hand(post) -> tuple[int, int, list[int]] | None:
    """(from slot, to slot, the hand's card ids as the page showed them), or None."""
    values = [post.get("from", ""), post.get("to", "")]
    shown = post.get("hand", "").split(",")
    # Short digits only: a hand holds at most 5 cards of at most 60 ids.
    if not all(value.isdigit() and len(value) <= 3 for value in [*values, *shown]):
        return None
    return int(values[0]), int(values[1]), [int(cid) for cid in shown]


@login_required
@require_POST
def rearrange_hand(request: HttpRequest, game_id: int) -> HttpResponse:
    read = _slots_and_hand(request.POST)
    if read is None:
        messages.error(request, UNREADABLE)
    else:
        from_slot, to_slot, shown = read
        try:
            rearrange.rearrange_hand(game_id, request.user, from_slot, to_slot, shown)
        except NotAllowed:
            raise Http404("No such game") from None  # not a player here: as if no game
        except StaleMove as error:
            messages.warning(request, refusal(str(error)))
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
