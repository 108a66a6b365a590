"""What a seat can know, rebuilt from its view alone, every turn.

The bot keeps no memory between turns: it replays the view's history to rebuild the table
(every hand's card ids, the fireworks, the cards lost) and the *public knowledge* of every
card in a hand: what every player at the table can work out about it from the clues and the
conventions (README.md). Public knowledge uses only what everybody sees (the clues, who gave
them and when, the fireworks, the discard pile), so every player, bot or human, reaches the
same conclusions, and a clue giver can predict exactly how a clue will be read.

Identities are small ints, ``suit * 5 + rank - 1``, and sets of identities are int bitmasks,
as in the engine. The rules themselves (the deal, what a clue touches) are the engine's
(``games.engine.rules``): nothing here restates one.
"""

from __future__ import annotations

import functools

from games.engine import GameOptions, clue_touch_mask, dealt_hands
from games.engine.cards import (
    MAX_RANK,
    RANK_MASK,
    SUIT_INDEX,
    SUIT_MASK,
    copies_per_identity,
    identity,
    identity_code,
)
from games.engine.knowledge import identities_of as bits


def suit_of(ident: int) -> int:
    return ident // MAX_RANK


def rank_of(ident: int) -> int:
    return ident % MAX_RANK + 1


def single(mask: int) -> bool:
    """Exactly one identity."""
    return mask != 0 and mask & (mask - 1) == 0


def codes(mask: int) -> str:
    """'R1 Y1' for people reading a mask (debugging, tests)."""
    return " ".join(identity_code(i) for i in bits(mask))


class Variant:
    """What the options fix for the whole game, worked out once per options value."""

    def __init__(self, options: GameOptions) -> None:
        self.options = options
        self.players = options.players
        self.num_suits = options.num_suits
        self.copies = copies_per_identity(options.multicolour)
        self.all_mask = sum(SUIT_MASK[: self.num_suits])

    def touch_mask(self, colour: str | None, rank: int | None) -> int:
        """The identities a clue touches (the engine's rule, wild multicolour included)."""
        return clue_touch_mask(self.options, colour, rank)


@functools.lru_cache(maxsize=64)
def variant(options: GameOptions) -> Variant:
    return Variant(options)


class CardInfo:
    """The public knowledge of one card in a hand.

    ``mask``: the identities its clues allow (touched and missed). ``inferred``: what the
    conventions add (a play clue's focus is playable, a save clue's focus is worth saving, a
    clued card is not trash). ``clued``: some clue touched it. ``focus``: "play" or "save" if
    it was the focus of such a clue. ``clued_turn`` and ``clued_by``: when and by whom it was
    first touched.
    """

    __slots__ = ("mask", "inferred", "clued", "focus", "clued_turn", "clued_by")

    def __init__(self, mask: int) -> None:
        self.mask = mask
        self.inferred = mask
        self.clued = False
        self.focus: str | None = None
        self.clued_turn = -1
        self.clued_by = -1

    def copy(self) -> CardInfo:
        new = CardInfo(self.mask)
        new.inferred = self.inferred
        new.clued = self.clued
        new.focus = self.focus
        new.clued_turn = self.clued_turn
        new.clued_by = self.clued_by
        return new

    def __repr__(self) -> str:
        return f"<CardInfo clued={self.clued} focus={self.focus} inferred={codes(self.inferred)}>"


class Board:
    """Public facts about the cards out of the hands: the fireworks, the lost cards, and the
    sets of identities that follow from them."""

    def __init__(self, var: Variant) -> None:
        self.var = var
        self.fireworks = [0] * var.num_suits
        self.lost = [0] * 30  # copies discarded or misplayed, per identity
        # (identity bit, holder, first clue's turn, its giver) of every clued card played.
        self.played_clued: list[tuple[int, int, int, int]] = []
        self.refresh()

    def refresh(self) -> None:
        """Recompute the sets after the fireworks or the lost cards changed.

        ``trash``: already played, or out of reach (a lower card's copies are all lost).
        ``critical``: still needed, and the last copy. ``playable``: next on its firework.
        """
        copies = self.var.copies
        lost = self.lost
        trash = critical = playable = 0
        for suit, height in enumerate(self.fireworks):
            base = suit * MAX_RANK
            trash |= ((1 << height) - 1) << base
            if height < MAX_RANK:
                playable |= 1 << (base + height)
            for ident in range(base + height, base + MAX_RANK):
                left = copies[ident] - lost[ident]
                if left <= 0:
                    trash |= ((1 << (base + MAX_RANK)) - 1) & ~((1 << ident) - 1)
                    break
                if left == 1:
                    critical |= 1 << ident
        all_mask = self.var.all_mask
        self.trash = trash & all_mask
        self.critical = critical & all_mask & ~trash
        self.playable = playable & all_mask & ~trash
        self.useful = all_mask & ~trash

    def played_counts(self) -> list[int]:
        counts = [0] * 30
        for suit, height in enumerate(self.fireworks):
            for rank in range(1, height + 1):
                counts[identity(suit, rank)] += 1
        return counts


def public_set(info: CardInfo, holder: int, board: Board) -> int:
    """What everybody can say a card may be now.

    For an unclued card, its clue mask. For a clued card, its inferred identities, less those
    played since from another clued card when the later of the two clues was given by someone
    who could see the earlier card ("good touch": no clue touches a copy of a card already
    clued, but nobody sees their own hand). A copy played in any other way stays possible:
    then the card may be trash.
    """
    if not info.clued:
        return info.inferred
    result = info.inferred
    turn = info.clued_turn
    for bit, played_holder, played_turn, played_giver in board.played_clued:
        if result & bit:
            if played_turn <= turn:
                if info.clued_by != played_holder:
                    result &= ~bit
            elif played_giver != holder:
                result &= ~bit
    return result


class Table:
    """The game rebuilt from one seat's view: hands, board, and the public knowledge of every
    card in a hand, by replaying the history through the conventions."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.options = GameOptions.from_dict(view["options"])
        self.var = var = variant(self.options)
        self.players = var.players
        self.me: int = view["viewer"]
        self.board = Board(var)
        # The hands as dealt; replaying the history below moves them on to now.
        self.hands: list[list[int]] = dealt_hands(self.options)
        self.info: dict[int, CardInfo] = {
            cid: CardInfo(var.all_mask) for hand in self.hands for cid in hand
        }
        # The identities of the cards this seat sees in other hands.
        self.identity: dict[int, int] = {}
        for hand in view["hands"]:
            for card in hand["cards"]:
                if "suit" in card:
                    self.identity[card["id"]] = identity(SUIT_INDEX[card["suit"]], card["rank"])
        self._stale = False
        for entry in view["history"]:
            if entry["type"] == "clue":
                self._replay_clue(entry)
            else:
                self._replay_play_or_discard(entry)
        if self._stale:
            self.board.refresh()
        self.clue_tokens: int = view["clue_tokens"]
        self.fuses_left: int = view["fuses_left"]
        self.deck_size: int = view["deck_size"]
        self.turns_left: int | None = view["turns_left"]

    # -- replaying the history ------------------------------------------------------------

    def _replay_clue(self, entry: dict) -> None:
        if self._stale:
            self.board.refresh()
            self._stale = False
        interpret_clue(
            self,
            self.hands[entry["target"]],
            self.info,
            frozenset(entry["touched"]),
            self.var.touch_mask(entry["colour"], entry["rank"]),
            entry["rank"],
            entry["turn"],
            entry["seat"],
        )

    def _replay_play_or_discard(self, entry: dict) -> None:
        seat = entry["seat"]
        card = entry["card"]
        cid = card["id"]
        ident = identity(SUIT_INDEX[card["suit"]], card["rank"])
        board = self.board
        if entry["type"] == "play" and entry["placed"]:
            board.fireworks[suit_of(ident)] += 1
            played = self.info[cid]
            if played.clued:
                board.played_clued.append((1 << ident, seat, played.clued_turn, played.clued_by))
        else:
            board.lost[ident] += 1
        self._stale = True
        self.hands[seat].remove(cid)
        del self.info[cid]
        drawn = entry["drawn"]
        if drawn is not None:
            self.hands[seat].insert(0, drawn)
            self.info[drawn] = CardInfo(self.var.all_mask)

    # -- public reading --------------------------------------------------------------------

    def chop(self, seat: int, info: dict[int, CardInfo] | None = None) -> int | None:
        """The card a player discards next by convention: their oldest unclued card."""
        info = self.info if info is None else info
        for cid in reversed(self.hands[seat]):
            if not info[cid].clued:
                return cid
        return None

    def known_identities(self, info: dict[int, CardInfo]) -> int:
        """Identities that some clued card in a hand is publicly known to be, exactly."""
        board = self.board
        known = 0
        for seat, hand in enumerate(self.hands):
            for cid in hand:
                card = info[cid]
                if card.clued:
                    ident_set = public_set(card, seat, board) & ~board.trash
                    if single(ident_set):
                        known |= ident_set
        return known

    def queued_playable(self, known: int, upto: bool = False) -> int:
        """The identities a play clue can point at: for each suit, the next card after the
        firework and after the cards publicly known to be in hands, ready to follow it (a
        "delayed" play). With ``upto``, the known cards too: every identity that will be
        playable once the known cards are played."""
        board = self.board
        result = 0
        for suit, height in enumerate(board.fireworks):
            while height < MAX_RANK and known >> identity(suit, height + 1) & 1:
                height += 1
                if upto:
                    result |= 1 << identity(suit, height)
            if height < MAX_RANK:
                result |= 1 << identity(suit, height + 1)
        return result & board.useful


def interpret_clue(
    table: Table,
    hand: list[int],
    info: dict[int, CardInfo],
    touched: frozenset[int],
    touch: int,
    rank: int | None,
    turn: int,
    giver: int,
) -> None:
    """Read one clue by the conventions, updating ``info`` (the entries of ``hand``) in place.

    1. Every card in the hand learns what the clue says of it (touched or missed).
    2. Cards touched for the first time are not trash and not a copy of a card publicly known
       to be in a hand ("good touch").
    3. The *focus* is the chop if the clue touched it for the first time, else the newest card
       touched for the first time. The focus is playable (now, or right after cards known to
       be in hands) — or, if it is the chop, it may instead be a card worth saving: the last
       copy of a card still needed (every 5 is one), or any 2 when the clue is "2".
    A clue that touches no new card only gives its information.
    """
    board = table.board
    chop = None
    for cid in reversed(hand):
        if not info[cid].clued:
            chop = cid
            break
    newly = []
    miss = ~touch
    for cid in hand:
        card = info[cid]
        if cid in touched:
            card.mask &= touch
            card.inferred &= touch
            if not card.clued:
                newly.append(cid)
        else:
            card.mask &= miss
            card.inferred &= miss
        if card.inferred == 0:  # a misleading clue (a person erred): keep only the facts
            card.inferred = card.mask
    if not newly:
        return
    known = table.known_identities(info)
    playable = table.queued_playable(known)
    for cid in newly:
        card = info[cid]
        card.clued = True
        card.clued_turn = turn
        card.clued_by = giver
        good = card.inferred & board.useful & ~known
        if good:
            card.inferred = good
    focus = chop if chop in newly else newly[0]
    card = info[focus]
    allowed = playable
    if focus == chop:
        allowed |= board.critical
        if rank == 2:
            allowed |= RANK_MASK[2] & board.useful
    meant = card.inferred & allowed
    if meant:
        card.inferred = meant
        card.focus = "play" if meant & ~playable == 0 else "save"
        if single(meant):
            # Cards touched together are different cards.
            for cid in newly:
                other = info[cid]
                if cid != focus and other.inferred & ~meant:
                    other.inferred &= ~meant
