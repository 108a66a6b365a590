"""Personas: alice creates games, bob and carol play with her, mallory plays in none."""

import pytest

from accounts.models import User
from games import services
from games.engine import GameOptions
from games.models import Game


def make_user(name: str) -> User:
    return User.objects.create_user(f"{name}@example.org", "pw-" + name, display_name=name.title())


@pytest.fixture
def alice(db) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db) -> User:
    return make_user("bob")


@pytest.fixture
def carol(db) -> User:
    return make_user("carol")


@pytest.fixture
def mallory(db) -> User:
    return make_user("mallory")


def start_game(
    creator: User, *others: User, deck: list | None = None, seed: int = 1234, **options
) -> Game:
    """A started game with these players (seating shuffled by the seed)."""
    game_options = GameOptions(players=1 + len(others), **options)
    game = services.create_game(creator, game_options, Game.Visibility.INVITE)
    Game.objects.filter(pk=game.pk).update(seed=seed, deck=deck)
    for user in others:
        services.join_game(game.pk, user, game.invite_code)
    services.start_game(game.pk, creator)
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
        state = services.load_state(game)
        legal = state.legal_actions()
        from games.engine import Discard, action_to_dict

        choice = next((a for a in legal if isinstance(a, Discard)), legal[0])
        services.submit_action(game.pk, current_user(game), action_to_dict(choice), game.turn)
    raise AssertionError("the game did not end")
