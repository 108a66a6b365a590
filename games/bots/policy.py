"""The bot's choice of action: the conventions of README.md, in order of priority.

``choose_action(view)`` takes only ``games.engine.view_for(state, seat)`` for the seat to move
and keeps nothing between calls: everything it knows comes from the view (knowledge.py),
including how far each teammate follows the conventions, and so how their clues are read
and how they will read the bot's (README.md, "Playing with people").

Each turn, in order:

1. In the final round (the deck is empty), only plays count: play, or clue a play to someone
   who still has a turn, or (with a fuse to spare) try the likeliest card.
2. Save the next player's chop if it must not be lost and they are about to discard it.
3. Play a card known to be playable.
4. Give the most valuable clue, if it is worth its token (more so when tokens are plenty, when
   the deck is nearly out, when every card in hand is clued and a discard would lose one, or,
   with 2 players, when the partner's clue just moved the chop onto a card that may be the
   last of its kind).
5. Discard: a card known to be useless, else the chop.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from games.engine import Action, Clue, Discard, Play

from .knowledge import BASIC, CONVENTION, CardInfo, Table, bits, interpret_clue, public_set, rank_of
from .search import discard_alternatives, searched_action, searches

# A clue is given rather than a discard when its value (about one per card it gets played)
# reaches this, by the number of clue tokens available (index 0 is never used). Two players
# have fewer cards in view and lose more to discards: they clue more readily.
CLUE_THRESHOLD = (9.0, 1.0, 1.0, 1.0, 0.7, 0.7, 0.5, 0.5, 0.5)
CLUE_THRESHOLD_TWO_PLAYERS = (9.0, 1.0, 0.7, 0.5, 0.3, 0.2, 0.1, 0.05, 0.05)
# What a clue is worth (Policy.evaluate), per card it touches, in about the points it wins:
# a card it makes known playable is about one point...
PLAY_VALUE = 1.0
# ...and a 5 a little more: playing one gives a clue token back.
FIVE_PLAY_BONUS = 0.2
# A card that will be playable once cards known to be in hands are played.
DELAYED_PLAY_VALUE = 1.0
# A card saved: the last copy of a needed card on the chop is about to be discarded, a point
# nearly sure to be lost, so nearly worth a play;
CRITICAL_ON_CHOP_SAVE_VALUE = 0.9
# ...a last copy further from the chop is not in danger yet: touching it now only spares a
# save later;
CRITICAL_SAVE_VALUE = 0.3
# ...a 2 on the chop whose other copy is in no hand in view (must_save) is not a last copy:
# worth less than one on the chop, more than one in no danger yet.
TWO_SAVE_VALUE = 0.6
# A tie-break, far below any card's value: per touched card, the share of its possible
# identities the clue rules out, so that of two clues otherwise equal, the one that tells
# its holder more wins.
INFORMATION_VALUE = 0.01
# What a clue costs in harm (ClueResult.harm), weighed before any value: a clue that misleads
# nobody always beats one that does, and a forced clue (nothing else is legal) misleads the
# least. A card that the clue would make its holder believe playable when it is not is a
# misplay, a fuse lost: it weighs as much as the smaller harms of several cards together.
MISPLAY_HARM = 10
# A newly touched card that is a copy of a card clued elsewhere: one of the two would be
# played into a discard, or both kept for one place.
DUPLICATE_HARM = 2
# A card the clue makes its holder misread without believing it playable: kept for nothing,
# or discarded for what it is not.
MISREAD_HARM = 1
# A card touched for the first time that is useful but neither playable nor in danger.
EXTRA_TOUCH_VALUE = 0.05
# Stall with a clue rather than discard when the deck allows fewer discards than this.
STALL_PACE = 2
# A play that will show the table that its player reads clues beyond their facts (and so
# lets their own clues be read by the conventions) is worth this much more.
TRUST_VALUE = 3.0
# 2s are saved from the chop in games of up to this many players (with more, the pace of
# the game cannot afford it).
TWO_SAVES_UP_TO = 3
# With 2 players, a clue is given rather than a discard when the partner's last clue touched
# the chop (so they have not yet seen the new chop as the chop and could not save it), with
# at least this many tokens, if the new chop is at least this likely to be a last copy.
UNVETTED_TOKENS = 2
UNVETTED_CHANCE = 0.3
# At a table of bots only (every seat in ``bot_seats``) of up to this many players, once the
# deck has this few cards left, a clue may touch a useless card (a few turns of keeping it
# cost little by then): it costs this much instead of being ruled out.
LATE_TOUCH_UP_TO = 2
LATE_TOUCH_DECK = 10
LATE_TRASH_TOUCH = 0.1
# Two habits measured only at tables of bots only of up to this many players (2-player
# self-play on 2,000 decks without search: +0.03 a game together, README.md):
BOT_HABITS_UP_TO = 2
# ...a clue that touches the next player's chop and leaves a card that must be saved on
# their new chop, with nothing for them to play, costs this much: they would discard it
# before anybody could save it;
EXPOSED_CHOP_COST = 0.9
# ...and with no clue token, when the only discard left is the last copy of a card, the
# likeliest card is played instead if it is at least this likely to be playable (and a fuse
# can be spared): a sure point lost against a likely one won.
LAST_RESORT_PLAY = 0.45


def choose_action(view: dict, bot_seats: Collection[int] = ()) -> Action:
    """The bot's action for the seat whose view this is (it must be that seat's turn).

    ``bot_seats``: seats that everybody at the table knows this bot has played from the first
    move (the site shows which seats are bots). Their clues are read by the conventions from
    the start, and they read the conventions. Without it, the bot infers how each player plays
    from the history alone."""
    if not view.get("your_turn") or view.get("legal") is None:
        raise ValueError("it is not this seat's turn")
    policy = Policy(Table(view, bot_seats))
    if searches(policy.table):
        return searched_action(policy, _conventions_only, bot_seats)
    chosen = policy.choose()
    alternatives = discard_alternatives(policy, chosen)
    if alternatives:
        return searched_action(policy, _conventions_only, bot_seats, chosen, alternatives)
    return chosen


def _conventions_only(table: Table) -> Action:
    """The conventions' choice with no search: how the search expects every seat to play."""
    return Policy(table).choose()


@dataclass
class ClueResult:
    """What a clue would do: its value, the cards it saves, the cards it makes playable, and
    its harm (cards it would make someone misread)."""

    value: float = 0.0
    saved: set[int] = field(default_factory=set)
    plays: int = 0
    harm: int = 0


class Perspective:
    """What one player can see, as far as the bot can tell: for the bot itself, everything
    but its own hand; for a teammate, what both of them see (the public cards and the hands
    of everybody else), which is never more than the teammate sees."""

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
                    clued_seen.append(
                        (1 << ident, seat, card.clued_turn, card.clued_by, card.reading)
                    )
        copies = table.var.copies
        self.unseen = [max(copies[i] - seen[i], 0) for i in range(30)]
        self.all_seen = sum(1 << i for i in range(30) if copies[i] and not self.unseen[i])
        self.clued_seen = clued_seen
        self._now: dict[int, int] = {}

    def duplicates(self, info: CardInfo) -> int:
        """Identities a clued card cannot have because a clued card in another hand has it
        ("good touch"): the later of the two clues was given by someone who saw the earlier
        card, unless that someone held it, and was read by the conventions."""
        mask = 0
        mine_conventional = info.reading == CONVENTION
        for bit, seat, turn, giver, reading in self.clued_seen:
            if turn < info.clued_turn:
                if mine_conventional and info.clued_by != seat:
                    mask |= bit
            elif reading == CONVENTION and giver != self.holder:
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

    def now(self, cid: int) -> int:
        """The belief about a card in the holder's hand as things stand."""
        belief = self._now.get(cid)
        if belief is None:
            belief = self._now[cid] = self.belief(self.table.info[cid])
        return belief


class Policy:
    """One decision, from the table rebuilt from the view."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.view = table.view
        self.board = table.board
        self.me = table.me
        self.legal = self.view["legal"]
        self.final_round = table.turns_left is not None and not table.options.until_perfect
        self.bot_habits = table.all_bots and table.players <= BOT_HABITS_UP_TO
        self.perspectives = [Perspective(table, seat) for seat in range(table.players)]

    # -- what players know ---------------------------------------------------------------

    def belief(self, cid: int, holder: int) -> int:
        return self.perspectives[holder].now(cid)

    def knows_playable(self, belief: int) -> bool:
        return belief != 0 and belief & ~self.board.playable == 0

    def knows_trash(self, belief: int) -> bool:
        return belief & ~self.board.trash == 0

    def chance(self, belief: int, wanted: int) -> float:
        """The chance that a card of the bot's own is one of ``wanted``, counting copies."""
        unseen = self.perspectives[self.me].unseen
        total = good = 0
        for ident in bits(belief):
            total += unseen[ident]
            if wanted >> ident & 1:
                good += unseen[ident]
        return good / total if total else 0.0

    def pace(self) -> int:
        """How many more discards the deck allows before a reachable point is lost, if every
        other action were a play: cards left to draw plus the final round, less the points
        still to play."""
        view = self.view
        return (
            self.table.deck_size
            + self.table.players
            - (view["max_reachable_score"] - view["score"])
        )

    # -- the decision ----------------------------------------------------------------------

    def choose(self) -> Action:
        table = self.table
        hand = table.hands[self.me]
        beliefs = {cid: self.belief(cid, self.me) for cid in hand}
        can_clue = bool(self.legal["clues"])  # the engine's view lists none without a token
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

        clue, value = self.best_clue() if can_clue else (None, 0.0)
        if clue is not None:
            thresholds = CLUE_THRESHOLD_TWO_PLAYERS if table.players == 2 else CLUE_THRESHOLD
            if not can_discard or value >= thresholds[table.clue_tokens]:
                return clue
            if self.pace() < STALL_PACE and not table.options.until_perfect:
                return clue  # the deck is nearly out: a discard would cost a play
            trash = [cid for cid in hand if self.knows_trash(beliefs[cid])]
            if not trash and all(table.info[cid].clued for cid in hand):
                return clue  # every card is clued: a clue costs less than losing one
            if (
                not trash
                and table.players == 2
                and table.clue_tokens >= UNVETTED_TOKENS
                and value >= 0
                and self.chop_unvetted()
                and self.chance(beliefs[table.chop(self.me)], self.board.critical)
                >= UNVETTED_CHANCE
            ):
                return clue  # the partner has not seen this chop as the chop: let them save it

        if can_discard:
            discard = self.discard_choice(hand, beliefs)
            doomed = self.chance(beliefs[discard], self.board.critical) >= 1
            if doomed and not can_clue and table.fuses_left > 1 and self.bot_habits:
                cid = self.likeliest_play(hand, beliefs)
                if self.chance(beliefs[cid], self.unclaimed_playable()) >= LAST_RESORT_PLAY:
                    return Play(cid)
            if not can_clue or not doomed:
                return Discard(discard)
            # Every card left is known to be the last of its kind: even a poor clue is better.
        if can_clue:
            return self.best_clue(forced=True)[0]
        return Play(self.likeliest_play(hand, beliefs))

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
        if self.table.fuses_left > 1 and hand:
            # A lost fuse costs nothing now, unless it is the last one.
            cid = self.likeliest_play(hand, beliefs)
            if self.chance(beliefs[cid], self.unclaimed_playable()) > 0:
                return Play(cid)
        if can_discard:
            return Discard(self.discard_choice(hand, beliefs))
        if can_clue:
            return self.best_clue(forced=True)[0]
        return Play(self.likeliest_play(hand, beliefs))

    # -- playing ----------------------------------------------------------------------------

    def best_play(self, playable: list[int], beliefs: dict[int, int]) -> int:
        """Prefer a card that lets a teammate's clued card follow, then a 5 (a clue token
        back), then the lowest rank; the oldest among equals."""
        table = self.table
        waiting = 0
        for seat, hand in enumerate(table.hands):
            if seat != self.me:
                for cid in hand:
                    if table.info[cid].clued:
                        waiting |= 1 << table.identity[cid]
        order = table.hands[self.me]

        def preference(cid: int) -> tuple:
            ids = bits(beliefs[cid])
            unlocks = sum(1 for i in ids if rank_of(i) < 5 and waiting >> (i + 1) & 1) / len(ids)
            five = all(rank_of(i) == 5 for i in ids)
            return (unlocks, five, -min(rank_of(i) for i in ids), order.index(cid))

        return max(playable, key=preference)

    def unclaimed_playable(self) -> int:
        """Playable identities that no teammate knows they hold."""
        table = self.table
        claimed = 0
        for seat, hand in enumerate(table.hands):
            if seat != self.me:
                for cid in hand:
                    if self.knows_playable(self.belief(cid, seat)):
                        claimed |= 1 << table.identity[cid]
        return self.board.playable & ~claimed

    def likeliest_play(self, hand: list[int], beliefs: dict[int, int]) -> int:
        wanted = self.unclaimed_playable()
        return max(hand, key=lambda cid: self.chance(beliefs[cid], wanted))

    def chop_unvetted(self) -> bool:
        """The previous player's last action was a clue that touched the bot's chop: they
        have not seen its new chop as its chop, so have not had the chance to save it."""
        history = self.view["history"]
        if not history:
            return False
        last = history[-1]
        if last["type"] != "clue" or last["target"] != self.me:
            return False
        hand = self.table.hands[self.me]
        touched = set(last["touched"])
        # Before that clue, the chop was the oldest card not clued before it.
        info = self.table.info
        for cid in reversed(hand):
            if cid in touched:
                if info[cid].clued_turn == last["turn"]:
                    return True
                continue
            if not info[cid].clued:
                return False
        return False

    # -- discarding -------------------------------------------------------------------------

    def discard_choice(self, hand: list[int], beliefs: dict[int, int]) -> int:
        """A card known to be useless; else the chop (the oldest unclued card) unless it is
        known to be critical; else the clued card that matters least."""
        board = self.board
        for cid in reversed(hand):
            if self.knows_trash(beliefs[cid]):
                return cid
        for cid in reversed(hand):
            if not self.table.info[cid].clued and beliefs[cid] & ~board.critical:
                return cid

        def keep_value(cid: int) -> tuple:
            return (
                self.chance(beliefs[cid], board.critical),
                -max(rank_of(i) for i in bits(beliefs[cid])),
            )

        return min(reversed(hand), key=keep_value)

    # -- saving -----------------------------------------------------------------------------

    def urgent_save(self) -> Action | None:
        """If the next player is about to discard a card that must not go, clue it now.
        (Until perfect, where one lost card loses the game, any teammate's.)"""
        table = self.table
        reach = table.players - 1 if table.options.until_perfect else 1
        for distance in range(1, reach + 1):
            target = (self.me + distance) % table.players
            save = self.save_for(target, first=distance == 1)
            if save is not None:
                return save
        return None

    def save_for(self, target: int, first: bool) -> Action | None:
        table = self.table
        hand = table.hands[target]
        if any(
            self.knows_playable(b) or self.knows_trash(b)
            for b in (self.belief(cid, target) for cid in hand)
        ):
            return None  # they have something better to do than discard
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
        if best is not None:
            return _clue(best[1])
        if first:
            # No clue saves it: a play clue at least makes them play instead of discard.
            clue, value = self.best_clue(only_target=target)
            if clue is not None and value >= 1.0:
                return clue
        return None

    def must_save(self, ident: int, holder: int) -> bool:
        """Critical (the last copy of a card still needed), or, with few players, a 2 whose
        other copy is in no other hand the bot can see."""
        board = self.board
        if board.critical >> ident & 1:
            return True
        table = self.table
        if table.players > TWO_SAVES_UP_TO or rank_of(ident) != 2 or board.trash >> ident & 1:
            return False
        return not any(
            table.identity[cid] == ident
            for seat, hand in enumerate(table.hands)
            if seat not in (holder, self.me)
            for cid in hand
        )

    # -- clues ---------------------------------------------------------------------------------

    def best_clue(
        self, only_target: int | None = None, forced: bool = False
    ) -> tuple[Action | None, float]:
        """The most valuable clue that misleads nobody; when ``forced`` (nothing else is
        legal), the least misleading one."""
        best_key: tuple | None = None
        best = None
        last_token = self.table.clue_tokens == 1
        for option in self.legal["clues"]:
            if only_target is not None and option["target"] != only_target:
                continue
            result = self.evaluate(option)
            if result.harm and not forced:
                continue
            if last_token and not forced and self.leaves_next_stuck(option):
                continue
            key = (-result.harm, result.value)
            if best_key is None or key > best_key:
                best_key, best = key, option
        if best is None:
            return None, 0.0
        return _clue(best), best_key[1]

    def best_final_clue(self) -> tuple[Action | None, int]:
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

    def leaves_next_stuck(self, option: dict) -> bool:
        """After this clue takes the last token, the next player could only discard a
        clued card: they know of no play and no useless card, and every card is clued."""
        table = self.table
        target = (self.me + 1) % table.players
        hand = table.hands[target]
        if not hand:
            return False
        info = table.info
        persp = self.perspectives[target]
        if option["target"] == target:
            info = self.after_clue(option)
        beliefs = [persp.belief(info[cid]) for cid in hand]
        return all(info[cid].clued for cid in hand) and not any(
            self.knows_playable(b) or self.knows_trash(b) for b in beliefs
        )

    def after_clue(self, option: dict) -> dict[int, CardInfo]:
        """The public knowledge of every card once this clue is given."""
        table = self.table
        hand = table.hands[option["target"]]
        after = dict(table.info)
        for cid in hand:
            after[cid] = table.info[cid].copy()
        interpret_clue(
            table,
            hand,
            after,
            frozenset(option["touches"]),
            table.var.touch_mask(option.get("colour"), option.get("rank")),
            option.get("rank"),
            self.view["turn"],
            self.me,
            table.reading(self.me, option["target"], forced=not self.legal["discard"]),
        )
        return after

    def evaluate(self, option: dict) -> ClueResult:
        """What a clue is worth: the cards it makes playable (now, or once cards known to be
        in hands are played), the cards it saves, and the harm it does (a card read as what
        it is not, a copy of a card clued elsewhere)."""
        table = self.table
        board = self.board
        target = option["target"]
        hand = table.hands[target]
        touched = frozenset(option["touches"])
        chop = table.chop(target)
        after = self.after_clue(option)
        result = ClueResult()
        persp = self.perspectives[target]
        truths = table.identity
        newly = [cid for cid in hand if cid in touched and not table.info[cid].clued]
        if newly:
            elsewhere = self.clued_identities()
            for cid in newly:
                bit = 1 << truths[cid]
                if bit & elsewhere:
                    result.harm += DUPLICATE_HARM
                elsewhere |= bit
        soon = table.queued_playable(table.known_identities(after), upto=True)
        trust_unknown = table.reads[target] is None
        # Read by the basic assumption now, the clue will be read by the conventions once this
        # bot has shown it reads them: it must mislead under neither reading.
        upgradable = (
            table.reading(self.me, target, forced=not self.legal["discard"]) == BASIC
            and table.reads[self.me] is None
            and table.gives[self.me] == CONVENTION
        )
        late_touch = (
            table.all_bots
            and table.players <= LATE_TOUCH_UP_TO
            and table.deck_size <= LATE_TOUCH_DECK
        )
        for cid in hand:
            truth = truths[cid]
            if self.misread(after[cid], target, truth) and not self.misread(
                table.info[cid], target, truth
            ):
                if self.knows_playable(persp.belief(after[cid])):
                    result.harm += MISPLAY_HARM
                elif late_touch and board.trash >> truth & 1:
                    result.value -= LATE_TRASH_TOUCH  # kept for nothing, with few turns left
                else:
                    result.harm += MISREAD_HARM
                continue
            if upgradable and cid in newly:
                later = after[cid].copy()
                later.adopt_conventions()
                if self.misread(later, target, truth):
                    result.harm += (
                        MISPLAY_HARM if self.knows_playable(persp.belief(later)) else MISREAD_HARM
                    )
                    continue
            before = persp.now(cid)
            now = persp.belief(after[cid])
            save = 0.0
            if cid in newly and board.useful >> truth & 1:
                if board.critical >> truth & 1:
                    result.saved.add(cid)
                    save = CRITICAL_ON_CHOP_SAVE_VALUE if cid == chop else CRITICAL_SAVE_VALUE
                elif cid == chop and rank_of(truth) == 2 and self.must_save(truth, target):
                    result.saved.add(cid)
                    save = TWO_SAVE_VALUE
                else:
                    save = EXTRA_TOUCH_VALUE
            if self.knows_playable(now) and not self.knows_playable(before):
                result.plays += 1
                result.value += PLAY_VALUE + (FIVE_PLAY_BONUS if rank_of(truth) == 5 else 0.0)
                if trust_unknown and table.shows_reading(after[cid], target):
                    result.value += TRUST_VALUE
                    trust_unknown = False
            elif now & ~soon == 0 and before & ~soon:
                result.value += max(DELAYED_PLAY_VALUE, save)
            else:
                result.value += save
            ruled_out = _popcount(before) - _popcount(now)
            result.value += INFORMATION_VALUE * ruled_out / max(_popcount(before), 1)
        if self.bot_habits and chop in touched and target == (self.me + 1) % table.players:
            exposed = table.chop(target, after)
            if (
                exposed is not None
                and result.plays == 0
                and self.must_save(truths[exposed], target)
                and not any(self.knows_playable(persp.belief(after[cid])) for cid in hand)
            ):
                result.value -= EXPOSED_CHOP_COST
        return result

    def misread(self, info: CardInfo, holder: int, truth: int) -> bool:
        """Public knowledge is wrong about a clued card: it rules out the card's identity."""
        return info.clued and not public_set(info, holder, self.board) >> truth & 1

    def clued_identities(self) -> int:
        """Identities of the clued cards the bot sees in other hands, and of its own clued
        cards that it knows exactly."""
        table = self.table
        result = 0
        for seat, hand in enumerate(table.hands):
            for cid in hand:
                if not table.info[cid].clued:
                    continue
                if seat == self.me:
                    belief = self.belief(cid, self.me)
                    if belief & (belief - 1) == 0:
                        result |= belief
                else:
                    result |= 1 << table.identity[cid]
        return result


def _clue(option: dict) -> Clue:
    return Clue(option["target"], colour=option.get("colour"), rank=option.get("rank"))


def _popcount(mask: int) -> int:
    return bin(mask).count("1")
