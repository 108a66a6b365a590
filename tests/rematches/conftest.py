"""Finished tables to play again. Personas (tests/conftest.py): alice proposes, bob and
carol played with her, mallory played in none of her games."""

import pytest
from django.utils import timezone

from games.engine import GameOptions
from games.models import BotKind, ChatPolicy, Game, TimeoutPolicy
from games.services import lobby
from tests.games.conftest import play_to_the_end, start_game


def ended(game: Game) -> Game:
    """A started game marked over at once: how it ended does not matter to a rematch, and
    playing a table with bots to the end takes workers (the play-through test plays one)."""
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, finished_at=timezone.now(), current_seat=None
    )
    game.refresh_from_db()
    return game


@pytest.fixture
def finished(alice, bob, carol) -> Game:
    """Alice, bob and carol's game, played to the end, with a time limit and chat."""
    return play_to_the_end(
        start_game(
            alice,
            bob,
            carol,
            turn_time_limit=48,
            timeout_policy=TimeoutPolicy.END_GAME,
            chat_policy=ChatPolicy.DURING,
        )
    )


@pytest.fixture
def with_bots(alice, bob) -> Game:
    """Alice and bob with an expert bot and a house bot, over."""
    game = lobby.create_game(
        alice, GameOptions(players=4), Game.Visibility.PUBLIC, bots=2, bot_kind=BotKind.EXPERT
    )
    lobby.set_bot(game.pk, alice, 3, True, BotKind.HOUSE)
    lobby.join_game(game.pk, bob)
    lobby.start_game(game.pk, alice)
    return ended(game)
