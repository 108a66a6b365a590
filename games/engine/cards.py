"""Suits, ranks, card identities and the composition of the deck for each variant.

A card's *identity* is its (suit, rank). Inside the engine an identity is also a small int,
``suit * 5 + rank - 1`` (0..29), so that sets of identities are int bitmasks and counts are
flat lists: that keeps the hot paths free of objects.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from .jsoninput import shown

SUITS: tuple[str, ...] = ("red", "yellow", "green", "blue", "white", "multicolour")
SUIT_LETTERS: tuple[str, ...] = ("R", "Y", "G", "B", "W", "M")
SUIT_INDEX: dict[str, int] = {name: index for index, name in enumerate(SUITS)}
MULTICOLOUR = 5
RANKS: tuple[int, ...] = (1, 2, 3, 4, 5)
MAX_RANK = 5
# Copies of each rank in an ordinary suit: three 1s, two 2s, two 3s, two 4s, one 5.
COPIES_OF_RANK: tuple[int, ...] = (0, 3, 2, 2, 2, 1)
IDENTITIES = len(SUITS) * MAX_RANK  # 30 possible identities, whatever the variant

# Bitmasks over identities: every card of one suit, every card of one rank.
SUIT_MASK: tuple[int, ...] = tuple(0b11111 << (suit * MAX_RANK) for suit in range(len(SUITS)))
RANK_MASK: tuple[int, ...] = (0,) + tuple(
    sum(1 << (suit * MAX_RANK + rank - 1) for suit in range(len(SUITS))) for rank in RANKS
)


def identity(suit: int, rank: int) -> int:
    """The identity index of (suit, rank)."""
    return suit * MAX_RANK + rank - 1


def identity_code(ident: int) -> str:
    """'R3' for red 3, from an identity index."""
    return f"{SUIT_LETTERS[ident // MAX_RANK]}{ident % MAX_RANK + 1}"


def identity_name(ident: int) -> str:
    """'red 3' for red 3, from an identity index."""
    return f"{SUITS[ident // MAX_RANK]} {ident % MAX_RANK + 1}"


class Card(NamedTuple):
    """A card's identity: suit index (into SUITS) and rank 1-5.

    Cards in a deck are told apart by their position (the card id), not by this value:
    two red 1s are equal Cards.
    """

    suit: int
    rank: int

    @property
    def suit_name(self) -> str:
        return SUITS[self.suit]

    @property
    def name(self) -> str:
        """'red 3'"""
        return f"{SUITS[self.suit]} {self.rank}"

    @property
    def code(self) -> str:
        """'R3'"""
        return f"{SUIT_LETTERS[self.suit]}{self.rank}"

    @property
    def identity(self) -> int:
        return self.suit * MAX_RANK + self.rank - 1

    def to_dict(self) -> dict:
        return {"suit": SUITS[self.suit], "rank": self.rank}

    @classmethod
    def parse(cls, text: str) -> Card:
        """Card.parse('R3') or Card.parse('red 3')."""
        text = text.strip()
        if " " in text:
            suit_name, _, rank_text = text.rpartition(" ")
            suit = SUIT_INDEX.get(suit_name.lower())
        else:
            letter, rank_text = text[:1].upper(), text[1:]
            suit = SUIT_LETTERS.index(letter) if letter in SUIT_LETTERS else None
        if suit is None or rank_text not in ("1", "2", "3", "4", "5"):
            raise ValueError(f"not a card: {shown(text)} (write 'R3' or 'red 3')")
        return cls(suit, int(rank_text))


@functools.lru_cache(maxsize=8)
def copies_per_identity(multicolour: int) -> tuple[int, ...]:
    """How many copies of each identity the deck holds (30 entries, 0 for absent ones)."""
    counts = [0] * IDENTITIES
    for suit in range(5):
        for rank in RANKS:
            counts[identity(suit, rank)] = COPIES_OF_RANK[rank]
    if multicolour:
        for rank in RANKS:
            counts[identity(MULTICOLOUR, rank)] = 1 if multicolour == 2 else COPIES_OF_RANK[rank]
    return tuple(counts)


def deck_composition(multicolour: int) -> list[Card]:
    """Every card of the variant's deck in a fixed order (suit by suit, ranks ascending).

    This is the order the shuffle starts from, so it is part of the seed-to-deck contract.
    """
    return list(_composition(multicolour))


@functools.lru_cache(maxsize=8)
def _composition(multicolour: int) -> tuple[Card, ...]:
    counts = copies_per_identity(multicolour)
    return tuple(
        Card(ident // MAX_RANK, ident % MAX_RANK + 1)
        for ident in range(IDENTITIES)
        for _ in range(counts[ident])
    )
