"""Helpers to set up games. The personas (alice, bob, carol, mallory) are in tests/conftest.py."""

import pytest

from accounts.models import User
from games.engine import GameOptions
from games.models import ChatPolicy, Game, TimeoutPolicy
from games.services import lobby, play
from tests.conftest import make_moderator, make_user  # noqa: F401  (make_user re-exported)


def start_game(
    creator: User,
    *others: User,
    deck: list | None = None,
    seed: int = 1234,
    turn_time_limit: int | None = None,
    timeout_policy: str = TimeoutPolicy.AUTO_MOVE,
    chat_policy: str = ChatPolicy.AFTER,
    **options,
) -> Game:
    """A started game with these players (seating shuffled by the seed). `options` are the
    engine's GameOptions; the time limit (hours) and timeout policy are the site's."""
    game_options = GameOptions(players=1 + len(others), **options)
    game = lobby.create_game(
        creator,
        game_options,
        Game.Visibility.INVITE,
        turn_time_limit=turn_time_limit,
        timeout_policy=timeout_policy,
        chat_policy=chat_policy,
    )
    Game.objects.filter(pk=game.pk).update(seed=seed, deck=deck)
    for user in others:
        lobby.join_game(game.pk, user, game.invite_code)
    lobby.start_game(game.pk, creator)
    game.refresh_from_db()
    return game


def user_at(game: Game, position: int) -> User:
    return game.seats.get(position=position).user


def current_user(game: Game) -> User:
    game.refresh_from_db()
    return user_at(game, game.current_seat)


def play_to_the_end(game: Game, max_moves: int = 500) -> Game:
    """Make legal moves (the engine's first legal action, discards preferred) until the end."""
    for _ in range(max_moves):
        game.refresh_from_db()
        if not game.is_playing():
            return game
        state = game.load_state()
        legal = state.legal_actions()
        from games.engine import Discard, action_to_dict

        choice = next((a for a in legal if isinstance(a, Discard)), legal[0])
        play.submit_action(game.pk, current_user(game), action_to_dict(choice), game.turn)
    raise AssertionError("the game did not end")


@pytest.fixture
def people(alice, bob, carol) -> dict:
    """The personas by name, and maud, a moderator: the cases of tests/games/changes.py."""
    return {"alice": alice, "bob": bob, "carol": carol, "maud": make_moderator("maud")}
