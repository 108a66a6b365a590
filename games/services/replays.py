"""Games as records to step through: a finished game of this site, an imported game file,
and the download of a finished game: hanab.live JSON when hanab.live can hold the game,
otherwise the engine's own record (games/engine/record.py), which holds every option. The
import reads both, so every download imports back."""

import unicodedata
from dataclasses import dataclass

from accounts.models import User
from games.engine import (
    ExportError,
    GameOptions,
    HanabLiveImportError,
    IllegalAction,
    RecordError,
    action_text,
    action_to_dict,
    from_hanablive,
    from_record,
    new_deck,
    new_game,
    replay,
    to_hanablive,
    to_record,
)
from games.engine.hanablive import MAX_NAME_LENGTH, UNSHOWABLE
from games.engine.jsoninput import UnreadableJSON, load_json
from games.engine.record import RECORD_FORMAT
from games.errors import GameError
from games.models import Game, ImportedReplay

MAX_IMPORT_BYTES = 1_000_000


def game_record(game: Game, title: str) -> dict:
    """What a replay page steps through: title, options, deck_source, actions, names, end."""
    return {
        "title": title,
        "options": game.game_options,
        "deck_source": game.deck_source,
        # With the free rearrangements of hands (an option) where they were made.
        "actions": game.with_rearrangements(
            list(game.moves.order_by("turn").values_list("action", flat=True))
        ),
        "names": game.seat_names(),
        "end": game.end,
    }


def imported_record(imported: ImportedReplay) -> dict:
    return {
        "title": f"Imported game: {', '.join(imported.player_names)}",
        "options": GameOptions.from_dict(imported.options),
        "deck_source": imported.deck,
        "actions": imported.actions,
        "names": imported.player_names,
    }


@dataclass(frozen=True)
class Download:
    """A finished game as a file. `hanablive_refusal` is empty when `data` is hanab.live
    JSON; otherwise it says why hanab.live cannot hold the game, and `data` is the engine's
    own record."""

    data: dict
    hanablive_refusal: str = ""

    @property
    def is_hanablive(self) -> bool:
        return not self.hanablive_refusal


def download(record: dict) -> Download:
    """The download of a finished game, from what game_record makes (no query of its own, so
    the replay page can say which format its link gives)."""
    options, actions, names = record["options"], record["actions"], record["names"]
    # The deck itself, not the seed: the file then needs no shuffle to be read.
    deck = replay(options, record["deck_source"], []).deck
    try:
        return Download(to_hanablive(options, deck, actions, names))
    except ExportError as error:
        state = replay(options, deck, actions)
        # The engine's message, shorter where the replay's link can say it in a few words.
        why = f"hanab.live has no {options.fuses}-fuse option" if options.fuses != 3 else ""
        if options.rearrange:
            why = "hanab.live has no rearranging of hands"
        return Download(to_record(options, deck, state.actions, names), why or str(error))


def import_game_file(owner: User, content: bytes, file_name: str) -> ImportedReplay:
    """Keep a game file (hanab.live JSON, or the engine's own record that this site
    downloads when hanab.live cannot hold a game) as a replay to watch; GameError says why a
    file is refused (too large, not JSON, not a game the engine can replay). The engine's
    readers refuse every malformed file with their own error, so anything else escaping
    them is a bug."""
    try:
        if len(content) > MAX_IMPORT_BYTES:
            raise UnreadableJSON("the file is larger than 1 MB")
        data = load_json(content)
        if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
            options, deck, actions, names = _read_record(data)
        else:
            imported = from_hanablive(data)
            options, deck = imported.options, imported.deck
            actions, names = imported.actions, imported.player_names
    except (UnreadableJSON, HanabLiveImportError, RecordError) as error:
        raise GameError(f"This file cannot be imported: {error}") from None
    return ImportedReplay.objects.create(
        owner=owner,
        options=options.to_dict(),
        deck=[list(card) for card in deck],
        actions=[action_to_dict(action) for action in actions],
        player_names=list(names),
        file_name=file_name[:200],
    )


# The tests of the import (tests/games/test_import_fuzz.py) call it by its first name.
import_hanablive = import_game_file


def _read_record(data: dict) -> tuple:
    """Options, deck, actions and names of an engine record, checked as strictly as a
    hanab.live file: names that can be shown and stored, every action legal in turn, none
    after the end. RecordError says what is wrong."""
    record = from_record(data)
    names = record.player_names
    for seat, name in enumerate(names):
        # As hanab.live names are checked (games/engine/hanablive.py): a NUL cannot be
        # stored by PostgreSQL, a lone surrogate shown on a page, a line break in a message.
        if not 1 <= len(name) <= MAX_NAME_LENGTH or any(
            unicodedata.category(char) in UNSHOWABLE for char in name
        ):
            raise RecordError(
                f"player {seat}'s name must be 1 to {MAX_NAME_LENGTH} characters that can "
                "be shown (no control character, line break or lone surrogate)"
            )
    deck = record.deck if record.seed is None else new_deck(record.options, record.seed)
    state = new_game(record.options, deck=deck)
    for index, action in enumerate(record.actions):
        if state.is_over:
            raise RecordError(f"action {index} comes after the end of the game")
        try:
            state.apply(action)
        except IllegalAction as error:
            who = action_text(action, names, state.turn % len(names))
            raise RecordError(f"action {index} ({who}) is illegal: {error.reason}") from None
    return record.options, deck, record.actions, names
