"""Spectators: who, besides its players, may look at a game, and the record of who watched one
being played.

A spectator sees every hand (games/views/spectate.py). So nobody who holds a seat of the game,
held one before (Seat.former_users) or created it ever gets the spectator view while the game
goes on; and someone who watched it being played never takes a seat at it: joining
(services/lobby.py) and a moderator's replacement (moderation/services.py) ask
`seat_refusal`. Once a game is over, every hand is in its replay, for the players and for
whoever `open_after_the_end` lets in."""

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.errors import GameError, NotAllowed
from games.models import Game, Spectator, SpectatorPolicy
from games.permissions import ever_seated

# Lazy: worded in the language of whoever is refused, when the refusal is shown (a view
# compares str(error) with PLAYS_HERE, both then in the same language).
PLAYS_HERE = gettext_lazy(
    "You play in this game: the spectator view would show you your own cards."
)
NOT_WATCHABLE = gettext_lazy("This game is not open to spectators while it is played.")
CANCELLED = gettext_lazy("This game was cancelled: there is nothing to watch.")
WATCHED = gettext_lazy("You watched this game: you cannot take a seat in it.")


def refusal(user: User, game: Game) -> str | None:
    """Why this person may not watch the game before its end, or None if they may."""
    if game.creator_id == user.pk or ever_seated(user, game):
        return PLAYS_HERE
    if game.status == Game.Status.ABORTED:
        return CANCELLED
    if game.spectators != SpectatorPolicy.DURING:
        return NOT_WATCHABLE
    return None


# Finished games that anyone logged in may see (their replay, analysis and download): a
# public game's, unless its creator chose nobody; and any game that could be watched while it
# was played. The same rule for one game and for the lobby's list.
OPEN_AFTER_THE_END = Q(visibility=Game.Visibility.PUBLIC, spectators=SpectatorPolicy.AFTER) | Q(
    spectators=SpectatorPolicy.DURING
)


def open_after_the_end(game: Game) -> bool:
    """May anyone logged in see this game once it is over? (OPEN_AFTER_THE_END.)"""
    if game.spectators == SpectatorPolicy.DURING:
        return True
    return game.visibility == Game.Visibility.PUBLIC and game.spectators == SpectatorPolicy.AFTER


def admit(game_id: int, user: User) -> Game:
    """The game, for `user` to watch before its end; raises NotAllowed with the reason when
    they may not. Watching a game being played is recorded (Spectator) under the game's lock:
    a moderator's replacement, which takes the same lock and asks `seat_refusal`, can never
    seat them between the check and the record. Once recorded, they can never be seated, so
    a later look only checks again, without the lock."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameError(_("There is no such game."))
    if reason := refusal(user, game):
        raise NotAllowed(reason)
    if game.is_playing() and not Spectator.objects.filter(game=game, user=user).exists():
        with transaction.atomic():
            game = Game.objects.locked(game_id)
            if reason := refusal(user, game):
                raise NotAllowed(reason)
            Spectator.objects.get_or_create(game=game, user=user)
    return game


def seat_refusal(game: Game, user: User) -> str | None:
    """Why `user` may not take a seat at `game`: they watched it, every hand face up."""
    if Spectator.objects.filter(game=game, user=user).exists():
        return WATCHED
    return None


def games_to_watch(user: User):
    """Games being played that `user` may watch now, newest first (anyone's, for a visitor
    who is not logged in: the page asks them to log in)."""
    games = Game.objects.filter(status=Game.Status.PLAYING, spectators=SpectatorPolicy.DURING)
    if user.is_authenticated:
        games = games.exclude(creator=user).exclude(
            pk__in=Game.objects.filter(Q(seats__user=user) | Q(seats__former_users=user))
        )
    return games.prefetch_related("seats__user").order_by("-started_at", "-pk")
