"""Games as records to step through: a finished game of this site, an imported hanab.live
file, and the download of a finished game in hanab.live's format."""

from accounts.models import User
from games.engine import (
    ExportError,
    GameOptions,
    HanabLiveImportError,
    action_to_dict,
    from_hanablive,
    to_hanablive,
)
from games.engine.jsoninput import UnreadableJSON, load_json
from games.errors import GameError
from games.models import Game, ImportedReplay

MAX_IMPORT_BYTES = 1_000_000


def game_record(game: Game, title: str) -> dict:
    """What a replay page steps through: title, options, deck_source, actions, names, end."""
    return {
        "title": title,
        "options": game.game_options,
        "deck_source": game.deck_source,
        "actions": list(game.moves.order_by("turn").values_list("action", flat=True)),
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


def export_hanablive(game: Game) -> dict:
    """A finished game as hanab.live JSON. GameError if hanab.live cannot hold it."""
    state = game.load_state()
    try:
        return to_hanablive(game.game_options, list(state.deck), state.actions, game.seat_names())
    except ExportError as error:
        raise GameError(f"This game cannot be downloaded for hanab.live: {error}") from None


def import_hanablive(owner: User, content: bytes, file_name: str) -> ImportedReplay:
    """Keep a hanab.live JSON file as a replay to watch; GameError says why a file is refused
    (too large, not JSON, not a game the engine can replay). The engine's reader refuses
    every malformed file with its own error, so anything else escaping it is a bug."""
    try:
        if len(content) > MAX_IMPORT_BYTES:
            raise UnreadableJSON("the file is larger than 1 MB")
        imported = from_hanablive(load_json(content))
    except (UnreadableJSON, HanabLiveImportError) as error:
        raise GameError(f"This file cannot be imported: {error}") from None
    return ImportedReplay.objects.create(
        owner=owner,
        options=imported.options.to_dict(),
        deck=[list(card) for card in imported.deck],
        actions=[action_to_dict(action) for action in imported.actions],
        player_names=list(imported.player_names),
        file_name=file_name[:200],
    )
