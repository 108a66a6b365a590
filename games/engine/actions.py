"""The three actions of a turn (clue, play, discard), the free rearranging of one's own
hand (an option), and their JSON form.

Actions name cards by id (position in the deck, 0 = first card dealt), never by hand slot,
so a move made from a stale page cannot hit a different card. Actions are small immutable
values: equal actions compare equal and hash alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUIT_INDEX, SUITS
from .jsoninput import shown


class IllegalAction(Exception):
    """An action the rules do not allow now. Nothing was changed.

    ``reason`` is the human-readable why; ``index`` is set by replay() to the position of
    the offending action in the list it was given.
    """

    def __init__(self, reason: str, index: int | None = None) -> None:
        super().__init__(reason if index is None else f"action {index}: {reason}")
        self.reason = reason
        self.index = index


class MalformedAction(IllegalAction):
    """Not an action at all (a bad dict, a missing field, a colour that does not exist)."""


def _check_index(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MalformedAction(f"{name} must be a non-negative integer, not {shown(value)}")


class _Action:
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def _key(self) -> tuple:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __reduce__(self):
        return (type(self), self._key())


class Clue(_Action):
    """Tell player ``target`` (a seat) every card of one colour or one rank in their hand."""

    __slots__ = ("target", "colour", "rank")
    target: int
    colour: str | None
    rank: int | None

    def __init__(self, target: int, colour: str | None = None, rank: int | None = None) -> None:
        _check_index("a clue's target", target)
        if (colour is None) == (rank is None):
            raise MalformedAction("a clue names exactly one colour or one rank")
        if colour is not None and (not isinstance(colour, str) or colour not in SUIT_INDEX):
            raise MalformedAction(
                f"{shown(colour)} is not a colour; the colours are {', '.join(SUITS)}"
            )
        if rank is not None and (type(rank) is not int or rank not in (1, 2, 3, 4, 5)):
            # type(), not isinstance: True and 1.0 equal 1 but are not ranks.
            raise MalformedAction(f"a clue's rank must be 1 to 5, not {shown(rank)}")
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "rank", rank)

    def _key(self) -> tuple:
        return (self.target, self.colour, self.rank)

    def __repr__(self) -> str:
        value = f"colour={self.colour!r}" if self.colour is not None else f"rank={self.rank}"
        return f"Clue(target={self.target}, {value})"


class _CardAction(_Action):
    """An action on one card of the mover's hand, named by its id."""

    __slots__ = ("card_id",)
    card_id: int

    def __init__(self, card_id: int) -> None:
        _check_index("card_id", card_id)
        object.__setattr__(self, "card_id", card_id)

    def _key(self) -> tuple:
        return (self.card_id,)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(card_id={self.card_id})"


class Play(_CardAction):
    """Play card ``card_id`` from the mover's hand onto the fireworks."""

    __slots__ = ()


class Discard(_CardAction):
    """Discard card ``card_id`` from the mover's hand, regaining a clue token."""

    __slots__ = ()


class Rearrange(_Action):
    """Seat ``seat`` moves card ``card_id`` of their own hand to slot ``slot`` (1 = the
    newest end), the cards between shifting over as when a card is dragged. Free: it takes no
    turn (RULES.md, "Rearranging one's hand"). The card is named by id, as in a play, so a
    stale request cannot move another card; the slot it goes to is a position."""

    __slots__ = ("seat", "card_id", "slot")
    seat: int
    card_id: int
    slot: int

    def __init__(self, seat: int, card_id: int, slot: int) -> None:
        _check_index("a rearrangement's seat", seat)
        _check_index("card_id", card_id)
        _check_index("a rearrangement's slot", slot)
        if slot < 1:
            raise MalformedAction("a rearrangement's slot counts from 1")
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card_id", card_id)
        object.__setattr__(self, "slot", slot)

    def _key(self) -> tuple:
        return (self.seat, self.card_id, self.slot)

    def __repr__(self) -> str:
        return f"Rearrange(seat={self.seat}, card_id={self.card_id}, slot={self.slot})"


# The actions that take a turn; Rearrange takes none.
TurnAction = Clue | Play | Discard
Action = Clue | Play | Discard | Rearrange


def takes_turn(action: Action | dict) -> bool:
    """Whether an action (or its dict) is a turn's action, not a free rearrangement."""
    if type(action) is dict:
        return action.get("type") != "rearrange"
    return type(action) is not Rearrange


def action_to_dict(action: Action) -> dict:
    """JSON-able form: {"type": "clue", "target": 1, "colour": "blue"} or
    {"type": "clue", "target": 1, "rank": 3}, {"type": "play", "card_id": 7},
    {"type": "discard", "card_id": 7}, {"type": "rearrange", "seat": 0, "card_id": 7,
    "slot": 1}."""
    if type(action) is Clue:
        if action.colour is not None:
            return {"type": "clue", "target": action.target, "colour": action.colour}
        return {"type": "clue", "target": action.target, "rank": action.rank}
    if type(action) is Play:
        return {"type": "play", "card_id": action.card_id}
    if type(action) is Discard:
        return {"type": "discard", "card_id": action.card_id}
    if type(action) is Rearrange:
        return {
            "type": "rearrange",
            "seat": action.seat,
            "card_id": action.card_id,
            "slot": action.slot,
        }
    raise MalformedAction(f"not an action: {action!r}")


def action_from_dict(data: object) -> Action:
    """The inverse of action_to_dict; raises MalformedAction saying what is wrong."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind == "clue":
        _only_keys(data, {"type", "target", "colour", "rank"})
        if "target" not in data:
            raise MalformedAction("a clue needs a target")
        colour = data.get("colour")
        if isinstance(colour, str):
            colour = colour.lower()
        return _cached(Clue(data["target"], colour=colour, rank=data.get("rank")))
    if kind in ("play", "discard"):
        _only_keys(data, {"type", "card_id"})
        if "card_id" not in data:
            raise MalformedAction(f"a {kind} needs a card_id")
        card_id = data["card_id"]
        if type(card_id) is int and 0 <= card_id < len(PLAYS):
            return PLAYS[card_id] if kind == "play" else DISCARDS[card_id]
        return Play(card_id) if kind == "play" else Discard(card_id)
    if kind == "rearrange":
        _only_keys(data, {"type", "seat", "card_id", "slot"})
        missing = [key for key in ("seat", "card_id", "slot") if key not in data]
        if missing:
            raise MalformedAction(f"a rearrangement needs a {' and a '.join(missing)}")
        return Rearrange(data["seat"], data["card_id"], data["slot"])
    raise MalformedAction(
        "an action's type must be clue, play or discard (or rearrange, in a game with that "
        f"option), not {shown(kind)}"
    )


def _cached(clue: Clue) -> Clue:
    """The shared instance of a clue, so that actions read from JSON cost no memory."""
    if clue.target < len(COLOUR_CLUES):
        if clue.colour is not None:
            return COLOUR_CLUES[clue.target][SUIT_INDEX[clue.colour]]
        return RANK_CLUES[clue.target][clue.rank]
    return clue


def _only_keys(data: dict, allowed: set[str]) -> None:
    if data.keys() <= allowed:
        return
    extra = sorted(map(shown, set(data) - allowed))
    if extra:
        raise MalformedAction(f"unexpected field(s) in an action: {', '.join(extra)}")


def action_text(action: Action, names: Sequence[str] | None = None, seat: int | None = None) -> str:
    """A short description that reveals nothing hidden: 'Ann plays card 12',
    'Ann clues Bob: blue'. Used in error messages, where the card's identity may be secret."""
    who = _name(names, seat) if seat is not None else None
    if type(action) is Clue:
        value = action.colour if action.colour is not None else f"{action.rank}s"
        text = f"clues {_name(names, action.target)}: {value}"
    elif type(action) is Play:
        text = f"plays card {shown(action.card_id)}"
    elif type(action) is Discard:
        text = f"discards card {shown(action.card_id)}"
    elif type(action) is Rearrange:
        who = _name(names, action.seat)  # anyone's, not only the player whose turn it is
        text = f"moves card {shown(action.card_id)} to slot {shown(action.slot)}"
    else:
        return repr(action)
    return f"{who} {text}" if who else text


def _name(names: Sequence[str] | None, seat: int) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"player {shown(seat + 1)}"


# Every action a game can hold, made once: legal_actions() hands these out instead of
# building thousands of new objects per game. Six seats, at most 60 cards.
PLAYS: tuple[Play, ...] = tuple(Play(card_id) for card_id in range(60))
DISCARDS: tuple[Discard, ...] = tuple(Discard(card_id) for card_id in range(60))
COLOUR_CLUES: tuple[tuple[Clue, ...], ...] = tuple(
    tuple(Clue(target, colour=colour) for colour in SUITS) for target in range(6)
)
RANK_CLUES: tuple[tuple[Clue | None, ...], ...] = tuple(
    (None, *(Clue(target, rank=rank) for rank in range(1, 6))) for target in range(6)
)
