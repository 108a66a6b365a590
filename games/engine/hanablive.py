"""hanab.live's game JSON, both ways.

The format (hanab.live's ``misc/example_game_with_comments.jsonc`` and
``server/src/game_json.go``)::

    {"players": ["Ann", "Bob"],                 # seat 0 first; seat 0 moves first
     "deck": [{"suitIndex": 3, "rank": 1}, ...],  # top of the deck first
     "actions": [{"type": 0, "target": 2, "value": 0}, ...],
     "options": {"variant": "No Variant", "emptyClues": true, ...}}

Dealing is seat 0 first, a full hand each, exactly as this engine deals, so card ids (deck
positions) mean the same thing on both sides. Action types: 0 play (target = card id),
1 discard (target = card id), 2 colour clue (target = seat, value = index into the variant's
clue colours), 3 rank clue (target = seat, value = rank), 4 game over (a marker some exports
end with; target = seat, value = hanab.live's end condition).

Variants: none = "No Variant" (Red, Yellow, Green, Blue, Purple), 1 = "6 Suits" (+ Teal),
2 = "Black (6 Suits)" (+ Black, one of each), 3 = "Rainbow (6 Suits)" (+ Rainbow, touched by
every colour clue). Suits map by index: hanab.live's purple is our white and its sixth suit
our multicolour. hanab.live derives a variant's clue colours from its suits in order, skipping
suits that every colour touches, so the colour clue indexes are the suit indexes, 0-5 in
variants 1 and 2 and 0-4 with Rainbow. Play until perfect is hanab.live's ``allOrNothing``,
empty clues its ``emptyClues``. hanab.live has no fuse option: it always plays with 3.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .actions import Action, Clue, Discard, IllegalAction, Play, action_from_dict, action_text
from .cards import Card
from .jsoninput import shown
from .options import GameOptions, InvalidOptions
from .state import GameState, InvalidDeck, check_deck, new_game, replay

VARIANT_NAMES: dict[int, str] = {
    0: "No Variant",
    1: "6 Suits",
    2: "Black (6 Suits)",
    3: "Rainbow (6 Suits)",
}
VARIANT_BY_NAME: dict[str, int] = {name: number for number, name in VARIANT_NAMES.items()}

ACTION_PLAY, ACTION_DISCARD, ACTION_COLOUR_CLUE, ACTION_RANK_CLUE, ACTION_GAME_OVER = range(5)

# hanab.live options that do not change the rules of the recorded game (time controls).
NEUTRAL_OPTIONS = frozenset({"timed", "timeBase", "timePerTurn", "speedrun"})
# hanab.live options this project does not play: refused when true.
UNSUPPORTED_OPTIONS = {
    "cardCycle": "card cycling",
    "deckPlays": "deck plays",
    "oneExtraCard": "one extra card",
    "oneLessCard": "one less card",
    "detrimentalCharacters": "detrimental characters",
}
MAX_NAME_LENGTH = 100  # hanab.live's own limit is far lower; this only keeps pages readable
# Unicode categories refused in a name: control, surrogate, line and paragraph separators.
UNSHOWABLE = frozenset({"Cc", "Cs", "Zl", "Zp"})


class ExportError(ValueError):
    """The game cannot be written as hanab.live JSON; the message says why."""


class HanabLiveImportError(ValueError):
    """The JSON is malformed, or a game this project does not play; the message says which.

    ``action_index`` is set when one action is to blame (an illegal one).
    """

    def __init__(self, message: str, action_index: int | None = None) -> None:
        super().__init__(message)
        self.action_index = action_index


@dataclass
class ImportedGame:
    """A game read from hanab.live JSON, ready for new_game(options, deck=deck) + actions.

    ``dropped_actions`` counts actions the file holds after the point where this project's
    rules end the game (hanab.live plays on when no card can raise the score any more);
    they are not in ``actions``. ``end_marker`` is the file's type-4 action, if any.
    """

    options: GameOptions
    deck: list[Card]
    actions: list[Action]
    player_names: list[str]
    dropped_actions: int = 0
    end_marker: dict | None = None
    extra: dict = field(default_factory=dict)

    def replay(self, upto: int | None = None) -> GameState:
        """The state after the first ``upto`` imported actions (all of them if None)."""
        return replay(self.options, self.deck, self.actions, upto)


def _clue_colours(options: GameOptions) -> list[str]:
    return options.clue_colours


def to_hanablive(
    options: GameOptions,
    deck: Sequence,
    actions: Iterable[Action | dict],
    player_names: Sequence[str],
) -> dict:
    """hanab.live JSON for a game, or ExportError if hanab.live cannot represent it.

    The actions are checked by replaying them: an illegal one is an ExportError too.
    """
    if options.rearrange:
        # hanab.live has no action that moves a card within a hand.
        raise ExportError("hanab.live has no rearranging of one's hand, so it cannot be exported")
    if options.fuses != 3:
        raise ExportError(
            f"hanab.live has no fuse option (it always plays with 3), so a game with "
            f"{options.fuses} fuse{'s' if options.fuses > 1 else ''} cannot be exported"
        )
    names = [str(name) for name in player_names]
    if len(names) != options.players:
        raise ExportError(f"{len(names)} player names for a {options.players}-player game")
    if len(set(names)) != len(names) or not all(names):
        raise ExportError("hanab.live needs a distinct, non-empty name for every player")
    try:
        cards = check_deck(options, deck)
    except InvalidDeck as error:
        raise ExportError(str(error)) from None
    state = new_game(options, deck=cards)
    colours = _clue_colours(options)
    exported = []
    for index, action in enumerate(actions):
        try:
            if isinstance(action, dict):
                action = action_from_dict(action)
            state.apply(action)
        except IllegalAction as error:
            raise ExportError(f"action {index} is illegal: {error.reason}") from None
        if type(action) is Play:
            exported.append({"type": ACTION_PLAY, "target": action.card_id, "value": 0})
        elif type(action) is Discard:
            exported.append({"type": ACTION_DISCARD, "target": action.card_id, "value": 0})
        elif action.colour is not None:
            value = colours.index(action.colour)
            exported.append({"type": ACTION_COLOUR_CLUE, "target": action.target, "value": value})
        else:
            exported.append(
                {"type": ACTION_RANK_CLUE, "target": action.target, "value": action.rank}
            )
    game_options: dict = {"variant": VARIANT_NAMES[options.multicolour]}
    if options.empty_clues:
        game_options["emptyClues"] = True
    if options.until_perfect:
        game_options["allOrNothing"] = True
    return {
        "players": names,
        "deck": [{"suitIndex": card.suit, "rank": card.rank} for card in cards],
        "actions": exported,
        "options": game_options,
    }


def from_hanablive(data: object) -> ImportedGame:
    """Read hanab.live JSON. HanabLiveImportError names what is malformed or not played here.

    Options present but false are fine; any option that changes the rules in a way this
    project does not play is refused. The actions are replayed under this project's rules:
    an illegal one is refused (with ``action_index`` set); actions after the game's end are
    dropped and counted. Any document at all gets either a game or that error, whose
    message is one line of reasonable length (bad values are quoted by ``shown``).
    """
    if not isinstance(data, dict):
        raise HanabLiveImportError("a hanab.live game is a JSON object")
    for key in ("players", "deck", "actions"):
        if key not in data:
            raise HanabLiveImportError(f'the game has no "{key}"')
    names = _import_names(data["players"])
    if data.get("characters"):
        raise HanabLiveImportError("detrimental characters are not played here")

    options = _import_options(data.get("options"), len(names))
    deck = _import_deck(data["deck"], options)
    actions, end_marker = _import_actions(data["actions"], options, len(deck))

    state = new_game(options, deck=deck)
    kept = 0
    for index, action in enumerate(actions):
        if state.is_over:
            break
        try:
            state.apply(action)
        except IllegalAction as error:
            who = action_text(action, names, state.turn % len(names))
            raise HanabLiveImportError(
                f"action {index} ({who}) is illegal: {error.reason}", action_index=index
            ) from None
        kept += 1
    extra = {key: data[key] for key in ("id", "seed") if key in data}
    return ImportedGame(
        options=options,
        deck=deck,
        actions=actions[:kept],
        player_names=list(names),
        dropped_actions=len(actions) - kept,
        end_marker=end_marker,
        extra=extra,
    )


def _import_names(raw: object) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise HanabLiveImportError('"players" must be a list of names')
    if not 2 <= len(raw) <= 6:
        raise HanabLiveImportError(f"this project plays with 2 to 6 players, not {len(raw)}")
    for seat, name in enumerate(raw):
        if not name or len(name) > MAX_NAME_LENGTH:
            raise HanabLiveImportError(
                f"player {seat}'s name must have 1 to {MAX_NAME_LENGTH} characters, not {len(name)}"
            )
        # A lone surrogate (JSON's "\ud800") cannot be encoded on a page, nor a NUL stored
        # by PostgreSQL; a line break would split an error message in two.
        if any(unicodedata.category(char) in UNSHOWABLE for char in name):
            raise HanabLiveImportError(
                f"player {seat}'s name {shown(name)} holds a character that cannot be shown "
                "(a control character, a line break or a lone surrogate)"
            )
    return list(raw)


def _import_options(raw: object, players: int) -> GameOptions:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise HanabLiveImportError('"options" must be a JSON object')
    variant = raw.get("variant", "No Variant")
    if not isinstance(variant, str) or variant not in VARIANT_BY_NAME:
        known = ", ".join(f'"{name}"' for name in VARIANT_NAMES.values())
        raise HanabLiveImportError(
            f"the variant {shown(variant)} is not played here (only {known})"
        )
    for key, value in raw.items():
        if key in ("variant", "emptyClues", "allOrNothing") or key in NEUTRAL_OPTIONS:
            continue
        if key == "startingPlayer":
            if value is not None and (isinstance(value, bool) or value != 0):
                raise HanabLiveImportError(
                    f"startingPlayer {shown(value)} is not supported: here the first player "
                    "listed moves first"
                )
            continue
        if not value:
            continue  # present but off (false, 0, empty)
        label = UNSUPPORTED_OPTIONS.get(key, f"the option {shown(key)}")
        raise HanabLiveImportError(f"{label} ({shown(key)}: {shown(value)}) is not played here")
    flags = {}
    for key in ("emptyClues", "allOrNothing"):
        value = raw.get(key, False)
        if not isinstance(value, bool):
            raise HanabLiveImportError(f'"{key}" must be true or false, not {shown(value)}')
        flags[key] = value
    try:
        return GameOptions(
            players=players,
            multicolour=VARIANT_BY_NAME[variant],
            until_perfect=flags["allOrNothing"],
            empty_clues=flags["emptyClues"],
        )
    except InvalidOptions as error:  # pragma: no cover - players is checked before
        raise HanabLiveImportError(str(error)) from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _import_deck(raw: object, options: GameOptions) -> list[Card]:
    if not isinstance(raw, list):
        raise HanabLiveImportError('"deck" must be a list of cards')
    cards = []
    for position, item in enumerate(raw):
        if (
            not isinstance(item, dict)
            or not _is_int(item.get("suitIndex"))
            or not _is_int(item.get("rank"))
        ):
            raise HanabLiveImportError(
                f'deck card {position} must be {{"suitIndex": int, "rank": int}}, not {shown(item)}'
            )
        suit, rank = item["suitIndex"], item["rank"]
        if not 0 <= suit < options.num_suits or rank not in (1, 2, 3, 4, 5):
            raise HanabLiveImportError(
                f"deck card {position} (suitIndex {shown(suit)}, rank {shown(rank)}) does not "
                f'exist in "{VARIANT_NAMES[options.multicolour]}"'
            )
        cards.append(Card(suit, rank))
    try:
        return list(check_deck(options, cards))
    except InvalidDeck as error:
        raise HanabLiveImportError(f'{error} ("{VARIANT_NAMES[options.multicolour]}")') from None


def _import_actions(
    raw: object, options: GameOptions, deck_size: int
) -> tuple[list[Action], dict | None]:
    if not isinstance(raw, list):
        raise HanabLiveImportError('"actions" must be a list')
    colours = _clue_colours(options)
    actions: list[Action] = []
    end_marker = None
    for index, item in enumerate(raw):
        if not isinstance(item, dict) or not _is_int(item.get("type")):
            raise HanabLiveImportError(f'action {index} must be an object with an integer "type"')
        kind = item["type"]
        target = item.get("target")
        value = item.get("value", 0)
        if not _is_int(target):
            raise HanabLiveImportError(f'action {index} needs an integer "target"')
        if not _is_int(value):
            raise HanabLiveImportError(f'action {index} has a "value" that is not an integer')
        if kind == ACTION_GAME_OVER:
            if index != len(raw) - 1:
                raise HanabLiveImportError(
                    f"action {index} ends the game (type 4) but more actions follow it"
                )
            end_marker = {"target": target, "value": value}
        elif kind in (ACTION_PLAY, ACTION_DISCARD):
            if not 0 <= target < deck_size:
                raise HanabLiveImportError(
                    f"action {index} names card {shown(target)}; the deck has cards 0 to "
                    f"{deck_size - 1}"
                )
            actions.append(Play(target) if kind == ACTION_PLAY else Discard(target))
        elif kind in (ACTION_COLOUR_CLUE, ACTION_RANK_CLUE):
            if not 0 <= target < options.players:
                raise HanabLiveImportError(
                    f"action {index} clues player {shown(target)}; the players are 0 to "
                    f"{options.players - 1}"
                )
            if kind == ACTION_COLOUR_CLUE:
                if not 0 <= value < len(colours):
                    raise HanabLiveImportError(
                        f"action {index} clues colour {shown(value)}; "
                        f'"{VARIANT_NAMES[options.multicolour]}" has colours 0 to '
                        f"{len(colours) - 1}"
                    )
                actions.append(Clue(target, colour=colours[value]))
            else:
                if value not in (1, 2, 3, 4, 5):
                    raise HanabLiveImportError(
                        f"action {index} clues rank {shown(value)}; ranks are 1-5"
                    )
                actions.append(Clue(target, rank=value))
        else:
            raise HanabLiveImportError(
                f"action {index} has type {shown(kind)}; the types are 0 play, 1 discard, "
                "2 colour clue, 3 rank clue, 4 game over"
            )
    return actions, end_marker


def colour_index(options: GameOptions, colour: str) -> int:
    """hanab.live's clue value for a colour name in this variant."""
    return _clue_colours(options).index(colour)
