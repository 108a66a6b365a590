"""The H-Group reading of a game, rebuilt from one seat's view (README.md in this folder).

``Notes(view)`` replays the view's history and keeps, for every card in a hand, what the
H-Group conventions of level 1 say of it: the identities its clues allow (``mask``), those the
conventions leave (``inferred``), whether a clue or a finesse has "gotten" it, and the
interpretations that wait on another player's play (a finesse or a prompt through someone
else's hand). Like the house bot, it keeps no memory between turns: the same view always
gives the same notes.

The viewer never sees its own cards. Every identity it uses is one its view shows: the cards
in other hands, and the cards played or discarded (history). A card of its own is described
only by its notes and by the view's ``possible_counted``.

Identities are ints, ``suit * 5 + rank - 1``; sets of identities are int bitmasks, as in the
engine. What a clue touches is the engine's rule (``clue_touch_mask``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from games.engine import GameOptions, clue_touch_mask, dealt_hands
from games.engine.cards import MAX_RANK, SUIT_INDEX, copies_per_identity, identity
from games.engine.knowledge import identities_of as bits


def suit_of(ident: int) -> int:
    return ident // MAX_RANK


def rank_of(ident: int) -> int:
    return ident % MAX_RANK + 1


def card_ident(card: dict) -> int:
    return identity(SUIT_INDEX[card["suit"]], card["rank"])


@dataclass
class Note:
    """What the table can say of one card in a hand (the H-Group "card notes")."""

    mask: int
    inferred: int
    clued: bool = False
    finessed: bool = False  # to be blind-played: a finesse on it was read
    chop_moved: bool = False  # level 4: a chop move put an "invisible" clue on it
    focus: str | None = None  # "play" or "save" if it was a clue's focus
    turn: int = -1  # when a clue or a finesse first got it
    by: int = -1  # who gave that clue
    # What a convention reading of a giver's clue said the card is (its focus, or a card it
    # finessed), to check once the card is shown: (giver, identities).
    claim: tuple[int, int] | None = None
    claimed: int = -1  # the turn of the clue whose reading asked it to play (a prompt, say)
    # Interpretations of a focus that wait on other players: identity -> {seat: card id}
    # that must play first (a finesse or a prompt outside the holder's hand).
    waiting: dict[int, dict[int, int]] = field(default_factory=dict)

    @property
    def gotten(self) -> bool:
        return self.clued or self.finessed

    def clone(self) -> Note:
        twin = copy.copy(self)
        twin.waiting = {ident: dict(deps) for ident, deps in self.waiting.items()}
        return twin


@dataclass
class Reading:
    """How one clue was read (for the clue finder, and for tests)."""

    focus: int
    kind: str  # "play", "save", "tempo", "info", or "literal" (a giver read for facts alone)
    play: int  # identities the focus may be as a play (direct, delayed, prompt, finesse)
    save: int  # identities it may be as a save
    # Cards of the viewer that the reading makes the viewer play: card id -> identity,
    # with "known", "finesse" or "prompt".
    on_viewer: dict[int, tuple[int, str]] = field(default_factory=dict)


class Notes:
    # Level 2: a chop clue that its receiver may read as a save, on a card the viewer sees
    # is no save, is a play clue, and its blind plays are read (a reverse finesse on chop).
    SEEN_CHOP_PLAYS = False

    def __init__(self, view: dict, literal: frozenset[int] | None = None) -> None:
        """``literal``: the givers whose clues are read for their facts alone. By default,
        those whose clue, read by the conventions, made someone play a card that was not
        what the reading said (found by replaying until no new one turns up). A player who
        leaves a card unplayed that the viewer thought it sure of is not one of them: the
        viewer's guess of what it knows may be wrong (3-player self-play lost trust so in
        35 games of 100, and scored 0.26 less)."""
        if literal is None:
            literal = frozenset()
            # Each round adds a player, so at most one round per player and a last one.
            for _ in range(view["players"] + 1):
                notes = type(self)(view, literal)  # (a level's notes replay as that level)
                if notes.misread <= literal:
                    break
                literal = literal | notes.misread
            self.__dict__.update(notes.__dict__)
            return
        self.literal = literal
        self.misread: set[int] = set()
        # Givers a convention reading of whose clue has been proven by a card played as it
        # said (level2.Turn2 trusts only these once a fuse is gone).
        self.confirmed: set[int] = set()
        self.view = view
        self.options = GameOptions.from_dict(view["options"])
        self.players = view["players"]
        self.me: int = view["viewer"]
        self.num_suits = self.options.num_suits
        self.copies = copies_per_identity(self.options.multicolour)
        self.all_mask = 0
        for ident in range(self.num_suits * MAX_RANK):
            self.all_mask |= 1 << ident
        self.hands: list[list[int]] = dealt_hands(self.options)
        self.stacks = [0] * self.num_suits
        self.lost = [0] * len(self.copies)
        self._trash: int | None = None
        self.notes: dict[int, Note] = {
            cid: Note(self.all_mask, self.all_mask) for hand in self.hands for cid in hand
        }
        # Every identity the view shows: other hands now, and each card played or discarded.
        self.ident: dict[int, int] = {}
        for hand in view["hands"]:
            for card in hand["cards"]:
                if "suit" in card:
                    self.ident[card["id"]] = card_ident(card)
        for entry in view["history"]:
            if entry["type"] in ("play", "discard"):
                self.ident[entry["card"]["id"]] = card_ident(entry["card"])
        self.discarded_any = False  # the Early Game lasts until the first discard
        # Each card placed on a firework: (identity, holder, turn a clue or finesse first got
        # it or None, who gave that clue), to tell whether a clued card of the viewer's that
        # might have been that card may be a copy of it (``may_be_copy``).
        self.placed: list[tuple[int, int, int | None, int]] = []
        # A player given a play clue on a card playable now, which the conventions make them
        # sure of: they play on their next turn, or they do not read the conventions.
        self.turn = 0
        self.readings: list[Reading | None] = []
        for self.turn, entry in enumerate(view["history"]):
            if entry["type"] == "clue":
                self.readings.append(self._clue(entry))
            elif entry["type"] == "rearrange":
                # A free move of a card within its holder's hand (an option): the hand's
                # order follows it; it says nothing by the conventions.
                hand = self.hands[entry["seat"]]
                hand.insert(entry["to_slot"] - 1, hand.pop(entry["from_slot"] - 1))
                self.readings.append(None)
            else:
                self._play_or_discard(entry)
                self.readings.append(None)

    # -- the board ---------------------------------------------------------------------------

    def playable(self, ident: int) -> bool:
        return self.stacks[suit_of(ident)] == rank_of(ident) - 1

    def dead(self, ident: int) -> bool:
        """Trash by the board: played already, or a lower card of its suit is all lost."""
        suit, rank = suit_of(ident), rank_of(ident)
        if rank <= self.stacks[suit]:
            return True
        return any(
            self.lost[identity(suit, r)] >= self.copies[identity(suit, r)]
            for r in range(self.stacks[suit] + 1, rank)
        )

    def trash_mask(self) -> int:
        # Worked out again only after a play or a discard changes the board.
        if self._trash is None:
            self._trash = sum(1 << i for i in range(self.num_suits * MAX_RANK) if self.dead(i))
        return self._trash

    def critical(self, ident: int) -> bool:
        return not self.dead(ident) and self.copies[ident] - self.lost[ident] == 1

    def chop(self, seat: int) -> int | None:
        """The oldest card no clue and no finesse has gotten."""
        for cid in reversed(self.hands[seat]):
            if not self.notes[cid].gotten:
                return cid
        return None

    def finesse_position(self, seat: int, skip: set[int]) -> int | None:
        """The newest card not gotten (nor ``skip``): where a blind play comes from."""
        for cid in self.hands[seat]:
            if not self.notes[cid].gotten and cid not in skip:
                return cid
        return None

    def known_as(self, cid: int) -> int | None:
        """The identity the card's holder knows it to be (its notes leave one live identity)."""
        live = self.notes[cid].inferred & ~self.trash_mask()
        if live and live & (live - 1) == 0:
            return live.bit_length() - 1
        return None

    def waited_on(self) -> int:
        """Identities of the cards the viewer sees that a reading not yet settled waits on
        (a blind play or a prompt one way of reading a clue needs): maybe gotten already."""
        mask = 0
        for hand in self.hands:
            for cid in hand:
                for deps in self.notes[cid].waiting.values():
                    for other in deps.values():
                        if other in self.ident:
                            mask |= 1 << self.ident[other]
        return mask

    def gotten_visible(self, exclude: tuple[int, ...]) -> int:
        """Identities of gotten cards the viewer sees, outside the seats ``exclude``."""
        mask = 0
        for seat, hand in enumerate(self.hands):
            if seat in exclude:
                continue
            for cid in hand:
                if self.notes[cid].gotten and cid in self.ident:
                    mask |= 1 << self.ident[cid]
        return mask

    def dupes_for(self, cid: int) -> int:
        """Identities the viewer's clued card ``cid`` is not, by good touch: those of gotten
        cards in other hands that were gotten first, outside the hand of ``cid``'s giver (who
        saw them), or later by a clue from someone else (who saw ``cid``)."""
        turn, giver = self.notes[cid].turn, self.notes[cid].by
        mask = 0
        for seat, hand in enumerate(self.hands):
            if seat == self.me:
                continue
            for other in hand:
                note = self.notes[other]
                if not note.gotten or other not in self.ident:
                    continue
                if (note.turn < turn and seat != giver) or (
                    note.turn > turn and note.by != self.me
                ):
                    mask |= 1 << self.ident[other]
        return mask

    def may_be_copy(self, cid: int, ident: int) -> bool:
        """Whether the viewer's gotten card ``cid`` may be a copy of a placed ``ident``. Good
        touch rules it out when the giver of ``cid``'s clue saw the other copy gotten (it was
        gotten first, outside the giver's hand), or when the other copy's clue came later
        from someone other than the viewer (who saw ``cid`` gotten)."""
        note = self.notes[cid]
        for placed, holder, turn, by in self.placed:
            if placed != ident:
                continue
            if turn is None:
                return True  # played unclued (a blind play): nobody vouched for it
            if turn == note.turn:
                continue  # touched by the same clue: its giver saw both
            if turn < note.turn and holder != note.by:
                continue
            if turn > note.turn and by != self.me:
                continue
            return True
        return False

    def visible_in_hands(self, ident: int, exclude: tuple[int, ...]) -> bool:
        return any(
            self.ident.get(cid) == ident
            for seat, hand in enumerate(self.hands)
            if seat not in exclude
            for cid in hand
        )

    # -- replay ------------------------------------------------------------------------------

    def _play_or_discard(self, entry: dict) -> None:
        seat = entry["seat"]
        cid = entry["card"]["id"]
        ident = card_ident(entry["card"])
        note = self.notes.pop(cid)
        misplayed = entry["type"] == "play" and not entry["placed"]
        if misplayed and note.claim is not None and not note.claim[1] >> ident & 1:
            # A card played on a convention reading of someone's clue, and it was not what
            # the reading said: that giver does not play by these conventions.
            self.misread.add(note.claim[0])
        placed = entry["type"] == "play" and entry["placed"]
        if placed and note.claim is not None and note.claim[1] >> ident & 1:
            self.confirmed.add(note.claim[0])
        blind = entry["type"] == "play" and entry["placed"] and not note.clued
        self._resolve_waits(seat, cid, blind)
        self._trash = None
        if entry["type"] == "play" and entry["placed"]:
            self.stacks[suit_of(ident)] += 1
            self.placed.append((ident, seat, note.turn if note.gotten else None, note.by))
        else:
            self.lost[ident] += 1
            if entry["type"] == "discard":
                self.discarded_any = True
        del note
        self.hands[seat].remove(cid)
        drawn = entry.get("drawn")
        if drawn is not None:
            self.hands[seat].insert(0, drawn)
            self.notes[drawn] = Note(self.all_mask, self.all_mask)

    def _resolve_waits(self, seat: int, played: int | None, blind: bool = False) -> None:
        """``seat`` acts (``played``: the card it played or discarded, None for a clue): an
        interpretation that waited on it to play a card now playable, and it did not, is
        dropped (H-Group: a finessed or prompted player plays at once)."""
        for note in self.notes.values():
            for ident, deps in list(note.waiting.items()):
                if seat not in deps:
                    continue
                needed = deps[seat]
                if needed == played:
                    del deps[seat]
                    if not deps:
                        del note.waiting[ident]
                        if blind:
                            # A blind play where the reading expected one: the finesse is
                            # demonstrated, and the card is the one it leads to.
                            note.inferred = 1 << ident
                            note.waiting = {}
                            break
                    continue
                needed_ident = self.ident.get(needed)
                still_held = any(needed in hand for hand in self.hands)
                if still_held and (needed_ident is None or not self.playable(needed_ident)):
                    continue  # it could not play it yet: the interpretation still waits
                if note.inferred & ~(1 << ident):
                    note.inferred &= ~(1 << ident)
                del note.waiting[ident]

    def _clue(self, entry: dict) -> Reading | None:
        giver, target = entry["seat"], entry["target"]
        self._resolve_waits(giver, None)
        touched = set(entry["touched"])
        touch = clue_touch_mask(self.options, entry["colour"], entry["rank"])
        hand = self.hands[target]
        chop = self.chop(target)
        new = [cid for cid in hand if cid in touched and not self.notes[cid].gotten]
        for cid in hand:
            note = self.notes[cid]
            if cid in touched:
                note.mask &= touch
                if not note.gotten:
                    note.turn, note.by = self.turn, giver
                note.clued = True
            else:
                note.mask &= ~touch
            note.inferred &= note.mask
            if not note.inferred:
                note.inferred = note.mask
        if not touched:
            return None
        if giver in self.literal:
            # A giver who does not play by the conventions: the clue says what it shows.
            return Reading(next(cid for cid in hand if cid in touched), "literal", 0, 0)
        fresh = self._fresh(new)
        if not fresh:
            focus = next(cid for cid in hand if cid in touched)
        elif len(fresh) == 1:
            focus = fresh[0]
        elif chop in fresh:
            focus = chop
        else:
            focus = fresh[0]
        trash = self.trash_mask()
        # Good touch: a newly touched card is no trash, and no copy of a card gotten in
        # another hand (of those the target sees, as far as the viewer sees them).
        dupes = self.gotten_visible((target, giver))  # the giver cannot see its own cards
        for cid in new:
            note = self.notes[cid]
            good = note.mask & ~trash & ~dupes
            note.inferred = good or note.mask & ~trash or note.mask
        return self._read_focus(
            giver, target, focus, focus == chop and focus in new, entry, not new
        )

    def _fresh(self, new: list[int]) -> list[int]:
        """The newly touched cards the focus is chosen from (level 4 leaves out chop-moved
        cards, which count as clued for a new clue's focus)."""
        return new

    def _read_focus(
        self, giver: int, target: int, focus: int, on_chop: bool, entry: dict, retouch: bool
    ) -> Reading:
        note = self.notes[focus]
        candidates = note.inferred
        reading = Reading(focus, "info", 0, 0)
        play = 0
        direct = 0  # playable now, or through cards already known
        waits: dict[int, dict[int, int]] = {}
        for ident in bits(candidates):
            links = self.connect(ident, giver, target, focus=focus)
            if links is None:
                continue
            play |= 1 << ident
            if all(how == "known" for *_, how in links):
                direct |= 1 << ident
            outside = {
                seat: cid for seat, cid, _, how in links if seat != target and how != "known"
            }
            if outside:
                waits[ident] = outside
        save = 0
        if on_chop:
            colour = entry["colour"] is not None
            for ident in bits(candidates):
                rank = rank_of(ident)
                if colour and rank == 5:
                    continue  # a 5 is saved with a 5 clue: a colour clue on it is a play clue
                if (
                    self.critical(ident)
                    or (entry["rank"] == 5 and rank == 5)
                    or (
                        entry["rank"] == 2
                        and rank == 2
                        # The visible rule: no 2 save on a 2 whose other copy the giver sees.
                        and not self.visible_in_hands(ident, (giver, target))
                    )
                ):
                    save |= 1 << ident
        if save or retouch:
            # A clue that may be a save, or that touches no new card (a tempo clue), is a play
            # clue only on a card playable now or through cards already known: no finesse or
            # prompt is read into it (the safe reading).
            play &= direct
        reading.play, reading.save = play, save
        if play | save:
            note.inferred = play | save
            note.focus = "save" if save and not play & ~save else "play"
            if on_chop and save and play:
                note.focus = "save"
            reading.kind = "tempo" if retouch else note.focus
            note.claim = (giver, note.inferred)
            # A save reading stands whatever other players do: only play readings wait.
            note.waiting = {i: d for i, d in waits.items() if (note.inferred & ~save) >> i & 1}
            known = note.inferred & ~self.trash_mask()
            if known and known & (known - 1) == 0:
                # Good touch within the clue: the other new cards are not the focus's card.
                for cid in self.hands[target]:
                    if cid != focus and self.notes[cid].clued and self.notes[cid].turn == self.turn:
                        self.notes[cid].inferred &= ~known
        # The viewer sees the focus: where must its connecting cards come from?
        true = self.ident.get(focus)
        links = None
        if (
            true is not None
            and candidates >> true & 1
            and target != self.me
            and not save >> true & 1
            and not (save and on_chop and not self.SEEN_CHOP_PLAYS)
            and not retouch
        ):
            links = self.connect(true, giver, target, viewer_holds=True, focus=focus)
        if links is not None and not play >> true & 1:
            # Only the viewer's own hand connects it: the target, who sees that hand, reads
            # a play clue on the card the viewer sees.
            play |= 1 << true
            note.inferred = play | save
            note.claim = (giver, note.inferred)
            note.focus = "play" if not (on_chop and save) else "save"
            reading.kind = "tempo" if retouch else note.focus
        if links is not None:
            for seat, cid, ident, how in links:
                if seat == self.me:
                    reading.on_viewer[cid] = (ident, how)
                    mine = self.notes[cid]
                    if not mine.gotten:
                        mine.turn, mine.by = self.turn, giver
                    mine.inferred = 1 << ident
                    mine.claim = (giver, 1 << ident)
                    mine.claimed = self.turn
                    if how == "finesse":
                        mine.finessed = True
                elif how == "finesse":
                    other = self.notes[cid]
                    if not other.gotten:
                        other.turn, other.by = self.turn, giver
                    other.finessed = True
                    other.inferred = 1 << ident
                    other.claim = (giver, 1 << ident)
        reading.play = play
        return reading

    def connect(
        self,
        ident: int,
        giver: int,
        target: int,
        viewer_holds: bool = False,
        focus: int | None = None,
    ) -> list[tuple[int, int, int, str]] | None:
        """The cards that lead up to ``ident`` being played (level 1: known cards, prompts,
        one finesse per player), as (seat, card id, identity, "known"/"prompt"/"finesse"), or
        None if the card cannot be a play clue. ``viewer_holds``: the viewer knows the focus
        is ``ident``, so a connecting card found nowhere else must be in the viewer's hand."""
        suit, rank = suit_of(ident), rank_of(ident)
        height = self.stacks[suit]
        if rank <= height:
            return None
        links: list[tuple[int, int, int, str]] = []
        used: set[int] = set() if focus is None else {focus}
        for r in range(height + 1, rank):
            need = identity(suit, r)
            link = self._find(need, giver, target, used, viewer_holds)
            if link is None:
                return None
            if link[3] == "finesse" and any(how == "finesse" for *_, how in links):
                return None  # two blind plays: a double finesse is level 2
            links.append(link)
            used.add(link[1])
        return links

    def _find(
        self, need: int, giver: int, target: int, used: set[int], viewer_holds: bool
    ) -> tuple[int, int, int, str] | None:
        # Seats from the target's left; the viewer's own hand last: the viewer sees every
        # other hand, and looks to its own only for what no other hand can give.
        order = [(target + k) % self.players for k in range(1, self.players + 1)]
        order = [s for s in order if s != self.me] + [self.me]
        # A card gotten and known (or seen) to be ``need``: a delayed play.
        for seat in order:
            for cid in self.hands[seat]:
                if cid in used or not self.notes[cid].gotten:
                    continue
                # The target cannot see its own cards: there, only what it knows counts.
                seen = self.ident.get(cid) if seat not in (self.me, target) else None
                if seen == need or (seen is None and self.known_as(cid) == need):
                    return seat, cid, need, "known"
        # Then a prompt (the holder's leftmost gotten card that may be ``need``), then a
        # finesse (the finesse position of a player other than the giver and the target):
        # in the other hands first. The viewer's own hand comes last, so that a finesse it
        # sees elsewhere is waited for rather than read as a prompt on a card it cannot see
        # (if its card is the one, the finessed player, who sees it, will not blind-play).
        others = [s for s in order if s != self.me]
        for seat in others:
            link = self._prompt(seat, need, used)
            if link is not None:
                return link
        for seat in others:
            if seat not in (giver, target):
                cid = self.finesse_position(seat, used)
                if cid is not None and self.ident.get(cid) == need:
                    return seat, cid, need, "finesse"
        if self.me == target or viewer_holds:
            link = self._prompt(self.me, need, used)
            if link is not None:
                return link
        if viewer_holds and self.me not in (giver, target):
            cid = self.finesse_position(self.me, used)
            if cid is not None:
                return self.me, cid, need, "finesse"
        return None

    def _prompt(self, seat: int, need: int, used: set[int]) -> tuple[int, int, int, str] | None:
        """The prompt on ``seat``: its leftmost gotten card that may be ``need``."""
        for cid in self.hands[seat]:
            note = self.notes[cid]
            if cid in used or not note.gotten or not note.inferred >> need & 1:
                continue
            if note.turn == self.turn:
                continue  # touched by this very clue: not a card it can prompt
            if self.known_as(cid) is not None:
                continue
            seen = self.ident.get(cid) if seat != self.me else None
            if seen is None or seen == need:
                return seat, cid, need, "prompt"
            return None  # the leftmost such card is not it: no prompt in this hand
        return None

    # -- for the policy ----------------------------------------------------------------------

    def copy(self) -> Notes:
        twin = copy.copy(self)
        twin.hands = [list(h) for h in self.hands]
        twin.notes = {cid: n.clone() for cid, n in self.notes.items()}
        twin.stacks = list(self.stacks)
        twin.lost = list(self.lost)
        twin.confirmed = set(self.confirmed)
        return twin

    def apply_clue(self, target: int, option: dict) -> Reading | None:
        """Read a clue the viewer might give (the notes change: use on a copy)."""
        # The clue would be the next entry of the history: the cards it touches are new on
        # that turn, not on the last one (a card clued last turn is not "this clue's").
        self.turn = len(self.readings)
        entry = {
            "seat": self.me,
            "target": target,
            "touched": option["touches"],
            "colour": option.get("colour"),
            "rank": option.get("rank"),
        }
        return self._clue(entry)
