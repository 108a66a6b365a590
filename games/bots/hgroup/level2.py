"""The H-Group bot's turn at level 2 ("Basic Moves", docs/level-2.mdx; README.md here).

Level 1's turn (save, play, clue, discard) with level 2's reading of the table (``Notes2``:
double finesses, prompt + finesse, reverse finesses waited for, self-finesses, the 5 Stall)
and level 2's clues: finesses that need several blind plays, self-finesses that nothing else
could explain, and in the Early Game a 5 Stall (a 5 clue on a 5 off chop) rather than a
discard when no play or save clue is left.

Safety, as at level 1: a clue that could mean two things is read the safe way, and the reason
says so ("slot 2 may be red 1, playable now, or red 2 after Cathy's blind play: it waits");
a self-finesse is read only when no other reading is left, and never on the last fuse; a
clue it gives that asks for a blind play is given only when the card is there.
"""

from __future__ import annotations

from games.engine import Action, Clue, Play
from games.engine.cards import identity_name

from .level1 import LAST_FUSE, MISPLAY, Decision, Turn, _bits, _names
from .notes import Notes, Reading, rank_of
from .notes2 import Notes2
from .safe import SAVE, WAITS, at, play_or_save, waited_on

# A 5 Stall is worth a clue only where a discard is not (the Early Game, 8 tokens).
STALL_VALUE = 0.05


class Turn2(Turn):
    NOTES = Notes2
    # Mid-game a clue is worth its token from 0.6 (a play clue whose receiver may take the
    # card for one of several playable cards, or needs a later card to tell) rather than
    # level 1's 1.0: the cards played sooner outweigh the discards given up (3-player
    # self-play +0.34 ± 0.24 on bench/hgroup.py's 100 decks, +0.89 ± 0.28 on 100 others,
    # seed 18; 0.8: +0.25 and +0.84; 1.3: -0.43).
    CLUE_WORTH = 0.6

    # -- the turn -------------------------------------------------------------------------

    def decide(self) -> Decision:
        committed = self.committed_play()
        if committed is not None:
            reason = self.play_reason(committed)
            decision = Decision(
                Play(committed),
                f"{reason}; it comes before any save, since "
                "a reading of the table waits on this play",
            )
        else:
            decision = super().decide()
        caution = self.safe_reading(decision.action)
        safe = self.safe or play_or_save(self, decision.action)
        if caution:
            return Decision(decision.action, f"{decision.reason}. {caution}", safe)
        return Decision(decision.action, decision.reason, safe)

    def committed_play(self) -> int | None:
        """A card of its own that a finesse or a prompt asks it to play now, when it can: the
        player whose clued card waits on it drops that reading if it does anything else."""
        candidates = self.committed_candidates()
        return self.first_committed(candidates) if candidates else None

    def committed_candidates(self) -> list[int]:
        """Its cards known playable that a finesse or a prompt asks it to play, left first."""
        notes: Notes2 = self.notes
        waited = {c for deps in notes.deps.values() for chain in deps.values() for _, c in chain}
        return [
            cid
            for cid in self.own
            if self.known_playable(cid)
            and (
                (notes.notes[cid].finessed and not notes.notes[cid].clued)
                or cid in waited
                or cid in notes.committed
            )
        ]

    def first_committed(self, candidates: list[int]) -> int:
        return self.blind_first(candidates)[0]

    def blind_first(self, candidates: list[int]) -> list[int]:
        """The blind plays first (a stable sort): the player a finesse's clue went to
        reads any other move, a clued card's play included, as "no finesse on that
        player", while a clued card its holder knows can wait a turn."""
        return sorted(candidates, key=lambda c: not self.is_blind(c))

    def is_blind(self, cid: int) -> bool:
        note = self.notes.notes[cid]
        return note.finessed and not note.clued

    def safe_reading(self, action: Action) -> str:
        """Where a card of its own could be read two ways and it took the safe one: why it
        does not play it (said beside whatever move it makes)."""
        notes: Notes2 = self.notes
        played = action.card_id if isinstance(action, Play) else None
        self.safe = None  # (and in structure, for the game's history: safe.py)
        for cid in self.own:
            note = notes.notes[cid]
            if cid == played or not note.gotten:
                continue
            slot = self.slot(self.me, cid)
            if note.waiting and any(note.inferred >> i & 1 for i in note.waiting):
                waiting = sum(1 << i for i in note.waiting) & note.inferred
                direct = note.inferred & ~waiting & ~notes.trash_mask() & self.counted[cid]
                whom = sorted(
                    {
                        self.name(seat)
                        for seat, _ in (
                            link for chain in notes.deps.get(cid, {}).values() for link in chain
                        )
                    }
                )
                who = " and ".join(whom) or "another player"
                if direct:
                    self.safe = at(self, cid, WAITS, waited_on(notes, cid))
                    return (
                        f"Slot {slot} may be {_names(direct)} or {_names(waiting)} (a finesse "
                        f"on {who} still to come): the safe reading waits for {who} first"
                    )
                return f"Slot {slot} waits for {who}'s blind play before it can be played"
            if cid in notes.stalled and not self.known_playable(cid):
                since = len(self.view["history"]) - note.turn
                if 0 < since <= self.players:
                    self.safe = at(self, cid, SAVE)
                    return (
                        f"Slot {slot} was clued 5 off chop in the Early Game: a 5 Stall, "
                        "read as a save, not as a play clue"
                    )
        return ""

    def best_play(self) -> Action | None:
        play = super().best_play()
        if play is not None or self.view["deck_size"] or self.fuses <= LAST_FUSE:
            return play
        if self.notes.literal - {self.me}:
            return None  # beside a player of other conventions, level 1's rule (3 fuses)
        # The deck is out and a misplay cannot end the game: on its last turn, the card
        # likeliest to play, however unlikely (nothing it holds counts after this turn).
        turns = self.view["turns_left"]
        if turns is not None and turns <= self.players:
            return self.final_round_try(0.0)
        return None

    def known_playable(self, cid: int) -> bool:
        giver = self.notes.notes[cid].by
        doubtful = giver in self.notes.misplayed_clued or giver not in self.notes.confirmed
        if self.fuses <= LAST_FUSE + 1 and giver not in (-1, self.me) and doubtful:
            # A fuse is gone, and its clue came from a player who misplayed a clued card, or
            # none of whose clues has yet been played as the conventions read it: they may
            # read and give clues their own way (a house bot's red clue on a red 4, waited on
            # as a red 2 until the red 1 was played; a house bot's green clue on a green 5,
            # read as a green 3).
            proven = self.proven(cid)
            return bool(proven) and all(self.notes.playable(i) for i in _bits(proven))
        if self.fuses <= LAST_FUSE + 1 and self.notes.literal - {self.me}:
            # A player at the table does not read these conventions (the house bot, say), and
            # a fuse is already gone: with two left, as with one, nothing beyond what the
            # clues and the counting prove (a second misplay of theirs would end the game).
            proven = self.proven(cid)
            return bool(proven) and all(self.notes.playable(i) for i in _bits(proven))
        return super().known_playable(cid)

    # -- clues ----------------------------------------------------------------------------

    def value(
        self, twin: Notes, reading: Reading | None, target: int, option: dict, before: set[int]
    ) -> float:
        if reading is not None and reading.kind == "stall":
            return self.stall_value(target, option, before)
        waited = {c for d in self.notes.deps.values() for chain in d.values() for _, c in chain}
        if waited & set(option["touches"]):
            # A card a reading waits on to be blind-played or prompted: cluing it would
            # stomp on that finesse (and waste the clue).
            return -1.0
        if (
            reading is not None
            and target != self.me
            and target in self.notes.literal
            and reading.kind == "play"
            and not self.notes.playable(self.notes.ident[reading.focus])
        ):
            # A player read for facts alone may play by other conventions (the house bot
            # plays a play clue at once): no finesse or delayed play clue it might not wait
            # for, only play clues on cards playable now.
            return -1.0
        if reading is not None and reading.on_viewer:
            # It leans on its own unseen cards: others would read a prompt or a finesse on
            # them (and a third player one on itself). Not even a stall.
            return MISPLAY
        if reading is None or not isinstance(twin, Notes2) or not twin.last_self:
            return self.with_blind_plays(
                super().value(twin, reading, target, option, before), twin, reading
            )
        # A self-finesse: the receiver blind-plays its own finesse position(s), which the
        # giver sees: every one must be the card the reading needs.
        twin.self_pass = True
        try:
            links = twin.connect(
                self.notes.ident[reading.focus], self.me, target, focus=reading.focus
            )
            if links is None:
                return -1.0
            for _seat, cid, need, how in links:
                if how == "finesse" and self.notes.ident.get(cid) != need:
                    return MISPLAY
            worth = super().value(twin, reading, target, option, before)
        finally:
            twin.self_pass = False
        return self.with_blind_plays(worth, twin, reading)

    def with_blind_plays(self, worth: float, twin: Notes, reading: Reading) -> float:
        """A play clue's value with one more card played for each blind play it asks for
        (the finessed cards are "known" in the clue's own notes, so level 1's count of
        finesse links misses them)."""
        if worth <= 0 or reading.kind != "play":
            return worth
        blind = sum(
            1
            for cid, note in twin.notes.items()
            if note.finessed and not note.clued and not self.notes.notes[cid].finessed
        )
        return worth + 1.0 * blind

    def stall_value(self, target: int, option: dict, before: set[int]) -> float:
        """A 5 Stall: every new card a 5 that is still needed and not gotten elsewhere."""
        notes = self.notes
        trash = notes.trash_mask()
        taken = notes.gotten_visible((self.me,))
        new = [c for c in option["touches"] if c not in before]
        if not new:
            return -1.0
        for cid in new:
            ident = notes.ident[cid]
            if rank_of(ident) != 5 or trash >> ident & 1 or taken >> ident & 1:
                return -1.0
        return STALL_VALUE - 0.001 * ((target - self.me) % self.players)

    def clue_meaning(self, clue: Clue) -> str:
        option = next(
            o
            for o in self.legal["clues"]
            if o["target"] == clue.target
            and o.get("colour") == clue.colour
            and o.get("rank") == clue.rank
        )
        if any(not self.notes.notes[c].gotten for c in option["touches"]):
            twin = self.notes.copy()
            reading = twin.apply_clue(clue.target, option)
            who = self.name(clue.target)
            slots = ", ".join(str(self.slot(clue.target, c)) for c in option["touches"])
            plural = "s" if len(option["touches"]) > 1 else ""
            head = f"Clue {who} {clue.colour or clue.rank} (slot{plural} {slots})"
            if reading is not None and reading.kind == "stall":
                return (
                    f"{head}: a 5 Stall, it saves {who}'s 5 off chop and asks nobody to play "
                    "(nothing to play or save, and the Early Game has no discard yet)"
                    if not self.notes.discarded_any
                    else f"{head}: a 5 Stall (no discard allowed at 8 clue tokens)"
                )
            if reading is not None and twin.last_self and reading.focus in self.notes.ident:
                ident = self.notes.ident[reading.focus]
                blind = [
                    f"slot {self.slot(clue.target, cid)} ({identity_name(self.notes.ident[cid])})"
                    for cid in self.notes.hands[clue.target]
                    if cid in twin.self_finessed and cid not in self.notes.self_finessed
                ]
                if blind:
                    return (
                        f"{head}: a self-finesse on {who}'s {identity_name(ident)} (slot "
                        f"{self.slot(clue.target, reading.focus)}): nothing else connects it, "
                        f"so {who} blind-plays {', then '.join(blind)} first"
                    )
            if (
                reading is not None
                and reading.kind == "play"
                and reading.focus in self.notes.ident
                and reading.play >> self.notes.ident[reading.focus] & 1
            ):
                return self.play_clue_meaning(head, clue.target, reading.focus)
        return super().clue_meaning(clue)

    def play_clue_meaning(self, head: str, target: int, focus: int) -> str:
        """A play clue and the cards that connect to it, found before the clue is read (in
        the clue's own notes a finessed card is already "known")."""
        notes = self.notes
        ident = notes.ident[focus]
        links = notes.connect(ident, self.me, target, focus=focus) or []
        first = []
        for seat, cid, need, how in links:
            holder = f"{self.name(seat)}'s"
            what = identity_name(need)
            if how == "finesse":
                first.append(f"a finesse on {holder} slot {self.slot(seat, cid)} ({what})")
            elif how == "prompt":
                first.append(f"a prompt on {holder} slot {self.slot(seat, cid)} ({what})")
            else:
                first.append(f"{holder} {what} first")
        after = f", after {'; '.join(first)}" if first else ""
        card = f"{self.name(target)}'s {identity_name(ident)} (slot {self.slot(target, focus)})"
        return f"{head}: a play clue on {card}{after}"

    # -- reasons --------------------------------------------------------------------------

    def play_reason(self, cid: int) -> str:
        notes: Notes2 = self.notes
        note = notes.notes[cid]
        if cid in notes.self_finessed and not note.clued and self.fuses > 1:
            head = f"Play slot {self.slot(self.me, cid)}"
            proven = self.proven(cid)
            if not (proven and all(notes.playable(i) for i in _bits(proven))):
                giver = self.name(note.by) if note.by >= 0 else "a player"
                live = self.live(cid)
                known = f" (it can only be {_names(live)})" if live else ""
                return (
                    f"{head}: a self-finesse by {giver}'s clue on turn "
                    f"{self.move_number(note.turn)}: no other card connects the clued card, "
                    f"so this is a blind play{known}"
                )
        return super().play_reason(cid)


def decide(view: dict) -> Decision:
    return Turn2(view).decide()


def choose(view: dict) -> Action:
    return Turn2(view).decide().action
