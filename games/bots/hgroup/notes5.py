"""The H-Group reading at level 5 ("Intermediate Finesses", docs/level-5.mdx), on top of
level 4's.

- **The Layered Finesse**: the card a finesse needs may sit behind cards that play first
  (each playable now) on the finessed player's finesse positions. The other players wait
  while that player blind-plays them one after the other; the finessed player, whose blind
  play was a playable card but not the one the clue needed, blind-plays its next finesse
  position on its next turn (the finesse moves on to it). Every reader marks the first
  layer as the finessed card, as that player (who cannot see it) does, so that later
  finesse positions agree; a player's play of a layer, clued since or not, keeps the wait.
- **The Clandestine Finesse**: a layered finesse whose first blind play connects to the
  clue too. The clue's receiver does not take that blind play for the proof of its card
  while the finessed player may still be on its way to a deeper card: it gives it a turn.
- **The Hidden Finesse**: a prompted clued card that plays but is not the card the prompt
  needed: the finesse was hidden behind it, and the prompted player blind-plays its
  finesse position of the prompt's time next (unless another clued card of its may be the
  one: two clued 1s). The others keep waiting meanwhile.
- **The Queued Finesse**: a player finessed twice plays into the finesses in order, the
  earliest first (level5.py); a finessed card moves the finesse position on, as before.
  A blind play another reading waited on keeps the others waiting (played first).
- **The Urgency Principle**: a finessed player blind-plays at once, unless it gives a clue
  on the next player's chop (a save that cannot wait): it is given another turn.
- **The Ambiguous Finesse** (resting on the Urgency Principle): a player who could have
  blind-played the card a finesse needed and did something else did not have it: the
  next player whose finesse position holds it has it (the viewer itself, when no one else
  it sees does). Once a fuse is gone, trusted only from a giver one of whose clues has
  been played as the conventions read it (beside players of other conventions, a clue that
  looks like a finesse may be none).
"""

from __future__ import annotations

from itertools import pairwise

from .notes import Note, Notes, bits
from .notes4 import Notes4


class Notes5(Notes4):
    level = 5
    # Layered and hidden finesses lean on more blind plays: beside a house bot, whose clue
    # looked like a finesse, a misplayed clued card casts doubt on that clue's giver (a
    # strike-out beside house bots at 5 players, deck 4820438109364412618).
    DOUBT_GIVER_TOO = True

    def __init__(self, view: dict, literal: frozenset[int] | None = None) -> None:
        # Set before the replay (the base class replays in its constructor).
        self._last: tuple[int, Note, bool] | None = None  # the card played, its note, placed
        self._drawn_at: dict[int, int] = {}  # card id -> the turn it was drawn (not dealt)
        self._strikes = 0  # misplays so far
        self._deferring: int | None = None  # a giver whose save lets a blind play wait
        # The card a layered finesse needs -> its player's finesse position (the first layer).
        self._layer_of: dict[int, int] = {}
        self.last_layered = False  # whether the last clue read was a layered finesse
        self._last_ident = -1
        super().__init__(view, literal)

    # -- the Layered Finesse: the needed card behind playable ones ---------------------------

    def _layered(
        self, need: int, giver: int, target: int, used: set[int], others: list[int]
    ) -> tuple[int, int, int, str] | None:
        for seat in others:
            if seat in (giver, target):
                continue
            skip, layers, first = set(used), 0, None
            while True:
                cid = self.finesse_position(seat, skip)
                seen = None if cid is None else self.ident.get(cid)
                if seen is None:
                    break
                if seen == need:
                    if layers:
                        self._layer_of[cid] = first
                        return seat, cid, need, "finesse"
                    break
                if not self.playable(seen):
                    break  # a card that does not play first hides nothing
                layers += 1
                first = cid if first is None else first
                skip.add(cid)
        return None

    def _clue(self, entry: dict):
        giver, target = entry["seat"], entry["target"]
        chop = self.chop(target)
        # The Urgency Principle's exception: a clue on the next player's chop may be a save
        # that could not wait; a finessed giver is given another turn to blind-play.
        urgent = target == (giver + 1) % self.players and chop in entry["touched"]
        self._deferring = giver if urgent else None
        self.last_layered = False
        try:
            return super()._clue(entry)
        finally:
            self._deferring = None

    def _read_focus(
        self, giver: int, target: int, focus: int, on_chop: bool, entry: dict, retouch: bool
    ):
        self._layer_of = {}
        reading = super()._read_focus(giver, target, focus, on_chop, entry, retouch)
        self.last_layered = bool(self._layer_of)
        for deep, first in self._layer_of.items():
            note = self.notes[deep]
            if note.finessed and not note.clued and note.turn == self.turn:
                # Mark the card its player will blind-play (who cannot see either): the
                # finesse position, as that player takes it, so that every reader's later
                # finesse positions agree with that player's; the finesse moves on to the
                # next one when it shows another card (_move_finesse).
                layer = self.notes[first]
                layer.finessed, layer.inferred, layer.claim = True, note.inferred, note.claim
                layer.turn, layer.by = note.turn, note.by
                note.finessed, note.claim = False, None
                note.inferred = note.mask
        self._layer_of = {}
        return reading

    def _promised(self, cid: int, need: int) -> bool:
        # The first layer of a layered finesse, marked for the card it leads to: its holder
        # blind-plays on until that card comes, so a later clue counts on it (not a second
        # finesse on the card behind).
        note = self.notes[cid]
        return (
            note.finessed
            and not note.clued
            and note.claim is not None
            and note.claim[1] == 1 << need
            and self.ident.get(cid) != need
        )

    def _still_coming(self, seat: int, played: int | None, needed: int) -> bool:
        if played is None:
            return seat == self._deferring
        if self._last is None or self._last[0] != played:
            return False
        _, note, placed = self._last
        if not placed:
            return False
        hand = self.hands[seat]
        if played in hand and needed in hand and hand.index(played) < hand.index(needed):
            # A layer of a layered finesse (clued since, maybe): the needed card comes next.
            return True
        if note.finessed and not note.clued:
            return True  # an older finesse played first (a queued finesse)
        if any(c == played and idents for (_, c), idents in self._played_in.items()):
            return True  # a card another reading waited on: a queued finesse, played first
        # A clued card it took for the prompt (a hidden finesse): the finesse comes next.
        need = self.ident.get(needed)
        return need is None or bool(note.inferred >> need & 1)

    def _narrow_to_layers(self, note: Note, deps: dict, seat: int) -> None:
        # A blind play nothing else asked for: the player is digging for the card of a
        # layered finesse, so the readings that wait on that player's deeper card are the
        # ones (docs: "Bob knows that Cathy must have been trying to blind-play a red 1").
        played = self._last[1] if self._last is not None else None
        if played is None or played.clued:
            return
        shown = self._last_ident
        if played.finessed and (played.claim is None or played.claim[1] >> shown & 1):
            return  # a blind play some reading asked for, and it was that card
        keep = sum(1 << i for i, chain in deps.items() if any(s == seat for s, _ in chain))
        if note.inferred & keep:
            note.inferred &= keep

    # -- the Clandestine Finesse ----------------------------------------------------------

    def _demonstrated(self, deps: dict, seat: int) -> bool:
        return not any(s == seat for chain in deps.values() for s, _ in chain)

    # -- the Ambiguous Finesse ------------------------------------------------------------

    def _record_deps(self, giver: int, target: int, focus: int) -> None:
        # The blind plays of the reading the viewer sees are waited on too (the cards are
        # marked finessed by then, which would make them "known"): a third player must
        # notice when the finessed player does not play (an ambiguous finesse).
        fresh = [
            note
            for note in self.notes.values()
            if note.finessed and not note.clued and note.turn == self.turn
        ]
        for note in fresh:
            note.finessed = False
        try:
            super()._record_deps(giver, target, focus)
        finally:
            for note in fresh:
                note.finessed = True

    def _passed_on(self, focus: int, ident: int, seat: int, needed: int) -> tuple | None:
        old = self.notes.get(needed)
        need = self.ident.get(needed)
        giver = self.notes[focus].by
        if old is None or need is None or old.clued or not old.finessed:
            return None  # not a finesse on someone else's card (a prompt, or the viewer's)
        if self._strikes and giver not in self.confirmed:
            return None  # a fuse is gone: only from a giver proven to play by these rules
        target = next(s for s, hand in enumerate(self.hands) if focus in hand)
        order = [(seat + k) % self.players for k in range(1, self.players)]
        order = [s for s in order if s not in (giver, target, seat)]
        waited = {c for deps in self.deps.values() for chain in deps.values() for _, c in chain}
        for other in [s for s in order if s != self.me] + [self.me]:
            if other not in order:
                continue
            cid = self.finesse_position(other, waited)
            if cid is None or (other != self.me and self.ident.get(cid) != need):
                continue
            old.finessed, old.inferred, old.claim = False, old.mask, None
            mine = self.notes[cid]
            mine.finessed = True
            mine.inferred = 1 << need
            mine.claim = (giver, 1 << need)
            mine.turn, mine.by = self.notes[focus].turn, giver
            if other == self.me:
                self.committed.add(cid)
            return other, cid
        return None

    # -- the finesse moves on: layered and hidden finesses ---------------------------------

    def _play_or_discard(self, entry: dict) -> None:
        cid, seat = entry["card"]["id"], entry["seat"]
        note = self.notes.get(cid)
        placed = entry["type"] == "play" and entry["placed"]
        self._strikes += entry["type"] == "play" and not entry["placed"]
        self._last = None if note is None else (cid, note.clone(), placed)
        self._last_ident = self._ident_of(entry)
        if placed and note is not None and note.claim is not None:
            ident = self._ident_of(entry)
            wanted = note.claim[1] & ~(1 << ident)
            wanted = sum(1 << i for i in bits(wanted) if not self.dead(i) and i != ident)
            blind = note.finessed and not note.clued
            prompted = note.clued and cid in self.committed
            # A prompt may simply have meant another of its clued cards (two clued 1s, say).
            other_may = any(
                self.notes[c].clued and self.notes[c].inferred & wanted
                for c in self.hands[seat]
                if c != cid
            )
            hidden = prompted and not other_may
            if not note.claim[1] >> ident & 1 and wanted and (blind or hidden):
                self._move_finesse(seat, cid, note, wanted)
        super()._play_or_discard(entry)
        self._last = None
        if entry.get("drawn") is not None:
            self._drawn_at[entry["drawn"]] = self.turn

    def _move_finesse(self, seat: int, cid: int, note: Note, wanted: int) -> None:
        """``seat`` played ``cid`` for a card it was not (but that played): the card the
        clue needed is on its next finesse position, and each blind play asked of a
        finesse position behind it moves one position on (docs/level-5: the layered
        finesse; seed 19, game 130: a second finesse on the same player was left in place,
        and that player blind-played the wrong card)."""
        # Its next finesse position of the clue's time: cards drawn since are not it.
        then = max(note.turn, note.claimed)
        later = {c for c in self.hands[seat] if self._drawn_at.get(c, -1) > then}
        hand = self.hands[seat]
        right = hand[hand.index(cid) + 1 :] if cid in hand else []
        behind = [
            c
            for c in right
            if c not in later and self.notes[c].finessed and not self.notes[c].clued
        ]
        nxt = self.finesse_position(seat, {cid} | later | set(behind))
        if nxt is None and not behind:
            return
        order = [cid, *behind] + ([nxt] if nxt is not None else [])
        moves = dict(pairwise(order))
        # What each card was finessed as passes to the next: (identities, who claimed it,
        # its turn, its giver, the turn it was claimed).
        carried = (wanted, note.claim[0], note.turn, note.by, note.claimed)
        for new in moves.values():
            moved = self.notes[new]
            claimer = moved.claim[0] if moved.claim else moved.by
            kept = (moved.inferred, claimer, moved.turn, moved.by, moved.claimed)
            want, claimer, turn, by, claimed = carried
            moved.finessed = True
            moved.inferred = want & moved.mask or want
            moved.claim = (claimer, moved.inferred)
            moved.turn, moved.by, moved.claimed = turn, by, claimed
            carried = kept
        for deps in self.deps.values():
            for chain in deps.values():
                for k, (s, c) in enumerate(chain):
                    if c in moves:
                        chain[k] = (s, moves[c])
        for chains in self.chains.values():
            for chain in chains.values():
                for k, (c, need) in enumerate(chain):
                    if c in moves:
                        chain[k] = (moves[c], need)
        for old, new in moves.items():
            if old in self.committed or seat == self.me:
                self.committed.add(new)
            if old in self.self_finessed:
                self.self_finessed.add(new)


__all__ = ["Notes", "Notes5"]
