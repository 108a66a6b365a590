"""Deals for the tests: a finished game shared, and tables started on its deal."""

from games.models import Game
from tests.games.conftest import play_to_the_end, start_game


def finished_game(*users, seed: int = 1234, **options) -> Game:
    return play_to_the_end(start_game(*users, seed=seed, **options))


def join_and_start(game: Game, *others) -> Game:
    """Seat `others` at an open table and start it (its creator starts it)."""
    from games.services import lobby

    for user in others:
        lobby.join_game(game.pk, user, game.invite_code)
    lobby.start_game(game.pk, game.creator)
    game.refresh_from_db()
    return game
