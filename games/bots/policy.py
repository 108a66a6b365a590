"""The bot's choice of action: the conventions of README.md, in order of priority.

``choose_action(view)`` takes only ``games.engine.view_for(state, seat)`` for the seat to move
and keeps nothing between calls: everything it knows comes from the view (see knowledge.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine import Action, Clue, Discard, Play

from .knowledge import (
    CardInfo,
    Table,
    bits,
    interpret_clue,
    public_set,
    rank_of,
)


def choose_action(view: dict) -> Action:
    """The bot's action for the seat whose view this is (it must be that seat's turn)."""
    if not view.get("your_turn") or view.get("legal") is None:
        raise ValueError("it is not this seat's turn")
    return Policy(Table(view)).choose()


import os
PACE_STALL = int(os.environ.get("PS", "-99"))
DELAYED_VALUE = float(os.environ.get("DV", "0.7"))
CLUE_THRESHOLD = [9.0] + [float(x) for x in os.environ.get("CT", "1,1,1,1,1,1,1,1").split(",")]


@dataclass
class ClueResult:
    value: float = 0.0
    saved: set[int] = field(default_factory=set)
    harm: int = 0
    plays: int = 0


class Perspective:
    """What one player can see of the cards, as far as the bot can tell: for the bot itself,
    everything outside its own hand; for a teammate, what both of them see (the public
    cards and the hands of everybody else), which is never more than the teammate sees."""

    def __init__(self, table: Table, holder: int) -> None:
        self.table = table
        self.holder = holder
        board = table.board
        seen = board.played_counts()
        for ident, n in enumerate(board.lost):
            seen[ident] += n
        clued_seen = []
        for seat, hand in enumerate(table.hands):
            if seat == holder or seat == table.me:
                continue
            for cid in hand:
                ident = table.identity[cid]
                seen[ident] += 1
                card = table.info[cid]
                if card.clued:
                    clued_seen.append((1 << ident, seat, card.clued_turn, card.clued_by))
        copies = table.var.copies
        self.unseen = [copies[i] - seen[i] for i in range(30)]
        self.all_seen = sum(1 << i for i in range(30) if copies[i] and self.unseen[i] <= 0)
        self.clued_seen = clued_seen

    def duplicates(self, info: CardInfo) -> int:
        """Identities a clued card cannot have because a clued card in another hand has it
        ("good touch"): the later of the two clues was given by someone who saw the earlier
        card, unless that someone held it (nobody sees their own hand)."""
        mask = 0
        for bit, seat, turn, giver in self.clued_seen:
            if turn < info.clued_turn:
                if info.clued_by != seat:
                    mask |= bit
            elif giver != self.holder:
                mask |= bit
        return mask

    def belief(self, info: CardInfo) -> int:
        """The identities the holder can think the card may be."""
        possible = public_set(info, self.holder, self.table.board) & ~self.all_seen
        if info.clued and self.clued_seen:
            narrowed = possible & ~self.duplicates(info)
            if narrowed:
                return narrowed
        if possible:
            return possible
        # Only a mistaken clue (a person erred) gets here: fall back on the plain facts.
        return (info.mask & ~self.all_seen) or info.mask

    def weight(self, ident: int) -> int:
        return max(self.unseen[ident], 0)


class Policy:
    """One decision, from the table rebuilt from the view."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.view = table.view
        self.board = table.board
        self.me = table.me
        self.legal = self.view["legal"]
        self.final_round = table.turns_left is not None and not table.options.until_perfect
        self.perspectives = {seat: Perspective(table, seat) for seat in range(table.players)}

    # -- what players know ---------------------------------------------------------------

    def belief(self, cid: int, holder: int, info: dict[int, CardInfo] | None = None) -> int:
        info = self.table.info if info is None else info
        return self.perspectives[holder].belief(info[cid])

    def knows_playable(self, belief: int) -> bool:
        return belief != 0 and belief & ~self.board.playable == 0

    def knows_trash(self, belief: int) -> bool:
        return belief & ~self.board.trash == 0

    # -- the decision ----------------------------------------------------------------------

    def choose(self) -> Action:
        table = self.table
        me = self.me
        hand = table.hands[me]
        beliefs = {cid: self.belief(cid, me) for cid in hand}
        can_clue = table.clue_tokens > 0 and bool(self.legal["clues"])
        can_discard = bool(self.legal["discard"])

        if self.final_round:
            return self.final_round_action(hand, beliefs, can_clue, can_discard)

        if can_clue:
            save = self.urgent_save()
            if save is not None:
                return save

        playable = [cid for cid in hand if self.knows_playable(beliefs[cid])]
        if playable:
            return Play(self.best_play(playable, beliefs))

        best_clue, value = self.best_clue() if can_clue else (None, 0.0)
        threshold = CLUE_THRESHOLD[table.clue_tokens]
        if best_clue is not None and (value >= threshold or not can_discard):
            return best_clue
        if best_clue is not None and self.pace() < PACE_STALL:
            return best_clue  # the deck is nearly out: a discard would cost a play
        locked = all(table.info[cid].clued or self.knows_trash(beliefs[cid]) for cid in hand)
        if (
            best_clue is not None
            and locked
            and not any(self.knows_trash(beliefs[cid]) for cid in hand)
        ):
            return best_clue  # every card is clued: a clue costs less than losing one

        if can_discard:
            return Discard(self.discard_choice(hand, beliefs))
        if best_clue is not None:
            return best_clue
        if can_clue:
            return self.best_clue(forced=True)[0]
        return Play(self.least_risky_play(hand, beliefs))

    def final_round_action(
        self, hand: list[int], beliefs: dict[int, int], can_clue: bool, can_discard: bool
    ) -> Action:
        """The deck is empty and everybody has one turn left: only plays count now."""
        playable = [cid for cid in hand if self.knows_playable(beliefs[cid])]
        if playable:
            return Play(self.best_play(playable, beliefs))
        if can_clue:
            clue, plays = self.best_final_clue()
            if clue is not None and plays > 0:
                return clue
        gamble = self.last_round_gamble(hand, beliefs)
        if gamble is not None:
            return gamble
        if can_discard:
            return Discard(self.discard_choice(hand, beliefs))
        if can_clue:
            return self.best_clue(forced=True)[0]
        return Play(self.least_risky_play(hand, beliefs))

    def best_final_clue(self) -> tuple[Action | None, float]:
        """The clue that gets the most cards played by players who still have a turn."""
        table = self.table
        remaining = {(self.me + k) % table.players for k in range(1, table.turns_left)}
        best = None
        best_key: tuple | None = None
        for option in self.legal["clues"]:
            if option["target"] not in remaining:
                continue
            result = self.evaluate(option)
            if result.harm:
                continue
            key = (min(result.plays, 1), result.value)
            if best_key is None or key > best_key:
                best_key, best = key, option
        if best is None:
            return None, 0
        return _clue(best), best_key[0]

    def pace(self) -> int:
        """How many more discards the deck allows before some reachable point is lost, if
        every other action were a play: cards left to draw plus the final round, less the
        points still to play."""
        table = self.table
        return table.deck_size + table.players - (self.view["max_reachable_score"] - self.view["score"])

    # -- playing ----------------------------------------------------------------------------

    def best_play(self, playable: list[int], beliefs: dict[int, int]) -> int:
        """Prefer a card that lets a teammate's clued card follow, then a 5 (a clue token
        back), then the lowest rank; the oldest among equals."""
        table = self.table
        waiting = 0
        for seat, hand in enumerate(table.hands):
            if seat == self.me:
                continue
            for cid in hand:
                if table.info[cid].clued:
                    waiting |= 1 << table.identity[cid]

        def score(cid: int) -> tuple:
            ids = bits(beliefs[cid])
            unlocks = sum(1 for i in ids if rank_of(i) < 5 and waiting >> (i + 1) & 1) / len(ids)
            five = all(rank_of(i) == 5 for i in ids)
            low = -min(rank_of(i) for i in ids)
            return (unlocks, five, low, table.hands[self.me].index(cid))

        return max(playable, key=score)

    def least_risky_play(self, hand: list[int], beliefs: dict[int, int]) -> int:
        return max(hand, key=lambda cid: self.chance_playable(beliefs[cid]))

    def chance_playable(self, belief: int) -> float:
        persp = self.perspectives[self.me]
        total = good = 0
        for ident in bits(belief):
            w = persp.weight(ident)
            total += w
            if self.board.playable >> ident & 1:
                good += w
        return good / total if total else 0.0

    def last_round_gamble(self, hand: list[int], beliefs: dict[int, int]) -> Action | None:
        """In the last round a lost fuse costs nothing unless it is the last one."""
        if self.table.fuses_left <= 1 or not hand:
            return None
        cid = self.least_risky_play(hand, beliefs)
        if self.chance_playable(beliefs[cid]) > 0:
            return Play(cid)
        return None

    # -- discarding -------------------------------------------------------------------------

    def discard_choice(self, hand: list[int], beliefs: dict[int, int]) -> int:
        """Known trash first; then the chop (the oldest unclued card) unless it is known to be
        worth keeping; then the clued card that matters least."""
        board = self.board
        for cid in reversed(hand):
            if self.knows_trash(beliefs[cid]):
                return cid
        for cid in reversed(hand):
            if not self.table.info[cid].clued and beliefs[cid] & ~board.critical:
                return cid

        def keep_value(cid: int) -> tuple:
            ids = bits(beliefs[cid] & ~board.trash) or [0]
            critical = sum(1 for i in ids if board.critical >> i & 1) / len(ids)
            return (critical, -max(rank_of(i) for i in ids))

        return min(reversed(hand), key=keep_value)

    # -- clues -------------------------------------------------------------------------------

    def urgent_save(self) -> Action | None:
        """If the next player is about to discard a card that must not go, clue it now."""
        table = self.table
        target = (self.me + 1) % table.players
        hand = table.hands[target]
        if not hand:
            return None
        beliefs = [self.belief(cid, target) for cid in hand]
        if any(self.knows_playable(b) or self.knows_trash(b) for b in beliefs):
            return None
        chop = table.chop(target)
        if chop is None or not self.must_save(table.identity[chop], target):
            return None
        best = None
        for option in self.legal["clues"]:
            if option["target"] != target:
                continue
            result = self.evaluate(option)
            if result.harm or chop not in result.saved:
                continue
            if best is None or result.value > best[0]:
                best = (result.value, option)
        if best is None:
            # No clue saves it; a play clue at least makes them play instead of discard.
            clue, value = self.best_clue(only_target=target)
            return clue if clue is not None and value >= 1.0 else None
        return _clue(best[1])

    def must_save(self, ident: int, holder: int) -> bool:
        """Critical (the last copy of a card still needed), or a 2 whose other copy is in no
        other hand the bot can see."""
        board = self.board
        if board.critical >> ident & 1:
            return True
        if rank_of(ident) == 2 and board.useful >> ident & 1:
            table = self.table
            for seat, hand in enumerate(table.hands):
                if seat in (holder, self.me):
                    continue
                if any(table.identity[cid] == ident for cid in hand):
                    return False
            return True
        return False

    def best_clue(
        self, only_target: int | None = None, forced: bool = False
    ) -> tuple[Action | None, float]:
        """The most valuable clue that misleads nobody; with ``forced`` (nothing else is
        legal), the least misleading one."""
        best_key: tuple | None = None
        best = None
        for option in self.legal["clues"]:
            if only_target is not None and option["target"] != only_target:
                continue
            result = self.evaluate(option)
            if result.harm and not forced:
                continue
            key = (-result.harm, result.value)
            if best_key is None or key > best_key:
                best_key, best = key, option
        if best is None:
            return None, 0.0
        return _clue(best), best_key[1]

    def evaluate(self, option: dict) -> ClueResult:
        """What a clue is worth: the cards it makes playable, the cards it saves, and the harm
        it does (a card read as something it is not, a copy of a card clued elsewhere)."""
        table = self.table
        board = self.board
        target = option["target"]
        hand = table.hands[target]
        touched = frozenset(option["touches"])
        touch = table.var.touch_mask(option.get("colour"), option.get("rank"))
        before = {cid: table.info[cid] for cid in hand}
        after = dict(table.info)
        for cid in hand:
            after[cid] = before[cid].copy()
        chop = table.chop(target)
        interpret_clue(
            table, hand, after, touched, touch, option.get("rank"), self.view["turn"], self.me
        )
        result = ClueResult()
        persp = self.perspectives[target]
        soon = table.queued_playable(after, upto=True)
        newly = [cid for cid in hand if cid in touched and not before[cid].clued]
        truths = table.identity
        if newly:
            elsewhere = self.clued_identities()
            seen_new = 0
            for cid in newly:
                bit = 1 << truths[cid]
                if bit & elsewhere or bit & seen_new:
                    result.harm += 2
                seen_new |= bit
        for cid in hand:
            truth = truths[cid]
            b_before = persp.belief(before[cid])
            b_after = persp.belief(after[cid])
            if self.misread(after[cid], target, truth) and not self.misread(
                before[cid], target, truth
            ):
                result.harm += 10 if self.knows_playable(b_after) else 1
                continue
            if cid in newly and board.useful >> truth & 1:
                if board.critical >> truth & 1:
                    result.saved.add(cid)
                    save = 0.9 if cid == chop else 0.3
                elif cid == chop and rank_of(truth) == 2 and self.must_save(truth, target):
                    result.saved.add(cid)
                    save = 0.6
                else:
                    save = 0.05
            else:
                save = 0.0
            if self.knows_playable(b_after) and not self.knows_playable(b_before):
                result.value += 1.0 + (0.2 if rank_of(truth) == 5 else 0.0)
                result.plays += 1
            elif b_after & ~soon == 0 and b_before & ~soon:
                result.value += max(DELAYED_VALUE, save)
            else:
                result.value += save
            shrink = _popcount(b_before) - _popcount(b_after)
            result.value += 0.01 * shrink / max(_popcount(b_before), 1)
        return result

    def misread(self, info: CardInfo, holder: int, truth: int) -> bool:
        """Public knowledge is wrong about a clued card: it rules out the card's identity."""
        if not info.clued:
            return False
        return not public_set(info, holder, self.board) >> truth & 1

    def clued_identities(self) -> int:
        """Identities of the clued cards the bot sees in other hands, and of its own clued
        cards it knows exactly."""
        table = self.table
        result = 0
        for seat, hand in enumerate(table.hands):
            for cid in hand:
                if not table.info[cid].clued:
                    continue
                if seat == self.me:
                    belief = self.belief(cid, self.me)
                    if belief and belief & (belief - 1) == 0:
                        result |= belief
                else:
                    result |= 1 << table.identity[cid]
        return result


def _clue(option: dict) -> Clue:
    return Clue(option["target"], colour=option.get("colour"), rank=option.get("rank"))


def _popcount(mask: int) -> int:
    return bin(mask).count("1")
