"""The H-Group bot's turn at level 4 ("Chop Moves", docs/level-4.mdx; README.md here).

Level 3's turn with level 4's reading of the table (``Notes4``: the Trash Chop Move, the 5's
Chop Move and the Order Chop Move, and chop-moved cards that are neither the chop nor
discarded, nor prompted) and level 4's moves:

- **A Trash Chop Move or a 5's Chop Move** is a clue like any other, valued by the cards it
  keeps from the discard pile: a chop card that must be saved and cannot be saved directly
  (a direct save tells more, so it is worth more), never a chop card that is trash, a copy
  of a card gotten elsewhere, or another copy of a card in the same hand.
- **An Order Chop Move**: with several clued 1s to play, it plays one out of the order of
  docs/level-3.mdx when that chop-moves, for free, the chop of the player as many seats on
  as the 1s it skips: a last copy or a 2 nobody holds gotten (or one of two copies of a
  card that are both about to be discarded); never a playable card or trash, nor when the
  card left of that chop is a last copy (it would be next on the chop).
"""

from __future__ import annotations

from games.engine import Action, Clue, Play
from games.engine.cards import identity_name

from .level1 import EXPOSED_CHOP_COST, MISPLAY, Decision, _bits
from .level3 import Turn3
from .notes import Notes, Reading, rank_of
from .notes4 import Notes4

# What keeping a card from the discard pile with a chop move is worth, below a direct save
# of it (level1.Turn.value: 1.2 / 0.6 for a last copy, 0.8 / 0.4 for a 2, when its holder
# has nothing else to do / otherwise), since a direct save tells what the card is.
CHOP_MOVE_WORTH = {"critical": (1.0, 0.5), "two": (0.7, 0.35), "needed": (0.3, 0.15)}
# A 5 a 5's Chop Move touches: kept too, but not in danger yet.
FIVE_KEPT = 0.2


class Turn4(Turn3):
    NOTES = Notes4

    # -- the turn -------------------------------------------------------------------------

    def decide(self) -> Decision:
        if self.committed_play() is None:
            card = self.order_chop_move()
            if card is not None:
                # Before a save clue: it saves the same chop and costs no clue token.
                return Decision(Play(card), self.play_reason(card))
        return super().decide()

    def needs_save(self, seat: int, notes: Notes | None = None) -> bool:
        notes = notes or self.notes
        chop = notes.chop(seat)
        if chop is not None and notes.playable(notes.ident[chop]):
            # A playable card with another copy in sight is not lost with this one (will-bot:
            # it plays its own 1 rather than clue a playable 1 on the next player's chop).
            ident = notes.ident[chop]
            if any(notes.ident.get(c) == ident for h in notes.hands for c in h if c != chop):
                return False
        return super().needs_save(seat, notes)

    # -- the Order Chop Move ----------------------------------------------------------------

    def order_chop_move(self) -> int | None:
        """The 1 to play out of order that chop-moves a chop worth keeping, or None."""
        notes: Notes4 = self.notes
        ones = notes.unknown_ones(self.me)
        if len(ones) < 2 or not all(self.known_playable(c) for c in ones):
            return None
        order = notes.play_order(self.me, ones)
        best = None
        for skipped in range(1, len(order)):
            target = (self.me + skipped) % self.players
            if target == self.me:
                break
            worth = self.order_chop_worth(target)
            if worth > 0 and (best is None or worth > best[0]):
                best = (worth, order[skipped])
        return None if best is None else best[1]

    def best_play(self) -> Action | None:
        play = super().best_play()
        if play is None or play.card_id not in self.notes.unknown_ones(self.me):
            return play
        card = self.order_chop_move()
        return play if card is None else Play(card)

    def order_chop_worth(self, target: int) -> float:
        """What chop-moving ``target``'s chop for free is worth (0: not a card to move)."""
        notes: Notes4 = self.notes
        chop = notes.chop(target)
        if chop is None:
            return 0.0
        worth = self.kept_worth(target, chop, in_danger=True)
        if worth <= 0:
            return 0.0
        hand = notes.hands[target]
        left = [
            c
            for c in reversed(hand[: hand.index(chop)])
            if not notes.notes[c].gotten and not notes.notes[c].chop_moved
        ]
        if left and notes.critical(notes.ident[left[0]]):
            return 0.0  # a last copy would be next on the chop
        return worth

    def kept_worth(self, target: int, cid: int, in_danger: bool) -> float:
        """What keeping ``target``'s card ``cid`` from the discard pile is worth: -1 for a
        card that is trash, playable, or a copy of a card gotten (or held twice)."""
        notes = self.notes
        ident = notes.ident[cid]
        taken = notes.gotten_visible((self.me,))
        for own in self.own:
            known = notes.known_as(own)
            if notes.notes[own].gotten and known is not None:
                taken |= 1 << known
        twin_in_hand = [c for c in notes.hands[target] if c != cid and notes.ident[c] == ident]
        if notes.dead(ident) or notes.playable(ident) or taken >> ident & 1:
            return -1.0
        danger = 0 if in_danger else 1
        if notes.critical(ident):
            return CHOP_MOVE_WORTH["critical"][danger]
        if twin_in_hand:
            # Both copies in one hand: keeping one is worth something only while the other
            # is about to go too (next to the chop, unclued).
            other = twin_in_hand[0]
            if notes.notes[other].gotten or notes.notes[other].chop_moved:
                return -1.0
            return CHOP_MOVE_WORTH["needed"][danger]
        if rank_of(ident) == 2 and not notes.visible_in_hands(ident, (target, self.me)):
            return CHOP_MOVE_WORTH["two"][danger]
        return CHOP_MOVE_WORTH["needed"][danger]

    # -- clues ----------------------------------------------------------------------------

    def value(
        self, twin: Notes, reading: Reading | None, target: int, option: dict, before: set[int]
    ) -> float:
        if reading is None or reading.kind != "chop move":
            return super().value(twin, reading, target, option, before)
        notes: Notes4 = self.notes
        moved = [c for c in twin.hands[target] if twin.notes[c].chop_moved]
        moved = [c for c in moved if not notes.notes[c].chop_moved]
        danger = self.in_danger(target)
        worth = 0.0
        idents = [notes.ident[c] for c in moved]
        if len(set(idents)) < len(idents):
            return -1.0  # it would keep both copies of a card
        for cid in moved:
            kept = self.kept_worth(target, cid, danger)
            if kept < 0:
                return -1.0  # it would keep trash, or a copy, from the discard pile
            worth += kept
        trash = twin.trash_mask()
        for cid in option["touches"]:
            ident = notes.ident[cid]
            live = twin.notes[cid].inferred & ~trash
            believed = live and all(twin.playable(i) for i in _bits(live))
            if believed and not notes.playable(ident):
                return MISPLAY
            if cid not in before and rank_of(ident) == 5 and not trash >> ident & 1:
                worth += FIVE_KEPT
        if self.needs_save(target, twin) and not self.has_safe_action(target, twin):
            worth -= EXPOSED_CHOP_COST  # the new chop must be saved at once
        return worth - 0.01 * ((target - self.me) % self.players)

    def clue_meaning(self, clue: Clue) -> str:
        option = next(
            o
            for o in self.legal["clues"]
            if o["target"] == clue.target
            and o.get("colour") == clue.colour
            and o.get("rank") == clue.rank
        )
        twin = self.notes.copy()
        reading = twin.apply_clue(clue.target, option)
        if reading is None or reading.kind != "chop move":
            return super().clue_meaning(clue)
        who = self.name(clue.target)
        slots = ", ".join(str(self.slot(clue.target, c)) for c in option["touches"])
        plural = "s" if len(option["touches"]) > 1 else ""
        head = f"Clue {who} {clue.colour or clue.rank} (slot{plural} {slots})"
        _, _, moved, kind = twin.chop_moves[-1]
        kept = moved[-1]  # the old chop
        card = (
            f"{who}'s {identity_name(self.notes.ident[kept])} (slot {self.slot(clue.target, kept)})"
        )
        if kind == "5cm":
            return f"{head}: a 5's Chop Move: it keeps {card} from the discard pile"
        if len(moved) > 1:
            return (
                f"{head}: a Trash Chop Move on {len(moved)} cards: it keeps {card} and the "
                "others from the discard pile"
            )
        return f"{head}: a Trash Chop Move: it keeps {card} from the discard pile"

    # -- reasons --------------------------------------------------------------------------

    def play_reason(self, cid: int) -> str:
        reason = super().play_reason(cid)
        notes: Notes4 = self.notes
        ones = [c for c in notes.unknown_ones(self.me) if self.known_playable(c)]
        if cid not in ones or len(ones) < 2:
            return reason
        skipped = notes.play_order(self.me, ones).index(cid)
        if not skipped:
            return reason
        target = (self.me + skipped) % self.players
        chop = notes.chop(target)
        if chop is None:
            return reason
        card = f"{self.name(target)}'s {identity_name(notes.ident[chop])}"
        return (
            f"{reason}; an Order Chop Move: this 1 out of order tells {self.name(target)} to "
            f"keep their chop, {card} (slot {self.slot(target, chop)})"
        )


def decide(view: dict) -> Decision:
    return Turn4(view).decide()


def choose(view: dict) -> Action:
    return decide(view).action
