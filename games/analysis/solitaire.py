"""The paper's SOLITAIRE HANABI model (Baffier et al., section 1.3), shared by every algorithm.

A card is a pair ``(value, colour)`` with ``1 <= value <= n`` and ``1 <= colour <= c``, 1-based as
in the paper. The player scans the sequence in order and plays, stores (at most ``h`` cards at
once) or discards each card; after any play, stored cards may be played too. The instance is won
when every colour has been played from 1 to ``n``.

A *play sequence* is a list of ``Step``s naming cards by their index in the sequence (0-based).
Scanned cards must be decided in order: the step that first names card ``i`` must come after the
steps that first name cards ``0 .. i-1``. A later step may play or discard a card that was stored.
``check_play_sequence`` replays a sequence and says exactly what is wrong with it, so that every
algorithm's answer is checked by code that shares nothing with the algorithm.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

Card = tuple[int, int]  # (value, colour)


class InvalidInstance(ValueError):
    """The instance breaks the model (a value or colour out of range, a negative hand size)."""


class InvalidPlaySequence(ValueError):
    """A play sequence that breaks the rules, or that does not win."""


@dataclass(frozen=True)
class Instance:
    """A SOLITAIRE HANABI instance: the card sequence σ, hand size h, n values and c colours."""

    cards: tuple[Card, ...]
    h: int
    n: int
    c: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple((int(a), int(k)) for a, k in self.cards))
        if self.h < 0 or self.n < 1 or self.c < 1:
            raise InvalidInstance(
                f"need h >= 0, n >= 1 and c >= 1, not h={self.h}, n={self.n}, c={self.c}"
            )
        for index, (value, colour) in enumerate(self.cards):
            if not (1 <= value <= self.n and 1 <= colour <= self.c):
                raise InvalidInstance(
                    f"card {index} is ({value}, {colour}), outside n={self.n}, c={self.c}"
                )

    @classmethod
    def of(
        cls, cards: Iterable[Card], h: int, n: int | None = None, c: int | None = None
    ) -> Instance:
        """An instance whose n and c default to the largest value and colour in the cards."""
        cards = tuple(cards)
        n = n if n is not None else max((a for a, _ in cards), default=1)
        c = c if c is not None else max((k for _, k in cards), default=1)
        return cls(cards, h, n, c)

    @property
    def N(self) -> int:  # noqa: N802 - the paper's name
        return len(self.cards)

    @property
    def r(self) -> int:
        """The multiplicity: the most times any one card appears."""
        counts: dict[Card, int] = {}
        for card in self.cards:
            counts[card] = counts.get(card, 0) + 1
        return max(counts.values(), default=0)


class Action(StrEnum):
    PLAY = "play"
    STORE = "store"
    DISCARD = "discard"


class Step(NamedTuple):
    action: Action
    index: int  # position of the card in the instance's sequence

    def __repr__(self) -> str:
        return f"{self.action.value}({self.index})"


def check_play_sequence(instance: Instance, steps: Sequence[Step]) -> None:
    """Raise ``InvalidPlaySequence`` unless ``steps`` is a legal, winning play sequence."""
    cards = instance.cards
    played = [0] * (instance.c + 1)  # highest value played per colour (index 0 unused)
    hand: set[int] = set()
    next_scan = 0
    for number, step in enumerate(steps):
        action, index = Action(step[0]), step[1]
        where = f"step {number} ({action.value} card {index})"
        if not 0 <= index < len(cards):
            raise InvalidPlaySequence(f"{where}: no such card")
        if index == next_scan:
            next_scan += 1
            if action is Action.STORE:
                hand.add(index)
                if len(hand) > instance.h:
                    raise InvalidPlaySequence(f"{where}: more than h={instance.h} cards stored")
                continue
        elif index in hand:
            if action is Action.STORE:
                raise InvalidPlaySequence(f"{where}: the card is already stored")
            hand.remove(index)
        else:
            raise InvalidPlaySequence(
                f"{where}: the next card to scan is {next_scan}, and card {index} is not stored"
            )
        if action is Action.PLAY:
            value, colour = cards[index]
            if played[colour] != value - 1:
                raise InvalidPlaySequence(
                    f"{where}: ({value}, {colour}) is not playable;"
                    f" colour {colour} stands at {played[colour]}"
                )
            played[colour] = value
    if next_scan != len(cards):
        raise InvalidPlaySequence(f"the sequence stops at card {next_scan} of {len(cards)}")
    unfinished = [colour for colour in range(1, instance.c + 1) if played[colour] != instance.n]
    if unfinished:
        raise InvalidPlaySequence(f"not won: colours {unfinished} stop short of {instance.n}")


def is_winning_play_sequence(instance: Instance, steps: Sequence[Step]) -> bool:
    try:
        check_play_sequence(instance, steps)
    except InvalidPlaySequence:
        return False
    return True
