"""The H-Group bot's turn at level 3 ("Basic Strategy", docs/level-3.mdx; README.md here).

Level 2's turn with level 3's reading of the table (``Notes3``: fix clues, stop clues, the
Sarcastic Discard) and level 3's moves:

- **A Sarcastic Discard** before anything but a save or a play a finesse or a prompt asks
  of it: a clued card of its own that it knows
  to be a card another player holds clued is discarded, which tells that player their card
  is it (and gains a clue token).
- **Fix clues** before its own play (docs: "violations of Good Touch Principle should be
  fixed as soon as possible"; the Misplay Cost Principle: a clue that stops a strike is worth
  it): when another player takes a card for playable that is not, the clue that shows it
  (by filling it in, or, for a card that is trash, by touching it again with nothing new).
- **Playing multiple 1s** in the order of docs/level-3.mdx (``Notes3.play_order``).

Safety: a fix clue is never given on a card that is playable (it would stop a good play), and
a clue that tells nothing new is never given on a card its holder is about to play unless
that card is trash (it would be discarded).
"""

from __future__ import annotations

from games.engine import Action, Clue, Discard, Play
from games.engine.cards import identity_name

from .level1 import MISPLAY, Decision, _bits
from .level2 import Turn2
from .notes import Notes, Reading
from .notes3 import Notes3


class Turn3(Turn2):
    NOTES = Notes3

    # -- the turn -------------------------------------------------------------------------

    def decide(self) -> Decision:
        # A blind play or a prompt it owes comes first: the player whose clued card waits on
        # it reads anything else as "that card was not meant" (Turn2.committed_play).
        if not self.save_is_due() and self.committed_play() is None:
            sarcastic = self.sarcastic_discard()
            if sarcastic is not None:
                return sarcastic
            fix = self.fix_clue()
            if fix is not None:
                return fix
        return super().decide()

    def save_is_due(self) -> bool:
        if not self.legal["clues"]:
            return False
        nxt = (self.me + 1) % self.players
        return self.needs_save(nxt) and not self.has_safe_action(nxt)

    def sarcastic_discard(self) -> Decision | None:
        """A clued card of its own it knows to be a card another player holds clued."""
        if not self.legal["discard"]:
            return None
        notes: Notes3 = self.notes
        for cid in self.own:
            if not notes.notes[cid].clued:
                continue
            live = self.live(cid)
            if not live or live & (live - 1) or live & notes.trash_mask():
                continue
            ident = live.bit_length() - 1
            for seat, hand in enumerate(notes.hands):
                if seat == self.me:
                    continue
                for other in hand:
                    if notes.ident.get(other) == ident and notes.notes[other].clued:
                        who = self.name(seat)
                        theirs = f"{who}'s {identity_name(ident)} (slot {self.slot(seat, other)})"
                        reason = (
                            f"Discard slot {self.slot(self.me, cid)}: a Sarcastic Discard: it "
                            f"is the other copy of {theirs}, so {who} learns that card is it"
                        )
                        return Decision(Discard(cid), reason)
        return None

    def coming_misplays(self) -> list[tuple[int, int]]:
        """(seat, card) of every card another player takes for playable that is not."""
        notes: Notes3 = self.notes
        found = []
        for seat, hand in enumerate(notes.hands):
            if seat == self.me or seat in notes.literal:
                continue
            for cid in hand:
                ident = notes.ident.get(cid)
                believed = ident is not None and notes.believed_playable(cid)
                if believed and not notes.playable(ident):
                    found.append((seat, cid))
        return found

    def fix_clue(self) -> Decision | None:
        coming = self.coming_misplays()
        if not coming or not self.legal["clues"]:
            return None
        best = None
        for option in self.legal["clues"]:
            if not any(option["target"] == seat for seat, _ in coming):
                continue
            twin = self.notes.copy()
            reading = twin.apply_clue(option["target"], option)
            if reading is None or reading.kind != "fix":
                continue
            worth = self.value(twin, reading, option["target"], option, self._gotten())
            if worth > 0 and (best is None or worth > best[0]):
                best = (worth, option)
        if best is None:
            return None
        option = best[1]
        clue = Clue(option["target"], colour=option.get("colour"), rank=option.get("rank"))
        return self.clue_decision(clue, "")

    def first_committed(self, candidates: list[int]) -> int:
        """Clued 1s in the documents' order among themselves: a prompt on a 1 goes to the 1
        its holder plays first (``Notes3._prompt``), and at level 4 the others read a 1
        played out of that order as an Order Chop Move."""
        candidates = self.blind_first(candidates)
        first = candidates[0]
        ones = [c for c in candidates if self._is_one(c) and self.notes.notes[c].clued]
        if first in ones:
            return self.notes.play_order(self.me, ones)[0]
        return first

    def _gotten(self) -> set[int]:
        return {cid for cid, note in self.notes.notes.items() if note.gotten}

    def best_play(self) -> Action | None:
        play = super().best_play()
        if play is None:
            return None
        notes: Notes3 = self.notes
        chosen = notes.notes[play.card_id]
        playable = [c for c in self.own if self.known_playable(c)]
        if play.card_id not in playable or (chosen.finessed and not chosen.clued):
            return play  # a blind play first, or a last try in the final round
        ones = [c for c in playable if self._is_one(c)]
        if play.card_id in ones:
            return Play(notes.play_order(self.me, ones)[0])
        return play

    def _is_one(self, cid: int) -> bool:
        live = self.live(cid) or self.proven(cid)
        return bool(live) and all(i % 5 == 0 for i in _bits(live))

    def known_playable(self, cid: int) -> bool:
        if cid in self.notes.fixed:
            return False
        return super().known_playable(cid)

    def known_trash(self, cid: int) -> bool:
        return cid in self.notes.fixed or super().known_trash(cid)

    # -- clues ----------------------------------------------------------------------------

    def value(
        self, twin: Notes, reading: Reading | None, target: int, option: dict, before: set[int]
    ) -> float:
        if reading is None or reading.kind != "fix":
            return super().value(twin, reading, target, option, before)
        notes: Notes3 = self.notes
        trash = notes.trash_mask()
        worth = 0.0
        for cid in notes.hands[target]:
            ident = notes.ident[cid]
            was, now = notes.believed_playable(cid), twin.believed_playable(cid)
            if was and not now:
                if notes.playable(ident):
                    return MISPLAY  # it would stop a good play
                if cid in twin.fixed and not trash >> ident & 1:
                    return MISPLAY  # a card still needed would be discarded
                # A strike saved (the Misplay Cost Principle); a fix that fills the card in
                # tells more than one that only touches it again.
                worth += 0.9 if cid in twin.fixed else 1.0
            elif now and not notes.playable(ident):
                return MISPLAY
        taken = notes.gotten_visible((self.me,))
        for cid in option["touches"]:
            ident = notes.ident[cid]
            if cid not in before and (trash >> ident & 1 or taken >> ident & 1):
                return -1.0  # it breaks good touch
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
        if reading is None or reading.kind != "fix":
            return super().clue_meaning(clue)
        notes: Notes3 = self.notes
        who = self.name(clue.target)
        value = clue.colour or str(clue.rank)
        slots = ", ".join(str(self.slot(clue.target, c)) for c in option["touches"])
        head = f"Clue {who} {value} (slot{'s' if len(option['touches']) > 1 else ''} {slots})"
        for cid in notes.hands[clue.target]:
            if notes.believed_playable(cid) and not twin.believed_playable(cid):
                slot = self.slot(clue.target, cid)
                card = f"{who}'s {identity_name(notes.ident[cid])} (slot {slot})"
                if cid in twin.fixed:
                    return f"{head}: a fix clue that tells nothing new: {card} is bad"
                return f"{head}: a fix clue: {card} is not playable, as {who} thought"
        return f"{head}: a fix clue"


def decide(view: dict) -> Decision:
    return Turn3(view).decide()


def choose(view: dict) -> Action:
    return decide(view).action
