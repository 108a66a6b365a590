"""Read a game file of either kind the project writes or accepts: hanab.live JSON, or this
engine's own record. Both command lines (the engine's and the analysis') read files here."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card
from .hanablive import from_hanablive
from .options import GameOptions
from .record import RECORD_FORMAT, from_record
from .shuffle import new_deck


@dataclass
class GameFile:
    options: GameOptions
    deck: list[Card]
    actions: list[Action]
    dropped_actions: int = 0  # hanab.live actions after the point where these rules end
    end_marker: dict | None = None  # hanab.live's type-4 action, if any


def read_game(data: object) -> GameFile:
    """The game in a parsed JSON document. Raises HanabLiveImportError, RecordError,
    InvalidDeck or InvalidOptions when the document is malformed."""
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        record = from_record(data)
        deck = record.deck if record.seed is None else new_deck(record.options, record.seed)
        return GameFile(record.options, list(deck), record.actions)
    imported = from_hanablive(data)
    return GameFile(
        imported.options,
        imported.deck,
        imported.actions,
        imported.dropped_actions,
        imported.end_marker,
    )
