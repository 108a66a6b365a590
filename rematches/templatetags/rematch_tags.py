"""The rematch offer under a finished game (templates/games/_after_the_game.html): to each
person who played it, a button to play again with the same table, or, once proposed, the
proposal's state, the invitee's answer buttons and a link to its page.

A finished game's page is its replay (games/replay.html). Should the offer be drawn in
the turn page's cached table (games/game.html, keyed by the game's version and the viewer),
it stays right: every change to the rematch raises the finished game's version
(rematches/services.py), and the CSRF token is the context's (that table's slot, filled in
per request)."""

from django import template

from games.models import Game
from rematches.models import Invitee, Rematch

register = template.Library()


@register.inclusion_tag("rematches/_offer.html", takes_context=True)
def rematch_offer(context, game: Game) -> dict:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not _viewer_played(context, game, user):
        return {"shown": False}
    rematch = Rematch.objects.filter(finished_game=game).select_related("game", "proposer").first()
    if rematch is not None and rematch.game.status == Game.Status.ABORTED:
        rematch = None  # cancelled: it may be proposed again
    invitees = list(rematch.invitees.select_related("user").order_by("pk")) if rematch else []
    return {
        "shown": True,
        "game": game,
        "rematch": rematch,
        "invitees": invitees,
        "mine": next((i for i in invitees if i.user_id == user.pk), None),
        "waiting": Invitee.Answer.WAITING,
        # A game email's pass opens this game's pages only: the rematch asks for a login.
        "scoped": getattr(request, "scoped_pass", None) is not None,
        "csrf_token": context.get("csrf_token"),
    }


def _viewer_played(context, game: Game, user) -> bool:
    """Whether the viewer has a seat at the game: the page says so when it knows (the
    replay's `viewer_played`, the table's `seat`), else one query."""
    if "viewer_played" in context:
        return bool(context["viewer_played"])
    if "seat" in context:
        return context["seat"] is not None
    return game.seats.filter(user=user).exists()
