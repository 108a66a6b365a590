"""Public knowledge, rebuilt from a seat's view: what the whole table knows of every hand.

Each player of a hat-guessing table must hold the same public knowledge, or the numbers that
clues carry mean different things to different players. Nothing is kept between turns:
``rebuild.Rebuilt(view)`` replays the game from its history, from the deal, as the seat can see it
(every past action, the identity of every played and discarded card, and the cards in the
other hands now, which were in those hands, or have since been played or discarded, at every
earlier moment). A seat never needs its own cards: where a clue carried its hat value, it
subtracts the others' hat values, which it can work out, from the clue's number.

Clue messages. A clue is read as a number: the players other than the giver in seating order
after the giver, each given a block of numbers, and the clue's place in its target's block.
With empty clues every colour and rank may be named to anyone, so a target's block has one
number per colour and rank the variant lets a player name. Otherwise a clue must touch a
card, so the messages are built around one card of the target's hand that everybody picks
alike (the *hint card*): a rank clue touching it, a colour clue touching it, and a clue not
touching it (split into rank and colour clues not touching it when the public tables show the
hand cannot be all of one rank or all of one colour, and for five-card hands, which seldom
are). A one-card hand has the first two; an empty hand none. With wild multicolour "all of
one colour" counts a hint card that may be multicolour, since every colour clue touches it.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import dealt_hands
from games.engine.cards import MAX_RANK

from .board import Board, Table, Variant, chances, knows_playable, remove_copy, restrict_mask
from .questions import hat_value, learn_hat_value

IdentityOf = Callable[[int], int]

# From this hand size on, a hand gets four messages even when public knowledge cannot rule
# out that it is all of one rank or all of one colour (one of the two "not touching" messages
# then cannot be sent, and the giver discards or plays instead: decide.py). With five cards
# that is rare and the extra message is worth it (2 and 3 players); with four it is not, nor
# with one fuse, where the discard's wrong "nobody needs a clue" can strike out.
HOPE_FOR_FOUR_FROM = 5


class Public:
    """The public knowledge at one moment: each hand's card ids (newest first, as the
    engine keeps them) and each card's public table, with the board."""

    __slots__ = ("var", "board", "hands", "tables")

    def __init__(self, var: Variant) -> None:
        self.var = var
        self.board = Board(var)
        self.hands: list[list[int]] = [list(hand) for hand in dealt_hands(var.options)]
        fresh = self.board.fresh_table()
        self.tables: dict[int, Table] = {cid: dict(fresh) for hand in self.hands for cid in hand}

    def copy(self) -> Public:
        other = Public.__new__(Public)
        other.var = self.var
        other.board = self.board.copy()
        other.hands = [list(hand) for hand in self.hands]
        other.tables = {cid: dict(table) for cid, table in self.tables.items()}
        return other

    def hand_tables(self, seat: int) -> list[Table]:
        return [self.tables[cid] for cid in self.hands[seat]]

    # -- what public knowledge shows -------------------------------------------------------

    def knows_playable_card(self, seat: int) -> bool:
        board = self.board
        return any(knows_playable(self.tables[cid], board) for cid in self.hands[seat])

    def known_useless(self, seat: int) -> list[int]:
        """Indices of the cards of ``seat``'s hand publicly known to be worthless: dead, or
        one of two cards known to be the same identity."""
        useless: set[int] = set()
        first_of: dict[int, int] = {}
        dead = self.board.dead
        for index, cid in enumerate(self.hands[seat]):
            table = self.tables[cid]
            if all(dead[i] for i in table):
                useless.add(index)
            elif len(table) == 1:
                ident = next(iter(table))
                if ident in first_of:
                    useless.add(index)
                    useless.add(first_of[ident])
                else:
                    first_of[ident] = index
        return sorted(useless)

    # -- clue messages ---------------------------------------------------------------------

    def hint_index(self, seat: int) -> int:
        """The hint card: the card whose colour and rank are least known (first of equals)."""
        best, best_score = 0, -1
        board = self.board
        suit_of, rank_of = self.var.suit_of, self.var.rank_of
        for index, cid in enumerate(self.hands[seat]):
            table = self.tables[cid]
            if len(table) <= 1 or chances(table, board)[1] == 1.0:
                score = 0
            else:
                score = 1
                score += len({suit_of[i] for i in table}) > 1
                score += len({rank_of[i] for i in table}) > 1
            if score > best_score:
                best, best_score = index, score
        return best

    def messages_for(self, seat: int) -> int:
        """How many clue messages ``seat`` is given, from public knowledge alone: each can be
        sent whatever the hand holds (but see HOPE_FOR_FOUR_FROM)."""
        var = self.var
        if var.empty_clues:
            return MAX_RANK + len(var.clue_colours)
        size = len(self.hands[seat])
        if size == 0:
            return 0
        if size == 1:
            return 2
        tables = self.hand_tables(seat)
        if (
            size >= HOPE_FOR_FOUR_FROM
            and var.options.fuses > 1
            and not self._hint_may_be_wild(tables, seat)
        ):
            return 4
        if self._may_be_one_rank(tables) or self._may_be_one_colour(tables, seat):
            return 3
        return 4

    def _hint_may_be_wild(self, tables: list[Table], seat: int) -> bool:
        var = self.var
        return var.wild and any(var.is_multicolour(i) for i in tables[self.hint_index(seat)])

    def _may_be_one_rank(self, tables: list[Table]) -> bool:
        rank_of = self.var.rank_of
        common = {rank_of[i] for i in tables[0]}
        for table in tables[1:]:
            common &= {rank_of[i] for i in table}
        return bool(common)

    def _may_be_one_colour(self, tables: list[Table], seat: int) -> bool:
        var = self.var
        suit_of = var.suit_of
        if var.wild:
            hint = tables[self.hint_index(seat)]
            if any(var.is_multicolour(i) for i in hint):
                return True
        common = {suit_of[i] for i in tables[0]}
        for table in tables[1:]:
            common &= {suit_of[i] for i in table}
        return bool(common)

    def message_blocks(self, giver: int) -> list[tuple[int, int]]:
        """(target, messages) for each player after ``giver`` in seating order."""
        players = self.var.players
        targets = [(giver + step) % players for step in range(1, players)]
        return [(target, self.messages_for(target)) for target in targets]

    def clue_message(
        self,
        blocks: list[tuple[int, int]],
        target: int,
        colour: str | None,
        rank: int | None,
        touched: list[int],
    ) -> int | None:
        """The number a clue carries, given the giver's ``blocks``; None if none."""
        var = self.var
        base = 0
        for seat, count in blocks:
            if seat == target:
                break
            base += count
        else:
            return None
        count = dict(blocks)[target]
        if count == 0:
            return None
        if var.empty_clues:
            kind = rank - 1 if colour is None else MAX_RANK + var.colour_index[colour]
        else:
            hint_card = self.hands[target][self.hint_index(target)]
            if hint_card in touched:
                kind = 0 if colour is None else 1
            elif count == 4:
                kind = 2 if colour is None else 3
            else:
                kind = 2
        return base + kind if kind < count else None

    # -- hat sums --------------------------------------------------------------------------

    def hat_sum(self, giver: int, total: int, identity_of: IdentityOf) -> int:
        """The giver's side: every other hand's hat value, summed below ``total``; the hands'
        tables learn their answers."""
        value = 0
        for seat in range(self.var.players):
            if seat == giver:
                continue
            value += self._hat(seat, total, identity_of)
        return value % total

    def _hat(self, seat: int, total: int, identity_of: IdentityOf) -> int:
        hand = self.hands[seat]
        tables = [self.tables[cid] for cid in hand]
        value = hat_value(tables, [identity_of(cid) for cid in hand], self.board, total)
        for cid, table in zip(hand, tables, strict=True):
            self.tables[cid] = table
        return value

    def learn_hat_sum(
        self, giver: int, value: int, total: int, me: int, identity_of: IdentityOf
    ) -> None:
        """A receiver's side: the hat values ``me`` can see are worked out, and ``me``'s own
        is what remains of ``value``."""
        for seat in range(self.var.players):
            if seat in (giver, me):
                continue
            value -= self._hat(seat, total, identity_of)
        if me == giver:
            return
        hand = self.hands[me]
        tables = [self.tables[cid] for cid in hand]
        learn_hat_value(tables, self.board, value % total, total)
        for cid, table in zip(hand, tables, strict=True):
            self.tables[cid] = table

    def nobody_needs_a_clue(self, discarder: int) -> None:
        """A discard while a clue token was left says that nobody else holds a playable card
        without knowing of one (the bot clues such a card rather than discard)."""
        playable = self.board.playable
        for seat in range(self.var.players):
            if seat == discarder or self.knows_playable_card(seat):
                continue
            for cid in self.hands[seat]:
                table = self.tables[cid]
                narrowed = {i: w for i, w in table.items() if not playable[i]}
                if narrowed:
                    self.tables[cid] = narrowed

    # -- replaying actions -----------------------------------------------------------------

    def apply_clue(self, target: int, colour: str | None, rank: int | None, touched) -> None:
        """What a clue shows directly: the touched cards match it, the others do not."""
        mask = self.var.touch_mask(colour, rank)
        touched = set(touched)
        for cid in self.hands[target]:
            self.tables[cid] = restrict_mask(self.tables[cid], mask, cid in touched)

    def remove_card(self, seat: int, cid: int, ident: int, drawn: int | None) -> None:
        """A card leaves ``seat``'s hand face up; the card drawn, if any, enters on the left."""
        hand = self.hands[seat]
        if cid in hand:
            hand.remove(cid)
        self.tables.pop(cid, None)
        board = self.board
        if board.unseen[ident] > 0:
            board.unseen[ident] -= 1
        for other, table in self.tables.items():
            if not remove_copy(table, ident):
                self.tables[other] = board.fresh_table()
        if drawn is not None:
            hand.insert(0, drawn)
            self.tables[drawn] = board.fresh_table()
