"""The table's chat: players write when the game's chat policy allows it."""

from django.db import transaction

from accounts.models import User
from games import limits
from games.errors import GameError, NotAllowed
from games.models import ChatMessage, Game
from games.services import versions

MAX_MESSAGE = 500


def post_message(game_id: int, user: User, text: str) -> ChatMessage:
    """A player writes at the table, when the game's chat policy allows it."""
    text = " ".join(text.split())
    if not text:
        raise GameError("Write something first.")
    if len(text) > MAX_MESSAGE:
        raise GameError(f"A message has at most {MAX_MESSAGE} characters.")
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.seats.filter(user=user).exists():
        raise NotAllowed("Only the players of a game can write in its chat.")
    if not game.chat_open():
        raise GameError("This table keeps quiet during play: the chat opens when the game ends.")
    limits.CHAT_MESSAGES.check(ChatMessage.objects.filter(author=user))
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, author=user, text=text)
        versions.bump(game)
    return message
