"""Who may sit at a rematch's table: the proposer (seated at the proposal) and the invitees
who accepted. A public rematch is listed in the lobby like any open game, and without this
guard a stranger could take the seat kept for an invitee (games/seat_guards.py)."""

from accounts.models import User
from games.models import Game
from rematches.models import Invitee, Rematch


def only_those_who_accepted(game: Game, user: User) -> str | None:
    rematch = Rematch.objects.filter(game_id=game.pk).first()
    if rematch is None:
        return None
    if rematch.invitees.filter(user=user, answer=Invitee.Answer.ACCEPTED).exists():
        return None
    return "This table is kept for a rematch: only the players invited to it can sit here."
