"""What a seat can know, rebuilt from its view alone, every turn.

The bot keeps no memory between turns: it replays the view's history to rebuild the table
(every hand's card ids, the fireworks, the cards lost) and the *public knowledge* of every
card in a hand: what every player at the table can work out about it from the clues and the
conventions (README.md). Public knowledge uses only what everybody sees (the clues, who gave
them and when, the fireworks, the discard pile), so every player, bot or human, reaches the
same conclusions, and a clue giver can predict exactly how a clue will be read.

A clue is read by the conventions only when the history shows that its giver follows them;
otherwise by the one assumption made of anyone, or for its facts alone (README.md, "Playing
with people"). ``Table`` judges every player as it replays the history, from public facts
only, so that every bot at the table judges a player alike.

Identities are small ints, ``suit * 5 + rank - 1``, and sets of identities are int bitmasks,
as in the engine. The rules themselves (the deal, what a clue touches) are the engine's
(``games.engine.rules``): nothing here restates one.
"""

from __future__ import annotations

import functools
from collections.abc import Collection

from games.engine import MAX_CLUE_TOKENS, GameOptions, clue_touch_mask, dealt_hands
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


# How a clue is read (README.md, "Playing with people"): by every convention; by the one
# assumption made of any partner (a clue that touches a single card, new to clues, points at a
# card playable now, or, on the chop, at a card worth saving); or only for what it proves.
CONVENTION = 2
BASIC = 1
LITERAL = 0
# A card played is taken for a reading of the clues beyond their facts only when the chance
# that its holder could have proven it playable by counting the cards in view is below this
# (see ``Table._countable``).
COUNTABLE_CHANCE = 0.001


class CardInfo:
    """The public knowledge of one card in a hand.

    ``mask``: the identities its clues allow (touched and missed). ``inferred``: what the
    conventions add (a play clue's focus is playable, a save clue's focus is worth saving, a
    clued card is not trash). ``clued``: some clue touched it. ``focus``: "play" or "save" if
    it was the focus of such a clue. ``clued_turn`` and ``clued_by``: when and by whom it was
    first touched.
    """

    __slots__ = (
        "mask",
        "inferred",
        "clued",
        "focus",
        "clued_turn",
        "clued_by",
        "reading",
        "claim",
        "conv_inferred",
        "conv_claim",
        "conv_focus",
    )

    def __init__(self, mask: int) -> None:
        self.mask = mask
        self.inferred = mask
        self.clued = False
        self.focus: str | None = None
        self.clued_turn = -1
        self.clued_by = -1
        # How the first clue that touched it was read (CONVENTION, BASIC or LITERAL), and what
        # that reading claimed the card to be, to check against the card once it is shown.
        self.reading = LITERAL
        self.claim = mask
        # What the conventions would have read into the first clue (kept up to date with the
        # later clues' facts): the card's knowledge once its giver is found to play by them.
        self.conv_inferred = mask
        self.conv_claim = mask
        self.conv_focus: str | None = None

    def copy(self) -> CardInfo:
        new = CardInfo(self.mask)
        new.inferred = self.inferred
        new.clued = self.clued
        new.focus = self.focus
        new.clued_turn = self.clued_turn
        new.clued_by = self.clued_by
        new.reading = self.reading
        new.claim = self.claim
        new.conv_inferred = self.conv_inferred
        new.conv_claim = self.conv_claim
        new.conv_focus = self.conv_focus
        return new

    def adopt_conventions(self) -> None:
        """Its giver turned out to play by the conventions: read its first clue by them."""
        self.inferred = self.conv_inferred
        self.claim = self.conv_claim
        self.focus = self.conv_focus
        self.reading = CONVENTION

    def forget_inferences(self) -> None:
        """Keep only what the clues prove (the reading turned out not to hold)."""
        self.inferred = self.mask
        self.focus = None
        self.reading = LITERAL

    def __repr__(self) -> str:
        return f"<CardInfo clued={self.clued} focus={self.focus} inferred={codes(self.inferred)}>"


class Board:
    """Public facts about the cards out of the hands: the fireworks, the lost cards, and the
    sets of identities that follow from them."""

    def __init__(self, var: Variant) -> None:
        self.var = var
        self.fireworks = [0] * var.num_suits
        self.lost = [0] * 30  # copies discarded or misplayed, per identity
        # (identity bit, holder, first clue's turn, its giver, that clue's reading) of every
        # clued card played.
        self.played_clued: list[tuple[int, int, int, int, int]] = []
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

    def copy(self) -> Board:
        new = object.__new__(Board)
        new.__dict__.update(self.__dict__)
        new.fireworks = self.fireworks[:]
        new.lost = self.lost[:]
        new.played_clued = self.played_clued[:]
        return new

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
    who could see the earlier card and was read by the conventions ("good touch": no clue
    touches a copy of a card already clued, but nobody sees their own hand). A copy played in
    any other way stays possible: then the card may be trash.
    """
    if not info.clued:
        return info.inferred
    result = info.inferred
    turn = info.clued_turn
    mine_conventional = info.reading == CONVENTION
    for bit, played_holder, played_turn, played_giver, reading in board.played_clued:
        if result & bit:
            if played_turn <= turn:
                if mine_conventional and info.clued_by != played_holder:
                    result &= ~bit
            elif reading == CONVENTION and played_giver != holder:
                result &= ~bit
    return result


class Table:
    """The game rebuilt from one seat's view: hands, board, and the public knowledge of every
    card in a hand, by replaying the history through the conventions.

    While it replays, it also judges, from what everybody sees, how far each player follows
    the conventions (README.md, "Playing with people"): ``reads[p]`` is True once ``p`` has
    played a card that only a reading of the clues beyond their facts showed playable, False
    once ``p`` has left such a card unplayed to discard or to clue someone other than the next
    player, None before either; ``gives[p]`` drops from CONVENTION to BASIC to LITERAL each
    time a card shown (played or discarded) is not what ``p``'s clue, as it was read, claimed.
    Each clue is read by what was known of its giver and its target when it was given.
    """

    def __init__(
        self, view: dict, bot_seats: Collection[int] = (), start: Table | None = None
    ) -> None:
        """``start``: a table of the same game, from any seat's view, with the same
        ``bot_seats``, whose history is the start of this view's. What was replayed for it is
        taken over (the replay uses public facts only), and only the newer entries are
        replayed: the search (search.py) builds a table on every simulated turn."""
        self.view = view
        self.me: int = view["viewer"]
        if start is None:
            self._deal(GameOptions.from_dict(view["options"]), bot_seats)
        else:
            self._take_over(start)
        # The identities of the cards this seat sees in other hands.
        self.identity: dict[int, int] = {}
        for hand in view["hands"]:
            for card in hand["cards"]:
                if "suit" in card:
                    self.identity[card["id"]] = identity(SUIT_INDEX[card["suit"]], card["rank"])
        history = view["history"]
        for entry in history[self.replayed :]:
            self.replay_entry(entry)
        if self._stale:
            self.board.refresh()
            self._stale = False
        self.replayed = len(history)
        self.clue_tokens: int = view["clue_tokens"]
        self.fuses_left: int = view["fuses_left"]
        self.deck_size: int = view["deck_size"]
        self.turns_left: int | None = view["turns_left"]

    def _deal(self, options: GameOptions, bot_seats: Collection[int]) -> None:
        """The table before the first move."""
        self.options = options
        self.var = var = variant(options)
        self.players = var.players
        self.board = Board(var)
        # The hands as dealt; replaying the history moves them on to now.
        self.hands: list[list[int]] = dealt_hands(options)
        self.info: dict[int, CardInfo] = {
            cid: CardInfo(var.all_mask) for hand in self.hands for cid in hand
        }
        self.reads: list[bool | None] = [None] * self.players
        for seat in bot_seats:
            self.reads[seat] = True  # known to be the bot: it reads (and gives) the conventions
        # Every seat is the bot: the table can take the risks the bot takes with itself.
        self.all_bots = set(range(self.players)) <= set(bot_seats)
        self.gives: list[int] = [CONVENTION] * self.players
        self._stale = False
        self._deck_left = options.deck_size - sum(len(hand) for hand in self.hands)
        self.replayed = 0

    def _take_over(self, start: Table) -> None:
        """The public part of ``start``, copied so that replaying on changes nothing of it."""
        self.options = start.options
        self.var = start.var
        self.players = start.players
        self.board = start.board.copy()
        self.hands = [hand[:] for hand in start.hands]
        self.info = {cid: info.copy() for cid, info in start.info.items()}
        self.reads = start.reads[:]
        self.all_bots = start.all_bots
        self.gives = start.gives[:]
        self._stale = False
        self._deck_left = start._deck_left
        self.replayed = start.replayed

    def replay_entry(self, entry: dict) -> None:
        """One more history entry: judge its mover, then move the table on. (Also used one
        entry at a time by beliefs.py, which says in words how each player is judged.)"""
        if entry["type"] == "rearrange":
            # A free move of a card within its holder's hand (the option; RULES.md): the
            # hand's order follows it, and nobody is judged by it.
            hand = self.hands[entry["seat"]]
            hand.insert(entry["to_slot"] - 1, hand.pop(entry["from_slot"] - 1))
            return
        if self._stale:
            self.board.refresh()
            self._stale = False
        self._judge_reader(entry)
        if entry["type"] == "clue":
            self._replay_clue(entry)
        else:
            self._replay_play_or_discard(entry)

    # -- how each player plays -------------------------------------------------------------

    def reading(self, giver: int, target: int, forced: bool = False) -> int:
        """How a clue from ``giver`` to ``target`` is read now: by the conventions once the
        giver has shown they read them (and none of their clues was caught out); by the basic
        assumption unless it was caught out or the clue was ``forced`` (the giver could not
        discard: a clue given for want of anything else need not point at anything); and for
        its facts only, whoever gives it, once the target has shown they do not read clues
        beyond their facts."""
        if self.reads[target] is False:
            return LITERAL
        if self.reads[giver] is not True:
            return LITERAL if forced else min(self.gives[giver], BASIC)
        return self.gives[giver]

    def proves_playable(self, mask: int) -> bool:
        return mask != 0 and mask & ~self.board.playable == 0

    def inferred_playable(self, info: CardInfo, holder: int) -> bool:
        """The card's reading, not its facts, says it is playable now."""
        return self.proves_playable(public_set(info, holder, self.board)) and not (
            self.proves_playable(info.mask)
        )

    def shows_reading(self, info: CardInfo, holder: int) -> bool:
        """Playing this card (and placing it) shows that its holder reads clues beyond their
        facts: only its reading says it is playable, and counting the cards in view could not
        have proven it."""
        return self.inferred_playable(info, holder) and not self._countable(info.mask, holder)

    def _judge_reader(self, entry: dict) -> None:
        """Before an action: does the mover act on what the clues, read beyond their facts,
        told them? A card that only such a reading showed playable, played (and placed), is
        a yes; such a card left in hand for a discard, or for a clue to anyone but the next
        player (a bot clues before it plays only to save the next player's card), is a no.
        Final-round tries (no card drawn) say nothing."""
        seat = entry["seat"]
        if entry["type"] == "play":
            card = self.info[entry["card"]["id"]]
            if entry["placed"] and entry["drawn"] is not None and self.shows_reading(card, seat):
                self._set_reads(seat, True)
            return
        excused = self.options.until_perfect or entry.get("target") == (seat + 1) % self.players
        if entry["type"] == "clue" and excused:
            return
        if any(self.inferred_playable(self.info[cid], seat) for cid in self.hands[seat]):
            self._set_reads(seat, False)

    def _countable(self, mask: int, holder: int) -> bool:
        """Could the holder have proven the card playable by counting the cards they see?
        Only if every copy out of the piles of every card it may be that is still needed but
        not playable is in the hands in view. With F such copies, V cards in those hands and U
        cards out of sight of the piles, that is about (V / U) ** F: the card counts as proof
        of reading beyond the facts only when this is below COUNTABLE_CHANCE. (Copies of
        useless cards are not counted: a player who counts sees them go by.)"""
        board = self.board
        copies = self.var.copies
        counts = board.played_counts()
        free = 0
        for ident in bits(mask & board.useful & ~board.playable):
            free += max(copies[ident] - counts[ident] - board.lost[ident], 0)
        in_view = sum(len(hand) for seat, hand in enumerate(self.hands) if seat != holder)
        unseen = in_view + len(self.hands[holder]) + self._deck_left
        return (in_view / unseen) ** free >= COUNTABLE_CHANCE

    def _set_reads(self, seat: int, value: bool) -> None:
        if self.reads[seat] is value:
            return
        self.reads[seat] = value
        if value is False:  # their cards were read as if they read the clues: no more
            for cid in self.hands[seat]:
                if self.info[cid].reading != LITERAL:
                    self.info[cid].forget_inferences()
            return
        # They read the conventions, so they give clues by them too: read their earlier clues
        # by the conventions (as they were when given: a bot gives no clue that would mislead
        # under either reading), unless they were caught out or the holder reads only facts.
        if self.gives[seat] != CONVENTION:
            return
        for holder, hand in enumerate(self.hands):
            if self.reads[holder] is False:
                continue
            for cid in hand:
                card = self.info[cid]
                if card.clued and card.clued_by == seat and card.reading == BASIC:
                    card.adopt_conventions()

    def _check_claim(self, info: CardInfo, ident: int) -> None:
        """A card is shown: if it is not what its first clue, as read, claimed, that clue's
        giver is read one level more literally from now on, and so are their other clues."""
        if not info.clued or info.claim >> ident & 1:
            return
        giver = info.clued_by
        level = min(self.gives[giver], info.reading) - 1
        if level < 0 or level >= self.gives[giver]:
            return
        self.gives[giver] = level
        for other in self.info.values():
            if other.clued_by == giver and other.reading > level:
                other.forget_inferences()

    # -- replaying the history ------------------------------------------------------------

    def _replay_clue(self, entry: dict) -> None:
        target = entry["target"]
        interpret_clue(
            self,
            self.hands[target],
            self.info,
            frozenset(entry["touched"]),
            self.var.touch_mask(entry["colour"], entry["rank"]),
            entry["rank"],
            entry["turn"],
            entry["seat"],
            self.reading(entry["seat"], target, forced=self._forced_clue(entry)),
        )

    def _forced_clue(self, entry: dict) -> bool:
        """The giver could not discard instead: every clue token was in the box, or their
        hand was empty."""
        return entry["clue_tokens"] + 1 >= MAX_CLUE_TOKENS or not self.hands[entry["seat"]]

    def _replay_play_or_discard(self, entry: dict) -> None:
        seat = entry["seat"]
        card = entry["card"]
        cid = card["id"]
        ident = identity(SUIT_INDEX[card["suit"]], card["rank"])
        board = self.board
        played = self.info[cid]
        self._check_claim(played, ident)
        if entry["type"] == "play" and entry["placed"]:
            board.fireworks[suit_of(ident)] += 1
            if played.clued:
                board.played_clued.append(
                    (1 << ident, seat, played.clued_turn, played.clued_by, played.reading)
                )
        else:
            board.lost[ident] += 1
        self._stale = True
        self.hands[seat].remove(cid)
        del self.info[cid]
        drawn = entry["drawn"]
        if drawn is not None:
            self._deck_left -= 1
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
    reading: int = CONVENTION,
) -> None:
    """Read one clue, updating ``info`` (the entries of ``hand``) in place.

    With ``reading`` CONVENTION, by the conventions:

    1. Every card in the hand learns what the clue says of it (touched or missed).
    2. Cards touched for the first time are not trash and not a copy of a card publicly known
       to be in a hand ("good touch").
    3. The *focus* is the chop if the clue touched it for the first time, else the newest card
       touched for the first time. The focus is playable (now, or right after cards known to
       be in hands) — or, if it is the chop, it may instead be a card worth saving: the last
       copy of a card still needed (every 5 is one), or any 2 when the clue is "2".
    A clue that touches no new card only gives its information.

    With BASIC, only step 1, and if the clue touches one card alone, new to clues: that card
    is playable now, or, if it is the chop, playable or worth saving. With LITERAL, step 1.
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
            card.conv_inferred &= touch
            if not card.clued:
                newly.append(cid)
        else:
            card.mask &= miss
            card.inferred &= miss
            card.conv_inferred &= miss
        if card.inferred == 0:  # a misleading clue (a person erred): keep only the facts
            card.inferred = card.mask
        if card.conv_inferred == 0:
            card.conv_inferred = card.mask
    if not newly:
        return
    for cid in newly:
        card = info[cid]
        card.clued = True
        card.clued_turn = turn
        card.clued_by = giver
        card.reading = reading
    if reading != CONVENTION:
        # What the conventions would read, kept for the day the giver is found to follow them.
        hypothetical = dict(info)
        for cid in hand:
            hypothetical[cid] = info[cid].copy()
        _read_by_conventions(table, hypothetical, newly, chop, rank)
        for cid in newly:
            card = info[cid]
            card.conv_inferred = card.conv_claim = hypothetical[cid].inferred
            card.conv_focus = hypothetical[cid].focus
    if reading == CONVENTION:
        _read_by_conventions(table, info, newly, chop, rank)
        for cid in newly:
            card = info[cid]
            card.conv_inferred = card.conv_claim = card.inferred
            card.conv_focus = card.focus
    elif reading == BASIC and len(touched) == 1:
        _read_focus(info[newly[0]], board.playable, newly[0] == chop, rank, board)
    for cid in newly:
        info[cid].claim = info[cid].inferred


def _read_focus(card: CardInfo, playable: int, on_chop: bool, rank: int | None, board) -> int:
    """Narrow the focus of a clue to what it can mean: playable (with `playable` counted as
    such), or, on the chop, worth saving (a critical card, or a 2 given a "2" clue). Sets the
    card's focus to "play" or "save"; returns what it may be (0: no such reading)."""
    allowed = playable
    if on_chop:
        allowed |= board.critical
        if rank == 2:
            allowed |= RANK_MASK[2] & board.useful
    meant = card.inferred & allowed
    if meant:
        card.inferred = meant
        card.focus = "play" if meant & ~playable == 0 else "save"
    return meant


def _read_by_conventions(
    table: Table, info: dict[int, CardInfo], newly: list[int], chop: int | None, rank: int | None
) -> None:
    """Steps 2 and 3 of ``interpret_clue``."""
    board = table.board
    known = table.known_identities(info)
    playable = table.queued_playable(known)
    for cid in newly:
        card = info[cid]
        good = card.inferred & board.useful & ~known
        if good:
            card.inferred = good
    focus = chop if chop in newly else newly[0]
    meant = _read_focus(info[focus], playable, focus == chop, rank, board)
    if meant and single(meant):
        # Cards touched together are different cards.
        for cid in newly:
            other = info[cid]
            if cid != focus and other.inferred & ~meant:
                other.inferred &= ~meant
