"""Who may do what to a game, asked by the pages (which buttons to show) and by the services
(which refuse), so that the two never disagree."""

from django.db.models import Q

from games.models import Game


def is_moderator(user) -> bool:
    """Staff in the Moderators group (moderation/groups.py), or a superuser."""
    return user.is_authenticated and user.is_active and user.has_perm("games.moderate_game")


def may_extend(user, game: Game) -> bool:
    """The creator gives a running turn more time from the game's page. (Moderators extend
    from the admin, with a reason for the audit log: moderation/services.py.)"""
    return game.is_playing() and game.turn_deadline is not None and game.creator_id == user.pk


def ever_seated(user, game: Game) -> bool:
    """Does this person hold a seat of the game, or did they hold one before it was given to
    someone else (Seat.former_users)?"""
    return game.seats.filter(Q(user=user) | Q(former_users=user)).exists()


def may_inspect(user, game: Game) -> bool:
    """May this person see every card of the game? Moderators may, except in a game they
    play or once played: a seat at the table hides your own cards from you, whatever your
    role, and giving the seat away (issue 25) must not open them to you while the game is
    played. A finished game shows every hand to everyone."""
    if not is_moderator(user):
        return False
    return game.is_finished() or not ever_seated(user, game)
