"""What a request about a game can fail with. Every message is written for the player."""


class GameError(Exception):
    """A request the game cannot take; the message is for the player."""


class NotAllowed(GameError):
    """The user has no right to do this to this game."""


class StaleMove(GameError):
    """The page the move came from is out of date: the game has moved on."""


class IllegalMove(GameError):
    """The rules do not allow this action now."""


class TooMany(GameError):
    """The person has asked this too often lately (games/limits.py): HTTP 429."""
