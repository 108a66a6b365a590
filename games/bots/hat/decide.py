"""The hat bot's choice of action, in order:

1. Play a card known to be playable (the one that most needs playing).
2. With a fuse to spare and the discard pile still short, play a card that is either playable
   or dead, when it is more than 75 % likely to be playable.
3. Clue when every token is there, or when another player holds a playable card without
   knowing of one (the other players read a discard with a token left as "nobody needs a
   clue", so this rule is kept strictly); also when a card can be played and there is nothing
   worthless to discard, when more than 4 tokens are left, or when the discard would be too
   likely to lose the last copy of a card still needed (with play until perfect, any chance
   of it). The clue carries the sum of the hat values (public.py, questions.py).
4. Discard: when public knowledge shows two or more worthless cards, the one the hat sum of
   the others' hands picks (a second channel of information); else a card known to be
   worthless; else the card likeliest to be seen elsewhere, dispensable, and of high rank.

In the last round (the deck empty, play not until perfect) only plays can still score: a seat
with a fuse to spare tries its likeliest card rather than discard.
"""

from __future__ import annotations

from games.engine import Action, Clue, Discard, Play

from .board import (
    Table,
    average,
    chance_of,
    chances,
    knows_dead,
    knows_playable,
    remove_copy,
    restrict_mask,
)
from .rebuild import Rebuilt

RISKY_PLAY_CHANCE = 0.75
CLUE_WHEN_TOKENS_ABOVE = 4
# A clue rather than a discard whose chance of losing a needed card's last copy is above this.
STALL_RISK = 0.2
STALL_RISK_UNTIL_PERFECT = 0.0


class Decision:
    def __init__(self, view: dict) -> None:
        self.view = view
        self.rebuilt = Rebuilt(view)
        self.var = self.rebuilt.var
        self.public = self.rebuilt.public
        self.board = self.public.board
        self.me = self.rebuilt.me
        self.legal = view["legal"]
        self.hand = list(self.public.hands[self.me])
        self.others: dict[int, list[int]] = {
            seat: [self.rebuilt.identity_of(cid) for cid in cards]
            for seat, cards in enumerate(self.public.hands)
            if seat != self.me
        }
        self.private = [self._private_table(cid) for cid in self.hand]

    def _private_table(self, cid: int) -> Table:
        """The public table of one of the seat's cards, less the copies the seat can see."""
        public = self.public.tables[cid]
        table = dict(public)
        for idents in self.others.values():
            for ident in idents:
                if not remove_copy(table, ident):
                    return dict(public)
        return table

    # -- the decision ----------------------------------------------------------------------

    def choose(self) -> Action:
        board = self.board
        sure = [i for i, table in enumerate(self.private) if knows_playable(table, board)]
        if sure:
            best = max(sure, key=lambda i: (self._play_score(self.private[i]), -i))
            return Play(self.hand[best])
        discarded = sum(board.discarded)
        tokens = self.view["clue_tokens"]
        if self._last_round():
            # Only plays still score: a seat with a fuse to spare tries its likeliest card,
            # unless a clue would let a player who still has a turn play for sure.
            if board.fuses > 1 and not (tokens > 0 and self._someone_needs_a_clue(later=True)):
                gamble = self._risky_play(strict=False)
                if gamble is not None:
                    return Play(self.hand[gamble])
        elif board.fuses > 1 and discarded <= self.var.discard_threshold:
            risky = self._risky_play(strict=True)
            if risky is not None:
                return Play(self.hand[risky])
        useless = self._useless(self.private)
        if tokens == 8 or (tokens > 0 and self._someone_needs_a_clue()):
            clue = True
        elif discarded <= self.var.discard_threshold and useless:
            clue = False
        elif tokens > 0 and self._someone_can_play():
            clue = True
        else:
            clue = tokens > CLUE_WHEN_TOKENS_ABOVE
        if not clue and tokens > 0 and self.legal["clues"]:
            # Stall with a clue rather than risk losing a card that cannot be replaced.
            risk = self._discard_choice(useless, tokens)[1]
            clue = risk > (
                STALL_RISK_UNTIL_PERFECT if self.var.options.until_perfect else STALL_RISK
            )
        if clue and self.legal["clues"]:
            return self._clue()
        if self.legal["discard"]:
            return self._discard(useless, tokens)
        if self.legal["clues"]:
            return self._clue()
        return Play(self.hand[self._likeliest_play()])

    def _last_round(self) -> bool:
        return self.view["turns_left"] is not None and not self.var.options.until_perfect

    # -- plays -----------------------------------------------------------------------------

    def _play_score(self, table: Table) -> float:
        """How much a card needs playing: low ranks (more follows) and cards nobody else holds."""
        rank_of = self.var.rank_of
        deck_left = self.view["deck_size"] > 0
        held = {}
        for idents in self.others.values():
            for ident in set(idents):
                held[ident] = held.get(ident, 0) + 1

        def score(ident: int) -> float:
            holders = 1 + (held.get(ident, 0) if deck_left else 0)
            return (10 - rank_of[ident]) / holders

        return average(table, score)

    def _risky_play(self, strict: bool) -> int | None:
        board = self.board
        best, best_chance = None, RISKY_PLAY_CHANCE if strict else 0.0
        for index, table in enumerate(self.private):
            if strict and not all(board.playable[i] or board.dead[i] for i in table):
                continue
            chance = chances(table, board)[0]
            if chance > best_chance:
                best, best_chance = index, chance
        return best

    def _likeliest_play(self) -> int:
        board = self.board
        return max(range(len(self.hand)), key=lambda i: (chances(self.private[i], board)[0], -i))

    # -- clues -----------------------------------------------------------------------------

    def _someone_can_play(self) -> bool:
        playable = self.board.playable
        return any(playable[i] for idents in self.others.values() for i in idents)

    def _someone_needs_a_clue(self, later: bool = False) -> bool:
        """Another player holds a playable card without knowing of one (``later``: one of
        the players who still have a turn in the last round)."""
        playable = self.board.playable
        seats = self.others
        if later:
            players = self.var.players
            moving = {(self.me + step) % players for step in range(1, self.view["turns_left"])}
            seats = {seat: idents for seat, idents in seats.items() if seat in moving}
        return any(
            any(playable[i] for i in idents) and not self.public.knows_playable_card(seat)
            for seat, idents in seats.items()
        )

    def _clue(self) -> Action:
        public = self.public.copy()
        blocks = public.message_blocks(self.me)
        total = sum(count for _, count in blocks)
        wanted = None
        if total > 1:
            wanted = public.hat_sum(self.me, total, self.rebuilt.identity_of)
        options = []
        for clue in self.legal["clues"]:
            colour, rank = clue.get("colour"), clue.get("rank")
            message = self.public.clue_message(
                blocks, clue["target"], colour, rank, clue["touches"]
            )
            if wanted is None or message == wanted:
                options.append(clue)
        if not options:
            # No clue carries the number: a hand in which every clue touching the hint card
            # touches the others alike (a wild multicolour card beside cards of its rank).
            # A clue would tell the other players wrong things about their own cards, each
            # in their own way; a discard misleads all alike at worst (when somebody needs a
            # clue, the table wrongly learns that nobody does), so public knowledge stays the
            # same for every player.
            if self.legal["discard"]:
                return self._discard(self._useless(self.private), self.view["clue_tokens"])
            # At 8 tokens a discard is not allowed: a play misleads nobody either, if a fuse
            # can be spared.
            if self.board.fuses > 1 and self.hand:
                return Play(self.hand[self._likeliest_play()])
            options = list(self.legal["clues"])
        # Among the clues that carry the number, the one that tells most of itself, weighed
        # on the tables as the number leaves them.
        best = max(
            enumerate(options), key=lambda pair: (self._clue_value(public, pair[1]), -pair[0])
        )[1]
        return Clue(target=best["target"], colour=best.get("colour"), rank=best.get("rank"))

    def _clue_value(self, public, clue: dict) -> float:
        """How much the clue narrows the target's cards (doubled for a card it settles)."""
        board = public.board
        mask = self.var.touch_mask(clue.get("colour"), clue.get("rank"))
        touched = set(clue["touches"])
        value = 1.0
        for cid in public.hands[clue["target"]]:
            table = public.tables[cid]
            if len(table) <= 1 or knows_dead(table, board):
                continue
            narrowed = restrict_mask(table, mask, cid in touched)
            before, after = sum(table.values()), sum(narrowed.values())
            bonus = 2 if len(narrowed) <= 1 or knows_dead(narrowed, board) else 1
            value *= bonus * before / after
        return value

    # -- discards --------------------------------------------------------------------------

    def _useless(self, tables: list[Table]) -> list[int]:
        board = self.board
        useless: set[int] = set()
        first_of: dict[int, int] = {}
        for index, table in enumerate(tables):
            if knows_dead(table, board):
                useless.add(index)
            elif len(table) == 1:
                ident = next(iter(table))
                if ident in first_of:
                    useless.update((index, first_of[ident]))
                else:
                    first_of[ident] = index
        return sorted(useless)

    def _discard(self, useless: list[int], tokens: int) -> Action:
        return Discard(self.hand[self._discard_choice(useless, tokens)[0]])

    def _discard_choice(self, useless: list[int], tokens: int) -> tuple[int, float]:
        """The index of the card to discard, and the chance that it is the last copy of a
        card still needed."""
        public_useless = self.public.known_useless(self.me)
        if len(public_useless) > 1:
            public = self.public.copy()
            if tokens > 0:
                public.nobody_needs_a_clue(self.me)
            pick = public.hat_sum(self.me, len(public_useless), self.rebuilt.identity_of)
            return public_useless[pick], 0.0
        if useless:
            return useless[0], 0.0
        board = self.board
        seen = [False] * len(self.var.copies)
        for idents in self.others.values():
            for ident in idents:
                seen[ident] = True
        dispensable = [board.dispensable(i) or seen[i] for i in range(len(self.var.copies))]
        rank_of = self.var.rank_of

        def worth_losing(index: int) -> float:
            table = self.private[index]
            return (
                20 * chance_of(table, seen)
                + 10 * chance_of(table, dispensable)
                + average(table, lambda i: rank_of[i])
            )

        best = max(range(len(self.hand)), key=lambda i: (worth_losing(i), -i))
        return best, 1.0 - chance_of(self.private[best], dispensable)


def choose_action(view: dict) -> Action:
    """The hat bot's action for the seat whose view this is (it must be that seat's turn)."""
    if not view.get("your_turn") or view.get("legal") is None:
        raise ValueError("it is not this seat's turn")
    action = Decision(view).choose()
    if not is_listed(action, view["legal"]):
        # Never expected (the choice is made from the legal actions): the last guard against
        # an illegal move, whatever a view from an unusual game holds.
        action = first_legal(view["legal"])
    return action


def is_listed(action: Action, legal: dict) -> bool:
    """The action is among the legal ones the view lists."""
    if isinstance(action, Play):
        return action.card_id in legal["play"]
    if isinstance(action, Discard):
        return action.card_id in legal["discard"]
    return any(
        clue["target"] == action.target
        and clue.get("colour") == action.colour
        and clue.get("rank") == action.rank
        for clue in legal["clues"]
    )


def first_legal(legal: dict) -> Action:
    if legal["discard"]:
        return Discard(legal["discard"][-1])
    if legal["clues"]:
        clue = legal["clues"][0]
        return Clue(target=clue["target"], colour=clue.get("colour"), rank=clue.get("rank"))
    return Play(legal["play"][0])
