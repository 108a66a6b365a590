"""Helpers shared by several test modules of games: a deck with chosen cards on top, a card
of the turn page, and a finished game's analysis run as a worker runs it. The helpers that
start and play games are in tests/games/conftest.py."""

import re

from games.engine import GameOptions
from games.models import Game
from outbox import delivery
from outbox.models import Outbox
from tests.engine.helpers import deck_with_top

# Two players: seat 0 holds ids 0-4, seat 1 ids 5-9 (slot 1 is the newest: the highest id).
TOP = "R1 R2 Y1 G1 B1  R5 R3 B2 R4 W1"


def deck(top: str = TOP) -> list[list[int]]:
    """A standard deck with these cards (codes) dealt first, as a game's `deck` field."""
    return [list(card) for card in deck_with_top(GameOptions(players=2), top)]


def card_item(page: str, card_id: int) -> str:
    """The <li> of one card on the table."""
    match = re.search(
        rf'<li class="card[^"]*" data-card-id="{card_id}"[^>]*>(.*?)</li>', page, re.S
    )
    assert match, card_id
    return match.group(1)


def analysis_row(game: Game) -> Outbox:
    return Outbox.objects.get(kind="analysis", payload__game=game.pk)


def analysed(game: Game) -> Game:
    """Run the game's analysis row, as a worker does once the ending has committed."""
    assert delivery.run(analysis_row(game).pk)
    return game
