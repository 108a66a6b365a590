"""The H-Group reading at level 3 ("Basic Strategy", docs/level-3.mdx), on top of level 2's.

What level 3 reads that level 2 does not:

- **Fix clues**: a clue that re-touches a card its holder took for playable and shows that it
  is not (by what it fills in) fixes it. A clue cannot be a play clue and a fix clue at once:
  the new cards it touches are kept (good touch), but none is read as a play.
- **Fix clues that give no information** ("stop clues"): a clue that touches no new card and
  tells nothing new, on cards their holder was about to play, says that the one it would
  have played first is bad: it is discarded, not played.
- **The Sarcastic Discard**: a player who discards a clued card that is still needed passes
  it to the player whose clued card may be it (that card is it when only one may be).
- **Playing multiple 1s** is the turn's order, not a reading (level3.py); the notes keep which
  1s were a chop clue's focus.
"""

from __future__ import annotations

from games.engine import clue_touch_mask, dealt_hands

from .notes import Notes, Reading, bits, rank_of
from .notes2 import Notes2, _WrongPrompt


class Notes3(Notes2):
    level = 3
    # A giver cannot know which of its clued cards a clue would prompt: it prompts none.
    GIVER_PROMPTS = False
    SELF_PROMPTS = True

    def __init__(self, view: dict, literal: frozenset[int] | None = None) -> None:
        # Set before the replay (the base class replays in its constructor).
        self.fixed: set[int] = set()  # cards a fix clue with no information showed bad
        self.chop_focus: set[int] = set()  # cards that were the focus of a clue on chop
        self.sarcastic: set[int] = set()  # cards a Sarcastic Discard showed to be its card
        self._fixing = False
        super().__init__(view, literal)

    # -- what a holder takes for playable ---------------------------------------------------

    def believed_playable(self, cid: int) -> bool:
        """Whether the card's holder takes it for playable now, as far as the notes tell."""
        note = self.notes[cid]
        if not note.gotten or cid in self.fixed:
            return False
        if note.waiting and any(note.inferred >> i & 1 for i in note.waiting):
            return False
        live = note.inferred & ~self.trash_mask()
        return bool(live) and all(self.playable(i) for i in bits(live))

    def play_order(self, seat: int, cards: list[int]) -> list[int]:
        """The order a holder plays its cards taken for playable: 1s as docs/level-3.mdx
        says (a chop focus first, then fresh 1s newest first, then the starting hand's
        oldest first), before the others, left to right."""
        dealt = sum(map(len, dealt_hands(self.options)))  # the cards of the starting hands
        hand = self.hands[seat]

        def key(cid: int) -> tuple:
            live = self.notes[cid].inferred & ~self.trash_mask()
            one = bool(live) and all(rank_of(i) == 1 for i in bits(live))
            slot = hand.index(cid)
            if not one:
                return (1, 0, slot)
            fresh = cid >= dealt
            return (0, (cid not in self.chop_focus, not fresh), slot if fresh else -slot)

        return sorted(cards, key=key)

    def _prompt(self, seat: int, need: int, used: set[int]) -> tuple[int, int, int, str] | None:
        """A 1 is prompted in the order its holder plays its 1s (will-bot: "does not prompt
        playable 1s" as the leftmost), not as the leftmost clued card that may be it."""
        if rank_of(need) != 1:
            return super()._prompt(seat, need, used)
        ones = []
        for cid in self.hands[seat]:
            note = self.notes[cid]
            if cid in used or not note.gotten or not note.inferred >> need & 1:
                continue
            if note.turn == self.turn or self.known_as(cid) is not None:
                continue
            ones.append(cid)
        if not ones:
            return None
        first = self.play_order(seat, ones)[0]
        seen = self.ident.get(first) if seat != self.me else None
        if seen is None or seen == need:
            return seat, first, need, "prompt"
        note = self.notes[first]
        if note.clued and not note.finessed and self._giving:
            raise _WrongPrompt  # its holder would play that 1 for it (as level 2's prompt)
        return None

    # -- reading a clue -------------------------------------------------------------------

    def _clue(self, entry: dict) -> Reading | None:
        giver, target = entry["seat"], entry["target"]
        touched = set(entry["touched"])
        hand = self.hands[target]
        if giver in self.literal or not touched:
            return super()._clue(entry)
        touch = clue_touch_mask(self.options, entry["colour"], entry["rank"])
        trash = self.trash_mask()
        about_to_play = [c for c in hand if c in touched and self.believed_playable(c)]
        fixes = []
        for cid in about_to_play:
            note = self.notes[cid]
            left = note.inferred & note.mask & touch & ~trash
            if not any(self.playable(i) for i in bits(left)):
                fixes.append(cid)
        new = [c for c in hand if c in touched and not self.notes[c].gotten]
        stop = None
        if not fixes and not new and about_to_play:
            tells = any(self.notes[c].mask & touch != self.notes[c].mask for c in touched)
            if not tells:
                stop = self.play_order(target, about_to_play)[0]
        self._fixing = bool(fixes) or stop is not None
        try:
            reading = super()._clue(entry)
        finally:
            self._fixing = False
        if stop is not None:
            self.fixed.add(stop)
        return reading

    def _read_focus(
        self, giver: int, target: int, focus: int, on_chop: bool, entry: dict, retouch: bool
    ) -> Reading:
        if self._fixing:
            # A fix clue: no play is read into it (docs: "a clue cannot be a Play Clue and a
            # Fix Clue at the same time").
            self.last_self = False
            return Reading(focus, "fix", 0, 0)
        reading = super()._read_focus(giver, target, focus, on_chop, entry, retouch)
        if on_chop and not retouch:
            self.chop_focus.add(focus)
        return reading

    # -- the Sarcastic Discard ------------------------------------------------------------

    def _play_or_discard(self, entry: dict) -> None:
        seat = entry["seat"]
        gone = self.notes.get(entry["card"]["id"])
        ident = self._ident_of(entry)
        sarcastic = (
            entry["type"] == "discard"
            and gone is not None
            and gone.clued
            and not self.dead(ident)
            and seat not in self.literal
        )
        super()._play_or_discard(entry)
        if not sarcastic:
            return
        # The other copy is clued in another hand: whichever clued card may be it.
        candidates = [
            cid
            for other, hand in enumerate(self.hands)
            if other != seat
            for cid in hand
            if self.notes[cid].clued and self.notes[cid].mask >> ident & 1
        ]
        if len(candidates) == 1:
            # (With several, each may still be it: the discard no longer makes the other
            # copy "gotten", so good touch stops ruling it out.)
            (cid,) = candidates
            self.notes[cid].inferred = 1 << ident
            self.sarcastic.add(cid)

    def copy(self) -> Notes3:
        twin = super().copy()
        twin.fixed = set(self.fixed)
        twin.chop_focus = set(self.chop_focus)
        twin.sarcastic = set(self.sarcastic)
        return twin


__all__ = ["Notes", "Notes3"]
