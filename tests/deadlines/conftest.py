"""Helpers for the deadline tests: timed games, making a turn overdue, a harmless move.

The personas (alice, bob, carol, mallory) come from tests/conftest.py; games are set up with
tests.games.conftest.start_game.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.engine import Clue, Discard, action_to_dict
from games.models import Game, Move, TimeoutPolicy
from games.services import play
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import current_user, start_game


@pytest.fixture(autouse=True)
def no_broker(monkeypatch) -> list[int]:
    """Outbox rows are run here by calling outbox.delivery.run: nothing goes to a broker (the
    sweep would otherwise hand due rows to Celery). Returns the ids it would have sent."""
    sent: list[int] = []
    monkeypatch.setattr(
        delivery, "_enqueue", lambda row_id, kind, delay=timedelta(0): sent.append(row_id)
    )
    return sent


def timed_game(
    *users: User, hours: int = 24, policy: str = TimeoutPolicy.AUTO_MOVE, **kwargs
) -> Game:
    """A started game with a turn time limit (the first user creates it)."""
    return start_game(*users, turn_time_limit=hours, timeout_policy=policy, **kwargs)


def make_overdue(game: Game, by: timedelta = timedelta(minutes=1)) -> None:
    """Move the current turn's deadline into the past, as if the time had gone by."""
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - by)
    game.refresh_from_db()


def harmless_action(game: Game) -> dict:
    """A legal action that changes no score and burns no fuse: a discard, else a clue."""
    legal = game.load_state().legal_actions()
    choice = next((a for a in legal if isinstance(a, Discard)), None)
    choice = choice or next(a for a in legal if isinstance(a, Clue))
    return action_to_dict(choice)


def real_move(game: Game) -> Move:
    """The current player moves (a real move, through the service)."""
    game.refresh_from_db()
    move = play.submit_action(game.pk, current_user(game), harmless_action(game), game.turn)
    game.refresh_from_db()
    return move


def moves_of(game: Game) -> list[tuple[int, str]]:
    return list(Move.objects.filter(game=game).order_by("turn").values_list("turn", "made_by"))


def outbox_rows(game: Game, kind: str, turn: int | None = None):
    rows = Outbox.objects.filter(kind=kind, payload__game=game.pk)
    return rows if turn is None else rows.filter(payload__turn=turn)
