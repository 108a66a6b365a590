"""Game options: chosen when a game is created, fixed once it starts (RULES.md, "Game options")."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import MULTICOLOUR, SUIT_LETTERS, SUITS, copies_per_identity
from .jsoninput import shown

MULTICOLOUR_VARIANTS: dict[int, str] = {
    0: "no multicolour",
    1: "sixth suit",
    2: "sixth suit, one of each",
    3: "wild multicolour",
}
MAX_CLUE_TOKENS = 8


NO_VARIANT = "no variant"


class InvalidOptions(ValueError):
    """The options are not a game this project plays; the message says what is wrong."""


def _check_int(name: str, value: object, allowed: range | tuple[int, ...], meaning: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise InvalidOptions(f"{name} must be {meaning}, not {shown(value)}")


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidOptions(f"{name} must be true or false, not {shown(value)}")


@dataclass(frozen=True, slots=True)
class GameOptions:
    """The options of one game.

    players: 2-6. multicolour: 0 none, 1 sixth suit, 2 sixth suit with one card of each rank,
    3 wild multicolour (colour clues touch it, nobody clues "multicolour").
    until_perfect: variant 4, play on until victory or defeat; combines with any multicolour.
    fuses: 1-3 (the game is lost when the last one burns). empty_clues: a clue may touch no card.
    rearrange: a player may move a card within their own hand at any time, without taking a
    turn (RULES.md, "Rearranging one's hand").

    Construction validates and raises InvalidOptions with a message that says what is wrong.
    """

    players: int
    multicolour: int = 0
    until_perfect: bool = False
    fuses: int = 3
    empty_clues: bool = False
    rearrange: bool = False

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        _check_int("players", self.players, range(2, 7), "a whole number from 2 to 6")
        _check_int(
            "multicolour",
            self.multicolour,
            (0, 1, 2, 3),
            "0 (none), 1 (sixth suit), 2 (sixth suit, one of each) or 3 (wild multicolour)",
        )
        _check_bool("until_perfect", self.until_perfect)
        _check_int("fuses", self.fuses, (1, 2, 3), "1, 2 or 3")
        _check_bool("empty_clues", self.empty_clues)
        _check_bool("rearrange", self.rearrange)

    # -- derived values -------------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        """5 cards with 2 or 3 players, 4 with 4 or 5, 3 with 6."""
        return 5 if self.players <= 3 else 4 if self.players <= 5 else 3

    @property
    def num_suits(self) -> int:
        return 6 if self.multicolour else 5

    @property
    def suits(self) -> list[str]:
        """Suit names in suit-index order: red, yellow, green, blue, white[, multicolour]."""
        return list(SUITS[: self.num_suits])

    @property
    def suit_letters(self) -> list[str]:
        return list(SUIT_LETTERS[: self.num_suits])

    @property
    def clue_colours(self) -> list[str]:
        """The colours a player may name in a clue; with wild multicolour, not multicolour."""
        if self.multicolour == 3:
            return list(SUITS[:MULTICOLOUR])
        return self.suits

    @property
    def max_score(self) -> int:
        return 5 * self.num_suits

    @property
    def deck_size(self) -> int:
        return sum(copies_per_identity(self.multicolour))

    @property
    def wild_multicolour(self) -> bool:
        return self.multicolour == 3

    def describe(self) -> str:
        """One line for people: '3 players, wild multicolour, until perfect, 2 fuses'."""
        variant = self.variant_name()
        players = f"{self.players} players"
        return players if variant == NO_VARIANT else f"{players}, {variant}"

    def variant_name(self) -> str:
        """The rules beyond the player count: 'wild multicolour, 2 fuses', or 'no variant'."""
        parts = []
        if self.multicolour:
            parts.append(MULTICOLOUR_VARIANTS[self.multicolour])
        if self.until_perfect:
            parts.append("until perfect")
        if self.fuses != 3:
            parts.append(f"{self.fuses} fuse" + ("s" if self.fuses > 1 else ""))
        if self.empty_clues:
            parts.append("empty clues")
        if self.rearrange:
            parts.append("rearranging")
        return ", ".join(parts) or NO_VARIANT

    # -- JSON -------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """The options as a dict; ``rearrange`` only when it is on, so that every game and
        file made before the option existed reads and writes exactly as it did."""
        data = {
            "players": self.players,
            "multicolour": self.multicolour,
            "until_perfect": self.until_perfect,
            "fuses": self.fuses,
            "empty_clues": self.empty_clues,
        }
        if self.rearrange:
            data["rearrange"] = True
        return data

    @classmethod
    def from_dict(cls, data: object) -> GameOptions:
        """The inverse of to_dict; missing keys other than players take their defaults."""
        if not isinstance(data, dict):
            raise InvalidOptions(f"options must be a JSON object, not {type(data).__name__}")
        known = ("players", "multicolour", "until_perfect", "fuses", "empty_clues", "rearrange")
        unknown = sorted(map(shown, set(data) - set(known)))
        if unknown:
            raise InvalidOptions(f"unknown option(s): {', '.join(unknown)}")
        if "players" not in data:
            raise InvalidOptions("players is missing")
        return cls(**{key: data[key] for key in known if key in data})
