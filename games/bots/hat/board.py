"""The public facts the hat bot reasons over: the variant's constants, the board, and card
tables (what the whole table publicly knows about one card).

An identity is the engine's small int, ``suit * 5 + rank - 1``. A card table is a dict from
each identity the card may still have to its weight: the number of copies nobody has publicly
seen yet (the copies left once plays and discards are counted). Weights make probabilities:
the chance a card is playable is the weight of its playable identities over its total weight.
"""

from __future__ import annotations

from games.engine import GameOptions, clue_touch_mask
from games.engine.cards import MAX_RANK, MULTICOLOUR, copies_per_identity

Table = dict[int, int]


class Variant:
    """What the options fix for the whole game, worked out once."""

    def __init__(self, options: GameOptions) -> None:
        self.options = options
        self.players = options.players
        self.hand_size = options.hand_size
        self.num_suits = options.num_suits
        self.copies = copies_per_identity(options.multicolour)
        self.identities = [i for i in range(len(self.copies)) if self.copies[i]]
        self.suit_of = [i // MAX_RANK for i in range(len(self.copies))]
        self.rank_of = [i % MAX_RANK + 1 for i in range(len(self.copies))]
        self.wild = options.wild_multicolour
        self.empty_clues = options.empty_clues
        self.clue_colours = options.clue_colours
        self.colour_index = {name: n for n, name in enumerate(self.clue_colours)}
        self.deck_size = options.deck_size
        # Discards beyond which risky plays stop: the spare cards of the deck once every
        # identity is kept once and the hands are full.
        self.discard_threshold = max(
            0, self.deck_size - len(self.identities) - self.players * self.hand_size
        )
        self._masks: dict[tuple[str | None, int | None], int] = {}

    def touch_mask(self, colour: str | None, rank: int | None) -> int:
        """The identities a clue touches (a bitmask), as the rules say."""
        key = (colour, rank)
        mask = self._masks.get(key)
        if mask is None:
            mask = self._masks[key] = clue_touch_mask(self.options, colour=colour, rank=rank)
        return mask

    def is_multicolour(self, ident: int) -> bool:
        return self.suit_of[ident] == MULTICOLOUR


class Board:
    """Fireworks, tokens and the discard pile, with each identity's status worked out."""

    __slots__ = (
        "var",
        "heights",
        "discarded",
        "unseen",
        "tokens",
        "fuses",
        "playable",
        "dead",
        "critical",
    )

    def __init__(self, var: Variant) -> None:
        self.var = var
        self.heights = [0] * var.num_suits
        self.discarded = [0] * len(var.copies)
        # Copies not yet played or discarded: what any card in a hand may be.
        self.unseen = list(var.copies)
        self.tokens = 8
        self.fuses = var.options.fuses
        self.playable: list[bool] = []
        self.dead: list[bool] = []
        self.critical: list[bool] = []
        self.refresh()

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.var = self.var
        other.heights = list(self.heights)
        other.discarded = list(self.discarded)
        other.unseen = list(self.unseen)
        other.tokens = self.tokens
        other.fuses = self.fuses
        other.playable = self.playable
        other.dead = self.dead
        other.critical = self.critical
        return other

    def refresh(self) -> None:
        """Work out which identities are playable now, and which can never score."""
        var = self.var
        playable = [False] * len(var.copies)
        dead = [True] * len(var.copies)
        for suit in range(var.num_suits):
            height = self.heights[suit]
            base = suit * MAX_RANK
            if height < MAX_RANK:
                playable[base + height] = True
            for rank in range(height + 1, MAX_RANK + 1):
                ident = base + rank - 1
                if self.discarded[ident] >= var.copies[ident]:
                    break  # every copy is gone: this rank and those above can never score
                dead[ident] = False
        self.playable = playable
        self.dead = dead
        # The last copy of a card still needed: losing it loses points.
        self.critical = [
            not dead[i] and var.copies[i] - self.discarded[i] == 1 for i in range(len(var.copies))
        ]

    def dispensable(self, ident: int) -> bool:
        """Losing this card costs nothing: it is dead, or not the last copy left."""
        return self.dead[ident] or self.var.copies[ident] - self.discarded[ident] != 1

    def fresh_table(self) -> Table:
        """What a newly drawn card may be, as far as anybody knows publicly."""
        unseen = self.unseen
        return {i: unseen[i] for i in self.var.identities if unseen[i] > 0}


# -- card tables -----------------------------------------------------------------------------


def chances(table: Table, board: Board) -> tuple[float, float]:
    """The chance that the card is playable, and that it is dead."""
    playable = board.playable
    dead = board.dead
    total = good = bad = 0
    for ident, weight in table.items():
        total += weight
        if playable[ident]:
            good += weight
        elif dead[ident]:
            bad += weight
    if not total:
        return 0.0, 0.0
    return good / total, bad / total


def chance_of(table: Table, flags: list[bool]) -> float:
    total = good = 0
    for ident, weight in table.items():
        total += weight
        if flags[ident]:
            good += weight
    return good / total if total else 0.0


def average(table: Table, score) -> float:
    total = 0
    value = 0.0
    for ident, weight in table.items():
        total += weight
        value += weight * score(ident)
    return value / total if total else 0.0


def knows_playable(table: Table, board: Board) -> bool:
    playable = board.playable
    return bool(table) and all(playable[i] for i in table)


def knows_dead(table: Table, board: Board) -> bool:
    dead = board.dead
    return bool(table) and all(dead[i] for i in table)


def restrict(table: Table, keep) -> Table:
    """The table narrowed to the identities ``keep(ident)`` accepts; unchanged if none would
    be left (information that contradicts the table, which only a desynchronised or mistaken
    partner can cause, is ignored rather than trusted)."""
    narrowed = {i: w for i, w in table.items() if keep(i)}
    return narrowed if narrowed else table


def restrict_mask(table: Table, mask: int, inside: bool) -> Table:
    if inside:
        narrowed = {i: w for i, w in table.items() if mask >> i & 1}
    else:
        narrowed = {i: w for i, w in table.items() if not mask >> i & 1}
    return narrowed if narrowed else table


def remove_copy(table: Table, ident: int) -> bool:
    """One copy of ``ident`` has been seen elsewhere: one weight less. False if that leaves
    nothing (a contradiction: the caller decides what to do)."""
    weight = table.get(ident)
    if weight is None:
        return True
    if weight > 1:
        table[ident] = weight - 1
        return True
    del table[ident]
    return bool(table)
