"""What an email's one-click unsubscribe link for one game does (accounts/unsubscribe.py):
the game page's mute, through the same service."""

from accounts.models import User
from games.errors import NotAllowed
from games.services import play


def mute_from_unsubscribe_link(game_id: int, user: User) -> bool:
    try:
        play.set_muted(game_id, user, True)
    except NotAllowed:
        return False  # no longer seated (a moderator gave the seat away): no emails come
    return True
