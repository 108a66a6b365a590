"""Who has seen a deal, and who is playing it now.

A person has seen a deal if they held a seat at a game on it (also one taken from them by a
moderator), watched a game on it as a spectator, or opened the games played on it (the deal
page's "show me the games", or a finished game's pages: DealView). Whoever has seen
it may not sit at another table of it (the seat guard below, asked by games' join_game, and
deals/services.py for a new table). Whoever sits at a game on it that is not over yet sees
neither the deal's page nor its other games (deals/views.py, deals/middleware.py)."""

from django.db.models import Q
from django.utils.translation import gettext_lazy

from accounts.models import User
from deals.models import Deal, DealGame, DealView
from games.models import Game, Seat, Spectator

NOT_OVER = (Game.Status.OPEN, Game.Status.PLAYING)
# Lazy: worded in the language of whoever is refused, when the refusal is shown.
SEEN_REASON = gettext_lazy(
    "You have seen this deal already (you played it, watched it or opened its games): "
    "a deal is played once by each person."
)


def _seated_on(deal_id: int, user: User):
    return Seat.objects.filter(
        Q(user=user) | Q(former_users=user), game__shared_deal__deal_id=deal_id
    )


def has_seen(deal_id: int, user: User) -> bool:
    if DealView.objects.filter(deal_id=deal_id, user=user).exists():
        return True
    if _seated_on(deal_id, user).exists():
        return True
    return Spectator.objects.filter(game__shared_deal__deal_id=deal_id, user=user).exists()


def playing(deal_id: int, user: User, except_game_id: int | None = None) -> Game | None:
    """The game on the deal, not over (or not started), at which the person sits, if any;
    leaving out `except_game_id` (the game whose own pages are asked for)."""
    if not user.is_authenticated:
        return None
    seats = Seat.objects.filter(
        user=user, game__shared_deal__deal_id=deal_id, game__status__in=NOT_OVER
    ).exclude(game_id=except_game_id)
    seat = seats.select_related("game").first()
    return seat.game if seat else None


def refuse_a_seen_deal(game: Game, user: User) -> str | None:
    """The seat guard (games/seat_guards.py): no seat at a game on a deal the person saw."""
    deal_id = DealGame.objects.filter(game=game).values_list("deal_id", flat=True).first()
    if deal_id is None:
        return None
    # Asked under the game's lock in join_game; the deal's row lock also orders it with the
    # person opening the deal's page (deals/views.py), so that nobody does both.
    Deal.objects.select_for_update().filter(pk=deal_id).first()
    return SEEN_REASON if has_seen(deal_id, user) else None
