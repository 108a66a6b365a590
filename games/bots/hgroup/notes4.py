"""The H-Group reading at level 4 ("Chop Moves", docs/level-4.mdx), on top of level 3's.

A chop move puts an "invisible" clue on a player's chop (``Note.chop_moved``): the chop moves
to the next card left of it, and the card is never discarded. Chop-moved cards are not
"gotten": they are not prompted, not played, and other players may still clue their copies;
but a new clue's focus is on a card not chop-moved when it touches one (docs: "Chop Moves &
New Clues"), unless the clue touches only chop-moved and old cards. Level 4 reads three:

- **The Trash Chop Move (TCM)**: a clue whose new cards can only be trash (played, dead, or a
  copy of a card gotten in another hand: "a delayed TCM") chop-moves every unclued card to
  the right of the rightmost of them; those cards are known trash. On the chop itself it
  moves nothing.
- **The 5's Chop Move (5CM)**: a 5 clue whose rightmost new 5 is one card away from the chop
  (one unclued card to its right), when it cannot be a 5 Stall, chop-moves that chop card;
  the 5s are saved, not played.
- **The Order Chop Move (OCM)**: a player who plays a clued 1 other than the first of its
  1s in the order of docs/level-3.mdx (``Notes3.play_order``) chop-moves the chop of the
  player as many seats on as the 1s it skipped (one: the next player). Not when the 1 was
  known, or finessed before.
"""

from __future__ import annotations

from .notes import Notes, Reading, bits, rank_of
from .notes3 import Notes3


class Notes4(Notes3):
    level = 4

    def __init__(self, view: dict, literal: frozenset[int] | None = None) -> None:
        # Set before the replay (the base class replays in its constructor): the chop moves
        # read, (turn, seat, card ids, "tcm" / "5cm" / "ocm"), for the reasons and tests.
        self.chop_moves: list[tuple[int, int, tuple[int, ...], str]] = []
        super().__init__(view, literal)

    # -- the chop and the finesse position skip chop-moved cards ----------------------------

    def chop(self, seat: int) -> int | None:
        for cid in reversed(self.hands[seat]):
            note = self.notes[cid]
            if not note.gotten and not note.chop_moved:
                return cid
        return None

    def finesse_position(self, seat: int, skip: set[int]) -> int | None:
        moved = {cid for cid in self.hands[seat] if self.notes[cid].chop_moved}
        return super().finesse_position(seat, skip | moved)

    def _fresh(self, new: list[int]) -> list[int]:
        # A chop-moved card counts as clued for the focus; if the clue touches only such
        # cards (and old ones), the leftmost of them is the focus (docs' exception).
        return [cid for cid in new if not self.notes[cid].chop_moved] or new

    def _move_chop(self, seat: int, cards: list[int], kind: str) -> None:
        for cid in cards:
            self.notes[cid].chop_moved = True
        if cards:
            self.chop_moves.append((self.turn, seat, tuple(cards), kind))

    def _unclued_right_of(self, seat: int, cid: int) -> list[int]:
        """The cards right of ``cid`` (older) that no clue, finesse or chop move has got."""
        hand = self.hands[seat]
        return [
            c
            for c in hand[hand.index(cid) + 1 :]
            if not self.notes[c].gotten and not self.notes[c].chop_moved
        ]

    # -- reading a clue -------------------------------------------------------------------

    def _read_focus(
        self, giver: int, target: int, focus: int, on_chop: bool, entry: dict, retouch: bool
    ) -> Reading:
        if not self._fixing and not retouch and giver not in self.literal:
            touched = set(entry["touched"])
            hand = self.hands[target]
            new = [c for c in hand if c in touched and self.notes[c].turn == self.turn]
            new = [c for c in new if not self.notes[c].finessed]
            if new:
                reading = self._trash_chop_move(giver, target, new)
                if reading is None and not self._five_stall(focus, on_chop, entry, retouch):
                    reading = self._fives_chop_move(target, new, entry)
                if reading is not None:
                    self.last_self = False
                    return reading
        return super()._read_focus(giver, target, focus, on_chop, entry, retouch)

    def _trash_dupes(self, giver: int, target: int) -> int:
        """Identities a newly clued card of ``target``'s cannot be by good touch: gotten in
        a hand the giver and the target see, or gotten in the giver's hand (or the
        viewer's) and known to its holder."""
        dupes = self.gotten_visible((target, giver))
        # The giver's own gotten cards it knows count too, and the viewer's it knows.
        for seat in {giver, self.me} - {target}:
            for cid in self.hands[seat]:
                known = self.known_as(cid)
                if self.notes[cid].gotten and known is not None:
                    dupes |= 1 << known
        return dupes

    def _trash_chop_move(self, giver: int, target: int, new: list[int]) -> Reading | None:
        trash = self.trash_mask()
        dupes = self._trash_dupes(giver, target)
        for cid in new:
            if self.notes[cid].mask & ~trash & ~dupes:
                return None  # it may be a useful card: not a TCM
        rightmost = new[-1]
        for cid in new:
            note = self.notes[cid]
            note.inferred = note.mask & (trash | dupes) or note.mask
            note.focus = None
            note.claim = None
        moved = self._unclued_right_of(target, rightmost)
        if not moved:
            return None  # trash on the chop: it moves nothing (the card is just trash)
        self._move_chop(target, moved, "tcm")
        return Reading(rightmost, "chop move", 0, 0)

    def _fives_chop_move(self, target: int, new: list[int], entry: dict) -> Reading | None:
        if entry.get("rank") != 5:
            return None
        rightmost = new[-1]
        right = self._unclued_right_of(target, rightmost)
        if len(right) != 1:
            return None  # two or more away: a play clue on the 5 (on the chop: a 5 Save)
        for cid in new:
            note = self.notes[cid]
            note.inferred = note.mask & ~self.trash_mask() or note.mask
            note.focus = "save"
        self._move_chop(target, right, "5cm")
        return Reading(rightmost, "chop move", 0, self.notes[rightmost].inferred)

    # -- the Order Chop Move ----------------------------------------------------------------

    def unknown_ones(self, seat: int) -> list[int]:
        """The clued cards of ``seat`` its holder takes for playable 1s of unknown suit."""
        trash = self.trash_mask()
        ones = []
        for cid in self.hands[seat]:
            note = self.notes[cid]
            live = note.inferred & ~trash
            if not note.clued or note.finessed or not live or live & (live - 1) == 0:
                continue
            if all(rank_of(i) == 1 and self.playable(i) for i in bits(live)):
                ones.append(cid)
        return ones

    def _play_or_discard(self, entry: dict) -> None:
        seat, cid = entry["seat"], entry["card"]["id"]
        target = None
        if entry["type"] == "play" and seat not in self.literal:
            ones = self.unknown_ones(seat)
            if cid in ones and len(ones) > 1:
                skipped = self.play_order(seat, ones).index(cid)
                if skipped:
                    target = (seat + skipped) % self.players
        super()._play_or_discard(entry)
        if target is not None and target != seat:
            chop = self.chop(target)
            if chop is not None:
                self._move_chop(target, [chop], "ocm")

    def copy(self) -> Notes4:
        twin = super().copy()
        twin.chop_moves = list(self.chop_moves)
        return twin


__all__ = ["Notes", "Notes4"]
