"""The H-Group reading at level 2 ("Basic Moves", docs/level-2.mdx), on top of level 1's notes.

What level 2 reads that level 1 does not:

- **Double (triple...) finesses**: a play clue may need several blind plays, from several
  players or twice from one (their finesse positions, left to right). A clued player waits
  until every blind play it is owed has come, or has been left out.
- **Prompt + finesse** and **double prompts**: the prompts come first, then the finesse
  position of the same player (level 1 already took several prompts).
- **Reverse finesses**: a clued player whose card may connect through a later player's finesse
  position waits a round for that blind play (level 1 read them; level 2 keeps every blind
  play a reading waits on, in order).
- **Self-finesses**: when no other reading explains a play clue (no direct play, no prompt, no
  finesse on someone else), the receiver's own finesse position is the connecting card. It is
  read only when nothing else can be meant, never on a clue that may be a save or that touches
  no new card: the safe reading.
- **The 5 Stall**: a 5 clue on a 5 off chop, in the Early Game (or by a player who could not
  discard, at 8 clue tokens), saves it and asks nobody to play: no play is read into it.

Like level 1, nothing is kept between turns: the view's history is replayed every time.
"""

from __future__ import annotations

from .notes import Note, Notes, Reading, bits, identity, rank_of, suit_of

MAX_TOKENS = 8


# The readings of a clue that ask nobody for a blind play: a blind play that missed was
# not made on them, so their givers keep the table's trust.
NO_BLIND_PLAY = ("save", "stall", "chop move", "fix")


class _WrongPrompt(Exception):
    """A connection through a clued card its holder would take for a prompt, which it is not."""


class Notes2(Notes):
    level = 2
    SEEN_CHOP_PLAYS = True
    # Whether a clue may prompt its giver's own clued card (which the giver cannot see).
    GIVER_PROMPTS = True
    # Level 3: a play clue's prompts on the receiver's own clued cards are noted by the
    # receiver (``_mark_self_prompts``); level 2 keeps its figures as they were measured.
    SELF_PROMPTS = False
    # Level 5: any misplay of a clued card makes its giver doubted (not only its holder, or
    # the giver of a clue that meant two things): a finesse of the viewer's own may rest on
    # a reading of that clue.
    DOUBT_GIVER_TOO = False

    def __init__(self, view: dict, literal: frozenset[int] | None = None) -> None:
        # Set before the replay (the base class replays in its constructor).
        self.tokens_now = view["clue_tokens"]
        self.self_pass = False  # a self-finesse may be read (no other reading is left)
        self.last_self = False  # the last clue read was read as a self-finesse
        # The blind plays (and prompts) each reading of a focus waits on, in order:
        # focus card -> identity -> [(seat, card id), ...] still to come.
        self.deps: dict[int, dict[int, list[tuple[int, int]]]] = {}
        # The viewer's own cards a self-finesse made it blind-play: focus card -> identity ->
        # [(card id, identity it must be), ...].
        self.chains: dict[int, dict[int, list[tuple[int, int]]]] = {}
        self.stalled: set[int] = set()  # cards clued 5 as a 5 Stall
        self.self_finessed: set[int] = set()  # cards gotten by a self-finesse
        # The viewer's cards a clue to someone else prompts or finesses (that player waits
        # on their play).
        self.committed: set[int] = set()
        # The players who misplayed a card a clue had touched: a clue of theirs is not
        # played on a convention reading alone once a fuse is gone (level2.Turn2).
        self.misplayed_clued: set[int] = set()
        self._played_in: dict[tuple[int, int], set[int]] = {}
        self._giving = False  # a clue of the viewer's own is being read (apply_clue)
        # The viewer's clued cards whose readings wait on others: (giver, target, readings).
        self.origin: dict[int, tuple[int, int, int]] = {}
        self._reread: list[int] = []
        self.origin_hand: dict[int, frozenset[int]] = {}  # the hand when that clue was given
        self._drawn_since: frozenset[int] = frozenset()
        # The clues given since each seat last acted: (giver, target), to tell whose clue a
        # blind play answered.
        self._since: dict[int, list[tuple[int, int, int]]] = {}
        super().__init__(view, literal)

    # -- reading a clue -------------------------------------------------------------------

    def _read_focus(
        self, giver: int, target: int, focus: int, on_chop: bool, entry: dict, retouch: bool
    ) -> Reading:
        self.last_self = False
        if self._five_stall(focus, on_chop, entry, retouch):
            note = self.notes[focus]
            note.focus = "save"
            note.claim = (giver, note.inferred)
            self.stalled.add(focus)
            return Reading(focus, "stall", 0, note.inferred)
        candidates = self.notes[focus].inferred
        self.self_pass = False
        if (
            not retouch
            and not (on_chop and self._may_be_save(candidates, giver, target, entry))
            and not any(
                self.connect(i, giver, target, focus=focus) is not None for i in bits(candidates)
            )
        ):
            # Nothing but the receiver's own hand can connect it: a self-finesse.
            self.self_pass = True
        try:
            reading = super()._read_focus(giver, target, focus, on_chop, entry, retouch)
            self.committed.update(reading.on_viewer)
            if self.self_pass and reading.play:
                self.last_self = True
                self._mark_self_finesse(giver, target, focus, reading)
            if self.SELF_PROMPTS and target == self.me and reading.kind == "play":
                self._mark_self_prompts(giver, focus, reading)
            self._record_deps(giver, target, focus)
            if target == self.me and reading.kind == "play" and focus in self.deps:
                self.origin[focus] = (giver, target, candidates)
                self.origin_hand[focus] = frozenset(self.hands[target])
        finally:
            self.self_pass = False
        return reading

    def _may_be_save(self, candidates: int, giver: int, target: int, entry: dict) -> bool:
        """Whether a chop clue may be a save of one of ``candidates`` (level 1's saves)."""
        for ident in bits(candidates):
            rank = rank_of(ident)
            if entry.get("colour") is not None and rank == 5:
                continue
            if self.critical(ident) or (entry.get("rank") == 5 and rank == 5):
                return True
            if (
                entry.get("rank") == 2
                and rank == 2
                and not self.visible_in_hands(ident, (giver, target))
            ):
                return True
        return False

    def _five_stall(self, focus: int, on_chop: bool, entry: dict, retouch: bool) -> bool:
        if entry.get("rank") != 5 or on_chop or retouch:
            return False
        before = entry.get("clue_tokens")
        before = self.tokens_now if before is None else before + 1
        return not self.discarded_any or before >= MAX_TOKENS

    def _mark_self_finesse(self, giver: int, target: int, focus: int, reading: Reading) -> None:
        """The receiver's finesse position(s) are the connecting cards: of the readings, the
        simplest (fewest blind plays of its own) are kept."""
        if target != self.me:
            for cid in self.hands[target]:
                if self.notes[cid].finessed and self.notes[cid].turn == self.turn:
                    self.self_finessed.add(cid)
        chains: dict[int, list[tuple[int, int]]] = {}
        for ident in bits(reading.play):
            links = self.connect(ident, giver, target, focus=focus) or []
            chains[ident] = [
                (cid, need) for seat, cid, need, how in links if seat == target and how == "finesse"
            ]
        fewest = min((len(c) for c in chains.values()), default=0)
        chains = {i: c for i, c in chains.items() if len(c) == fewest}
        kept = sum(1 << i for i in chains)
        note = self.notes[focus]
        if kept and note.inferred & kept:
            note.inferred &= kept | ~reading.play
            reading.play &= kept
        if target != self.me:
            return
        needs: dict[int, int] = {}
        chains = {i: c for i, c in chains.items() if c}
        for chain in chains.values():
            for cid, need in chain:
                needs[cid] = needs.get(cid, 0) | 1 << need
        for cid, mask in needs.items():
            mine = self.notes[cid]
            if not mine.gotten:
                mine.turn, mine.by = self.turn, giver
            mine.finessed = True
            mine.inferred = mask
            mine.claim = (giver, mask)
            self.self_finessed.add(cid)
        if chains:
            self.chains[focus] = chains

    def _mark_self_prompts(self, giver: int, focus: int, reading: Reading) -> None:
        """The viewer's clued cards a play clue of its own prompts: a card every reading
        prompts is one of the cards they need, and once a prompted card is shown, the
        readings that needed another card there go (as a self-finesse's do). Without this,
        a 2 clued behind the viewer's own unknown 1s stayed any 2 after its 1 was shown, and
        a later clue counting on that 2 waited forever."""
        prompts: dict[int, list[tuple[int, int]]] = {}
        for ident in bits(reading.play & self.notes[focus].inferred):
            links = self.connect(ident, giver, self.me, focus=focus) or []
            prompts[ident] = [
                (cid, need) for seat, cid, need, how in links if seat == self.me and how == "prompt"
            ]
        if not any(prompts.values()):
            return
        chains = self.chains.setdefault(focus, {})
        for ident, chain in prompts.items():
            chains.setdefault(ident, []).extend(chain)
        everywhere = set.intersection(*({cid for cid, _ in c} for c in prompts.values()))
        for cid in everywhere:
            needs = sum({1 << need for c in prompts.values() for card, need in c if card == cid})
            if self.notes[cid].inferred & needs:
                self.notes[cid].inferred &= needs

    def _record_deps(self, giver: int, target: int, focus: int) -> None:
        note = self.notes[focus]
        if not note.waiting:
            self.deps.pop(focus, None)
            return
        deps: dict[int, list[tuple[int, int]]] = {}
        for ident in list(note.waiting):
            links = self.connect(ident, giver, target, focus=focus) or []
            deps[ident] = [
                (seat, cid) for seat, cid, _, how in links if seat != target and how != "known"
            ]
            if not deps[ident]:
                del note.waiting[ident]
                del deps[ident]
        self.deps[focus] = deps

    def connect(
        self,
        ident: int,
        giver: int,
        target: int,
        viewer_holds: bool = False,
        focus: int | None = None,
    ) -> list[tuple[int, int, int, str]] | None:
        """As level 1, with any number of blind plays (double and triple finesses)."""
        suit, rank = suit_of(ident), rank_of(ident)
        height = self.stacks[suit]
        if rank <= height:
            return None
        links: list[tuple[int, int, int, str]] = []
        used: set[int] = set() if focus is None else {focus}
        for r in range(height + 1, rank):
            try:
                link = self._find(identity(suit, r), giver, target, used, viewer_holds)
            except _WrongPrompt:
                return None
            if link is None:
                return None
            links.append(link)
            used.add(link[1])
        return links

    def _find(
        self, need: int, giver: int, target: int, used: set[int], viewer_holds: bool
    ) -> tuple[int, int, int, str] | None:
        order = [(target + k) % self.players for k in range(1, self.players + 1)]
        order = [s for s in order if s != self.me] + [self.me]
        for seat in order:  # a card gotten and known (or seen) to be it: a delayed play
            for cid in self.hands[seat]:
                if cid in used or not self.notes[cid].gotten:
                    continue
                # The target cannot see its own cards, nor can the giver: there, only what
                # its holder knows counts (a giver does not lean on a card it cannot see).
                seen = self.ident.get(cid) if seat not in (self.me, target, giver) else None
                if seen == need and self._giving and not self._holder_knows(cid, need):
                    continue  # its holder would take the clue for a prompt (below)
                if seen == need or (seen is None and self.known_as(cid) == need):
                    return seat, cid, need, "known"
                if self._promised(cid, need):
                    return seat, cid, need, "known"
        others = [s for s in order if s != self.me]
        for seat in others:  # prompts before finesses
            if seat == giver and not self.GIVER_PROMPTS:
                continue
            link = self._prompt(seat, need, used)
            if link is not None:
                return link
        for seat in others:
            if seat not in (giver, target):
                cid = self.finesse_position(seat, used)
                if cid is not None and self.ident.get(cid) == need:
                    if self._giving and self._target_holds_it(target, need, used):
                        raise _WrongPrompt
                    return seat, cid, need, "finesse"
        link = self._layered(need, giver, target, used, others)
        if link is not None:
            return link
        if self.me == target or viewer_holds:
            link = self._prompt(self.me, need, used)
            if link is not None:
                return link
        if target != giver and (self.self_pass or viewer_holds):
            cid = self.finesse_position(target, used)
            if cid is not None:
                if self.self_pass and (target == self.me or not viewer_holds):
                    # The receiver cannot see the card: any card that connects.
                    return target, cid, need, "finesse"
                if viewer_holds and self.ident.get(cid) == need:
                    if self.self_pass:
                        return target, cid, need, "finesse"
                    # The viewer sees the card on the receiver's finesse position: the
                    # receiver may read a self-finesse (it sees the viewer's cards, which the
                    # viewer does not). The safe reading: no blind play of its own.
                    return None
        if viewer_holds and self.me not in (giver, target):
            cid = self.finesse_position(self.me, used)
            if cid is not None:
                return self.me, cid, need, "finesse"
        return None

    def _target_holds_it(self, target: int, need: int, used: set[int]) -> bool:
        """Whether the receiver's own finesse position holds ``need``: the finessed player,
        who sees it there and not its own card, may take the clue for a self-finesse on the
        receiver and not blind-play, and the receiver then reads no finesse at all."""
        cid = self.finesse_position(target, used)
        return cid is not None and self.ident.get(cid) == need

    def _holder_knows(self, cid: int, need: int) -> bool:
        """Whether a clued card the viewer sees to be ``need`` is one its holder will play
        as ``need`` unprompted. If not, a clue that counts on it is a prompt to its holder,
        who plays the leftmost clued card that may be ``need``: maybe another."""
        return not self.notes[cid].clued or self.known_as(cid) == need

    def _prompt(self, seat: int, need: int, used: set[int]) -> tuple[int, int, int, str] | None:
        """As level 1; but in a clue the viewer considers giving, where the holder's
        leftmost clued card that may be ``need`` is seen not to be it, the holder would
        still play it (prompts come before finesses): a wrong prompt, so the clue has no
        reading through that hand (level 1 looked on for a finesse there)."""
        for cid in self.hands[seat]:
            note = self.notes[cid]
            if cid in used or not note.gotten or not note.inferred >> need & 1:
                continue
            if note.turn == self.turn or self.known_as(cid) is not None:
                continue
            seen = self.ident.get(cid) if seat != self.me else None
            if seen is None or seen == need:
                return seat, cid, need, "prompt"
            if note.clued and not note.finessed and self._giving:
                raise _WrongPrompt
            return None
        return None

    # -- waiting on blind plays -----------------------------------------------------------

    def _resolve_waits(self, seat: int, played: int | None, blind: bool = False) -> None:
        """``seat`` acts. A reading waiting on that seat's next card in its chain keeps
        waiting while that card cannot be played yet, moves on when it is played, and is
        dropped when the seat does something else although it could play it (H-Group: a
        finessed or prompted player plays at once). A blind play a reading waited on proves
        that reading's finesse: readings that waited on no such card are dropped."""
        for focus, deps in list(self.deps.items()):
            note = self.notes.get(focus)
            if note is None:
                del self.deps[focus]
                continue
            demonstrated = dropped = layered = hit = False
            for ident, chain in list(deps.items()):
                pending = [(s, c) for s, c in chain if s == seat]
                if not pending:
                    continue
                _, needed = pending[0]
                if needed == played:
                    chain.remove(pending[0])
                    demonstrated = demonstrated or blind
                    hit = True
                    if not chain:
                        del deps[ident]
                        note.waiting.pop(ident, None)
                    continue
                needed_ident = self.ident.get(needed)
                still_held = any(needed in hand for hand in self.hands)
                if still_held and (needed_ident is None or not self.playable(needed_ident)):
                    continue
                if still_held and self._still_coming(seat, played, needed):
                    layered = True
                    continue
                passed = self._passed_on(focus, ident, seat, needed) if still_held else None
                if passed is not None:
                    chain[chain.index(pending[0])] = passed
                    continue
                del deps[ident]
                note.waiting.pop(ident, None)
                dropped = True
                if note.inferred & ~(1 << ident):
                    note.inferred &= ~(1 << ident)
            if demonstrated:
                demonstrated = self._demonstrated(deps, seat)
            if layered and not hit:
                self._narrow_to_layers(note, deps, seat)
            if dropped and not deps and focus in self.origin:
                # (Mid-play the played card is out of the notes but still in the hand: after.)
                self._reread.append(focus)
            if demonstrated and played is not None:
                keep = 0
                for ident in bits(note.inferred):
                    if self._chain_had(focus, ident, played):
                        keep |= 1 << ident
                if keep:
                    note.inferred = keep
            if not deps:
                del self.deps[focus]
        if played is None:
            self._reread_now()
        # Level 1's waits on notes without a recorded chain (none should be left).
        for cid, note in self.notes.items():
            if note.waiting and cid not in self.deps:
                note.waiting = {}

    def _promised(self, cid: int, need: int) -> bool:
        """Whether a blind play its holder will make delivers ``need`` though the card is
        another (level 5: the first layer of a layered finesse)."""
        return False

    def _layered(
        self, need: int, giver: int, target: int, used: set[int], others: list[int]
    ) -> tuple[int, int, int, str] | None:
        """A finesse on ``need`` behind other cards that play first (level 5)."""
        return None

    def _still_coming(self, seat: int, played: int | None, needed: int) -> bool:
        """Whether ``seat``, which did not play the card a reading waits on, may still be on
        its way to it (level 5: a layered or a hidden finesse)."""
        return False

    def _passed_on(self, focus: int, ident: int, seat: int, needed: int) -> tuple | None:
        """Where the blind play a reading waited on from ``seat`` comes from, now that
        ``seat`` did not make it (level 5: an ambiguous finesse), or None."""
        return None

    def _narrow_to_layers(self, note: Note, deps: dict, seat: int) -> None:
        """``seat`` blind-played a card on its way to one a reading waits on (level 5)."""

    def _demonstrated(self, deps: dict, seat: int) -> bool:
        """Whether a blind play by ``seat`` that a reading waited on proves that reading
        and drops the others (level 5 keeps those still waiting on a deeper card of that
        seat's: a clandestine finesse)."""
        return True

    def finesse_position(self, seat: int, skip: set[int]) -> int | None:
        return super().finesse_position(seat, skip | self._drawn_since)

    def _reread_now(self) -> None:
        pending, self._reread = self._reread, []
        for focus in pending:
            if focus in self.notes and focus in self.origin:
                self._reread_self(focus)

    def _reread_self(self, focus: int) -> None:
        """Every reading of the viewer's clued card that waited on someone else's blind play
        has been dropped (they acted without it): if nothing else can make the card playable
        now, the clue was a self-finesse after all (docs: "Bob discards. Cathy knows she must
        be the one who has the connecting card")."""
        giver, target, candidates = self.origin.pop(focus)
        note = self.notes[focus]
        live = note.inferred & ~self.trash_mask()
        if any(self.playable(i) for i in bits(live)):
            return  # a direct play is left: the safe reading plays nothing blind
        candidates &= ~self.trash_mask()
        self.self_pass = True
        # The finesse position is the one of the clue's time: cards drawn since are not it.
        then = self.origin_hand.pop(focus, frozenset(self.hands[target]))
        self._drawn_since = frozenset(c for c in self.hands[target] if c not in then)
        try:
            chains = {}
            for ident in bits(candidates):
                links = self.connect(ident, giver, target, focus=focus)
                if links is None or any(
                    s not in (target,) and h != "known" for s, _, _, h in links
                ):
                    continue
                # Its own cards already finessed count as blind plays of the chain: read as
                # prompts, they would leave the reading that needs them out.
                chain = [
                    (c, n)
                    for s, c, n, h in links
                    if s == target and (h == "finesse" or self._blind(c))
                ]
                if chain:
                    chains[ident] = chain
        finally:
            self.self_pass = False
            self._drawn_since = frozenset()
        if not chains:
            return
        fewest = min(len(c) for c in chains.values())
        chains = {i: c for i, c in chains.items() if len(c) == fewest}
        note.inferred = sum(1 << i for i in chains)
        note.claim = (giver, note.inferred)
        needs: dict[int, int] = {}
        for chain in chains.values():
            for cid, need in chain:
                needs[cid] = needs.get(cid, 0) | 1 << need
        for cid, mask in needs.items():
            mine = self.notes[cid]
            mine.finessed = True
            mine.inferred = mask
            mine.claim = (giver, mask)
            if mine.turn < 0:
                mine.turn, mine.by = note.turn, giver
            self.self_finessed.add(cid)
        self.chains[focus] = chains

    def _blind(self, cid: int) -> bool:
        note = self.notes[cid]
        return note.finessed and not note.clued

    def _chain_had(self, focus: int, ident: int, played: int) -> bool:
        return ident in self._played_in.get((focus, played), set())

    def _clue(self, entry: dict) -> Reading | None:
        for seat, clues in self._since.items():
            if seat != entry["seat"]:
                clues.append((entry["seat"], entry["target"], self.turn))
        self._since[entry["seat"]] = []
        return super()._clue(entry)

    def _play_or_discard(self, entry: dict) -> None:
        cid = entry["card"]["id"]
        ident = self._ident_of(entry)
        seat = entry["seat"]
        gone = self.notes.get(cid)
        if (
            entry["type"] == "play"
            and not entry["placed"]
            and gone is not None
            and not gone.clued
            and not self._giving
        ):
            # A blind play that missed: its player read a finesse (or a prompt) into a clue
            # given since its last turn that its giver did not mean; a giver who meant one
            # would have seen the card. Each giver of such a clue (but the one who played) is
            # read for facts alone from now on: beside a player of other conventions (the
            # house bot), a second reading of theirs could cost the last fuses.
            for giver, _target, turn in self._since.get(seat, []):
                reading = self.readings[turn] if turn < len(self.readings) else None
                if reading is not None and reading.kind not in NO_BLIND_PLAY and giver != seat:
                    self.misread.add(giver)
        if (
            entry["type"] == "play"
            and not entry["placed"]
            and gone is not None
            and gone.clued
            and seat != self.me
        ):
            self.misplayed_clued.add(seat)
            if any(gone.inferred >> i & 1 for i in gone.waiting) or not any(
                self.playable(i) for i in bits(gone.inferred)
            ):
                # A clued card played while the conventions said it was not playable yet (a
                # delayed play clue, a reading that waited on another player's play): that
                # player does not read these conventions (the house bot plays a clued card
                # its own way), so their clues do not follow them either.
                self.misread.add(seat)
                doubted = True
            else:
                doubted = False
            allowed = gone.inferred >> ident & 1
            if (
                (self.DOUBT_GIVER_TOO or (allowed and not doubted))
                and gone.by >= 0
                and gone.by != self.me
            ):
                # The reading allowed the card it was, not playable yet, and its holder took
                # it for another: the clue meant two things. Its giver is read for facts
                # alone by this viewer, so that no blind play of its own rests on the
                # reading the holder did not take (a finesse on the viewer's hand).
                self.misread.add(gone.by)
        self._since[seat] = []
        # Which readings waited on this card (for _resolve_waits' proof of a finesse).
        self._played_in = {
            (focus, cid): {i for i, chain in deps.items() if any(c == cid for _, c in chain)}
            for focus, deps in self.deps.items()
        }
        # A self-finessed card of the viewer's, shown: the readings it did not fit go.
        for focus, chains in list(self.chains.items()):
            note = self.notes.get(focus)
            for target_ident, chain in list(chains.items()):
                for link_cid, need in chain:
                    if link_cid == cid and need != ident:
                        del chains[target_ident]
                        if note is not None and note.inferred & ~(1 << target_ident):
                            note.inferred &= ~(1 << target_ident)
                        break
            if not chains or note is None:
                del self.chains[focus]
        super()._play_or_discard(entry)
        self._played_in = {}
        self._reread_now()

    @staticmethod
    def _ident_of(entry: dict) -> int:
        from .notes import card_ident

        return card_ident(entry["card"])

    # -- for the policy -------------------------------------------------------------------

    def apply_clue(self, target: int, option: dict) -> Reading | None:
        self._giving = True
        return super().apply_clue(target, option)

    def copy(self) -> Notes2:
        twin = super().copy()
        twin.deps = {f: {i: list(c) for i, c in d.items()} for f, d in self.deps.items()}
        twin.chains = {f: {i: list(c) for i, c in d.items()} for f, d in self.chains.items()}
        twin.stalled = set(self.stalled)
        twin.self_finessed = set(self.self_finessed)
        twin.committed = set(self.committed)
        twin.misplayed_clued = set(self.misplayed_clued)
        twin.origin = dict(self.origin)
        twin.origin_hand = dict(self.origin_hand)
        twin._since = {seat: list(clues) for seat, clues in self._since.items()}
        return twin


__all__ = ["Note", "Notes2"]
