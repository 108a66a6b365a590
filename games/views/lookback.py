"""Looking back during a game: a player steps through the earlier turns as they saw them
then (hanab.live's in-game replay). Never more: each turn is the engine's view for the
viewer's seat of the state after that many moves, so the viewer's own cards stay hidden at
every turn, and the deck is never shown.

The address's <turn> is the number of moves made before the position shown (0: the deal), as
the replay's is; the page calls it turn <turn> + 1, the turn whose move is made from there, as
the live page does (templates/games/_replay_nav.html)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from games import wording
from games.engine import replay, view_for
from games.models import Game
from games.safe_words import safe_readings
from games.table_context import table
from games.views.access import game_for
from games.views.table import automatic_turns


def replay_nav(url_name: str, url_args: list, turn: int, last_turn: int) -> dict:
    """The links of a replay's first / previous / next / last buttons (None where there is
    no such turn)."""

    def link(t: int) -> str:
        return reverse(url_name, args=[*url_args, t])

    return {
        "first": link(0) if turn > 0 else None,
        "previous": link(turn - 1) if turn > 0 else None,
        "next": link(turn + 1) if turn < last_turn else None,
        "last": link(last_turn) if turn < last_turn else None,
    }


@require_GET
@login_required
@vary_on_headers("HX-Request")
def look_back(request: HttpRequest, game_id: int, turn: int) -> HttpResponse:
    game, seat = game_for(request, game_id)
    if seat is None or game.status not in (Game.Status.PLAYING, Game.Status.FINISHED):
        raise Http404("No such game")
    if game.is_finished():
        # Everything may be seen now: the replay shows the same turn with every hand.
        return redirect("games:replay", game.pk, min(turn, game.turn))
    moves = list(
        game.moves.order_by("turn").values_list(
            "turn", "action", "made_by", "safe_reading", named=True
        )
    )
    if not 0 <= turn <= len(moves):
        context = {"game": game, "turn": turn, "last_turn": len(moves)}
        return render(request, "games/look_back_missing.html", context, status=404)
    # With the free rearrangements of hands (an option): the hands in the order they had.
    actions = game.with_rearrangements([move.action for move in moves])
    state = replay(game.game_options, game.deck_source, actions, upto=turn)
    view = view_for(state, seat.position, game.seat_names())
    # A look back offers no move: the live table does.
    view["your_turn"], view["legal"] = False, None
    view["options_text"] = wording.options_text(game.game_options)
    title = _("Game %(game)s, turn %(turn)s as you saw it") % {
        "game": game.pk,
        "turn": turn + 1,
    }
    context = {
        "game": game,
        "seat": seat,
        "view": view,
        **table(
            view,
            automatic_turns(moves[:turn]),
            state=state,
            safe_readings=safe_readings(moves[:turn]),
        ),
        "title": title,
        "turn": turn,
        "last_turn": len(moves),
        "nav": replay_nav("games:look_back", [game.pk], turn, len(moves)),
        # (The history's sentence: the engine words it from the viewer's view alone.)
        "last_action": wording.entry_sentence(view["history"][-1], state, game.seat_names())
        if turn
        else None,
        "your_turn_now": game.current_seat == seat.position and not seat.is_bot,
        "table_url": game.get_absolute_url(),
    }
    template = "games/look_back.html"
    if request.htmx:
        template += "#look-back"
    return render(request, template, context)
