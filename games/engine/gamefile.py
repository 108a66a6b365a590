"""Read a game file of either kind the project writes or accepts: hanab.live JSON, or this
engine's own record. Both command lines (the engine's and the analysis') read files here.

Whatever a file holds, reading it raises only OSError (it cannot be opened) or one of
``FILE_ERRORS``, each with a one-line message that says what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card
from .hanablive import HanabLiveImportError, from_hanablive
from .jsoninput import UnreadableJSON, load_json
from .options import GameOptions
from .record import RECORD_FORMAT, RecordError, from_record
from .shuffle import new_deck

# A game file is a few kilobytes; this bounds the memory a wrong file can take.
MAX_FILE_BYTES = 1_000_000
FILE_ERRORS = (UnreadableJSON, HanabLiveImportError, RecordError)


@dataclass
class GameFile:
    options: GameOptions
    deck: list[Card]
    actions: list[Action]
    dropped_actions: int = 0  # hanab.live actions after the point where these rules end
    end_marker: dict | None = None  # hanab.live's type-4 action, if any


def read_game_file(path: str) -> GameFile:
    """The game in the file at ``path``: OSError, or one of FILE_ERRORS saying why not."""
    with open(path, "rb") as file:
        content = file.read(MAX_FILE_BYTES + 1)
    if len(content) > MAX_FILE_BYTES:
        raise UnreadableJSON(f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB")
    return read_game(load_json(content))


def read_game(data: object) -> GameFile:
    """The game in a parsed JSON document. Raises HanabLiveImportError or RecordError when
    the document is malformed."""
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
