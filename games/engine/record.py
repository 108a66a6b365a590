"""This engine's own game record: options, seed (or deck), player names and actions as JSON.

hanab.live JSON cannot hold every game played here (it has no fuse option); this record
can. ``python -m games.engine replay`` reads both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .actions import Action, IllegalAction, action_from_dict, action_to_dict
from .cards import Card
from .jsoninput import shown
from .options import GameOptions, InvalidOptions
from .state import GameState, InvalidDeck, check_deck, replay

RECORD_FORMAT = "hanabi-engine/1"


class RecordError(ValueError):
    """A malformed record; the message says what is wrong."""


@dataclass
class GameRecord:
    options: GameOptions
    seed: int | None
    deck: list[Card] | None
    actions: list[Action]
    player_names: list[str]

    def replay(self, upto: int | None = None) -> GameState:
        source = self.seed if self.seed is not None else self.deck
        return replay(self.options, source, self.actions, upto)


def to_record(
    options: GameOptions,
    seed_or_deck: int | Sequence,
    actions: Iterable[Action],
    player_names: Sequence[str] | None = None,
) -> dict:
    """A JSON-able record of a game."""
    record: dict = {"format": RECORD_FORMAT, "options": options.to_dict()}
    if isinstance(seed_or_deck, int) and not isinstance(seed_or_deck, bool):
        record["seed"] = seed_or_deck
    else:
        record["deck"] = [card.code for card in check_deck(options, seed_or_deck)]
    record["players"] = list(player_names) if player_names is not None else None
    record["actions"] = [action_to_dict(action) for action in actions]
    return record


def from_record(data: object) -> GameRecord:
    """Read a record; RecordError if it is malformed (legality is checked by replay)."""
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(f'not a game record (expected "format": "{RECORD_FORMAT}")')
    try:
        options = GameOptions.from_dict(data.get("options"))
    except InvalidOptions as error:
        raise RecordError(f"bad options: {error}") from None
    seed = data.get("seed")
    deck = None
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RecordError(f"the seed must be an integer, not {shown(seed)}")
    else:
        raw = data.get("deck")
        if not isinstance(raw, list) or not all(isinstance(code, str) for code in raw):
            raise RecordError('a record needs a "seed" or a "deck" of card codes like "R3"')
        try:
            deck = list(check_deck(options, [Card.parse(code) for code in raw]))
        except (ValueError, InvalidDeck) as error:
            raise RecordError(f"bad deck: {error}") from None
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list):
        raise RecordError('"actions" must be a list')
    actions = []
    for index, item in enumerate(raw_actions):
        try:
            actions.append(action_from_dict(item))
        except IllegalAction as error:
            raise RecordError(f"action {index}: {error.reason}") from None
    names = data.get("players")
    if names is None:
        names = [f"Player {seat + 1}" for seat in range(options.players)]
    if (
        not isinstance(names, list)
        or len(names) != options.players
        or not all(isinstance(name, str) for name in names)
    ):
        raise RecordError(f'"players" must list {options.players} names')
    return GameRecord(options, seed, deck, actions, names)
