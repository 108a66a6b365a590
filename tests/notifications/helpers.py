"""A game set up for the turn emails' tests (tests/notifications/): clues given, so that the
reader's own cards and a hand they see both carry clues."""

from games.engine import action_to_dict
from games.models import Game
from games.services import play
from tests.games.conftest import current_user, start_game


def clue_to(game: Game, target: int) -> dict:
    """The first legal clue to `target`'s hand."""
    state = game.load_state()
    clue = next(
        a for a in state.legal_actions() if type(a).__name__ == "Clue" and a.target == target
    )
    return action_to_dict(clue)


def three_players_with_clues(alice, bob, carol, **options) -> Game:
    """Seat 0 clues seat 2, seat 1 clues seat 0: seat 2 is to move, with clues on its own
    cards and on a hand it sees."""
    game = start_game(alice, bob, carol, **options)
    play.submit_action(game.pk, current_user(game), clue_to(game, 2), 0)
    play.submit_action(game.pk, current_user(game), clue_to(game, 0), 1)
    game.refresh_from_db()
    assert game.current_seat == 2
    return game
