"""The H-Group bot's turn at level 1 (README.md in this folder): save, play, clue, discard.

``choose(view)`` reads the table with ``Notes`` and picks, in this order: a save of the next
player's chop when they have nothing else to do; a card it knows to be playable (a finessed
card first: a finessed player blind-plays at once); the clue worth most (a play clue, a
finesse through another hand, a save), every clue first read as the table would read it, and
dropped if it breaks good touch or could make anyone misplay; in the Early Game any such clue
rather than a discard; then a discard: a card it knows is trash, else its chop (a locked
hand, or a chop a clue has just exposed, clues first when it can).

Safety: on the last fuse it plays only what the clues and the cards in view prove, never a
card taken for a play by a convention alone (a finesse, a prompt, a play clue's focus). A
clue whose focus may be two things (a play or a save) is kept, not played, until one reading
is left."""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.engine import Action, Clue, Discard, Play
from games.engine.cards import SUIT_LETTERS, identity_name

from .notes import Notes, Reading, rank_of
from .safe import SafeReading, play_or_save

CODE = {
    f"{letter}{rank}": s * 5 + rank - 1
    for s, letter in enumerate(SUIT_LETTERS)
    for rank in range(1, 6)
}

# A clue is worth its token mid-game when it gets at least this much (a card played is 1).
PLAY_CLUE_VALUE = 1.0
# With this many tokens or more, a smaller clue (a save of a player further on) is worth it.
MANY_TOKENS = 5
LAST_FUSE = 1
# The value of a clue that would make its target play a card that is not playable.
MISPLAY = -2.0
# What a clue loses when it leaves the target to discard a card that must be saved.
EXPOSED_CHOP_COST = 0.8
# A chop just exposed by a clue, this likely to be a last copy, is not discarded at once.
UNSEEN_CHOP_CHANCE = 0.3


@dataclass(frozen=True)
class Decision:
    """The bot's move and why, in words ("Play slot 2: it was clued red as a play clue on
    turn 5"), from the same view and the same code path as the move alone."""

    action: Action
    reason: str
    # Where it took the safe reading of a card of its own, for the game's history (safe.py).
    safe: SafeReading | None = None


class Turn:
    NOTES = Notes  # the reading of the table (a higher level reads more)
    CLUE_WORTH = PLAY_CLUE_VALUE  # (a higher level may rate its clues otherwise)

    def __init__(self, view: dict) -> None:
        if not view.get("your_turn") or view.get("legal") is None:
            raise ValueError("it is not this seat's turn")
        self.view = view
        self.notes = self.NOTES(view)
        self.me = view["viewer"]
        self.players = view["players"]
        self.legal = view["legal"]
        self.tokens = view["clue_tokens"]
        self.fuses = view["fuses_left"]
        own = next(hand for hand in view["hands"] if hand["is_viewer"])["cards"]
        self.counted = {
            card["id"]: sum(1 << CODE[code] for code, n in card["possible_counted"].items() if n)
            for card in own
        }
        self.own = [card["id"] for card in own]

    # -- what the viewer knows of its own cards ------------------------------------------------

    def live(self, cid: int, within: bool = True) -> int:
        """The identities its notes and the counting leave, trash and good touch removed."""
        notes = self.notes
        note = notes.notes[cid]
        trash = notes.trash_mask()
        base = self.counted[cid] & ~trash
        if not note.gotten:
            return base & note.mask
        dupes = notes.dupes_for(cid) if note.clued else 0
        live = base & note.inferred & ~dupes
        if within and note.clued and note.focus is None:
            # Good touch within one clue: not the card its focus is known to be.
            for other in self.own:
                peer = notes.notes[other]
                if other != cid and peer.turn == note.turn and peer.focus is not None:
                    known = self.live(other, within=False)
                    if known and known & (known - 1) == 0:
                        live &= ~known
        return live

    def proven(self, cid: int) -> int:
        """What the clues and the counting prove, no convention added."""
        return self.counted[cid] & self.notes.notes[cid].mask

    def known_playable(self, cid: int) -> bool:
        notes = self.notes
        proven = self.proven(cid)
        if proven and all(notes.playable(i) for i in _bits(proven)):
            return True
        if self.fuses <= LAST_FUSE:
            return False  # the safe reading: nothing beyond what is proven
        note = notes.notes[cid]
        if not note.gotten:
            return False
        if note.waiting and any(note.inferred >> i & 1 for i in note.waiting):
            return False  # an interpretation still waits on another player's play
        for ident in _bits(note.inferred & self.counted[cid] & notes.trash_mask()):
            if notes.may_be_copy(cid, ident):
                return False  # it may be a copy of a card played since it was clued
        live = self.live(cid)
        return bool(live) and all(notes.playable(i) for i in _bits(live))

    def known_trash(self, cid: int) -> bool:
        notes = self.notes
        if not self.proven(cid) & ~notes.trash_mask():
            return True
        if not notes.notes[cid].clued or self.live(cid):
            return False
        # Trash by the conventions (good touch): unless the clues leave a last copy possible.
        return not any(notes.critical(i) for i in _bits(self.proven(cid)))

    # -- the turn ----------------------------------------------------------------------------

    def choose(self) -> Action:
        return self.decide().action

    def decide(self) -> Decision:
        clues = self.legal["clues"]
        evaluated = self.evaluate_clues() if clues else []
        save = self.urgent_save(evaluated)
        if save is not None:
            nxt = self.name((self.me + 1) % self.players)
            why = f"{nxt} has nothing else to do but discard that chop"
            return self.clue_decision(save, why)
        play = self.best_play()
        if play is not None:
            return Decision(play, self.play_reason(play.card_id))
        best = max(evaluated, key=lambda e: e[0], default=None)
        if best is not None and best[0] > 0:
            value = best[0]
            early = not self.notes.discarded_any
            if value >= self.CLUE_WORTH:
                return self.clue_decision(best[1], "")
            if early:
                return self.clue_decision(
                    best[1], "in the Early Game a clue comes before any discard"
                )
            if self.tokens >= MANY_TOKENS:
                return self.clue_decision(best[1], f"{self.tokens} clue tokens to spare")
            if not self.legal["discard"]:
                return self.clue_decision(best[1], "no discard allowed at 8 clue tokens")
            if self.chop_is_precious():
                return self.clue_decision(best[1], "its own chop may be a 5 or a last copy")
        locked = self.notes.chop(self.me) is None
        if locked and clues and not any(self.known_trash(c) for c in self.own):
            # A locked hand discards a clued card, maybe a last copy: any clue that makes
            # nobody misplay is better (one that misleads nobody first).
            harmless = [e for e in evaluated if e[0] > MISPLAY]
            if harmless:
                chosen = max(harmless, key=lambda e: (e[0], -e[2]))[1]
                why = "its hand is locked (every card clued): a clue rather than discard one"
                return self.clue_decision(chosen, why)
        if clues and self.tokens >= 2 and self.chop_unseen_danger():
            # A clue has just moved its chop onto a card nobody has yet had a turn to save,
            # likely enough a last copy: a clue gives the others that turn.
            safe = [e for e in evaluated if e[0] >= 0]
            if safe:
                chosen = max(safe, key=lambda e: (e[0], -e[2]))[1]
                why = "a clue has just moved its chop onto a card that may be a last copy"
                return self.clue_decision(chosen, why)
        if self.legal["discard"]:
            card = self.discard_choice()
            return Decision(Discard(card), self.discard_reason(card))
        if clues:
            chosen = self.stall(evaluated)
            return self.clue_decision(chosen, "a stall: no discard allowed at 8 clue tokens")
        action = self.last_resort()
        return Decision(action, "no clue token and no discard allowed: a last try")

    def best_play(self) -> Action | None:
        notes = self.notes
        playable = [cid for cid in self.own if self.known_playable(cid)]
        if not playable:
            if self.view["deck_size"] == 0 and self.fuses > LAST_FUSE + 1:
                return self.final_round_try()
            return None

        def key(cid: int) -> tuple:
            note = notes.notes[cid]
            live = self.live(cid) or self.proven(cid)
            low = min(rank_of(i) for i in _bits(live))
            return (not note.finessed, low)

        return Play(min(playable, key=key))

    def final_round_try(self, least: float = 0.5) -> Action | None:
        """Deck empty, fuses to spare: the card likeliest to play, if likely enough."""
        best, chance = None, 0.0
        own = next(hand for hand in self.view["hands"] if hand["is_viewer"])["cards"]
        for card in own:
            counts = card["possible_counted"]
            total = sum(counts.values())
            if not total:
                continue
            good = sum(n for code, n in counts.items() if self.notes.playable(CODE[code]))
            if good / total > chance:
                best, chance = card["id"], good / total
        return Play(best) if best is not None and chance > 0 and chance >= least else None

    def chop_is_precious(self) -> bool:
        """Its own chop may be a card that must not be lost (a 5 or the last copy)."""
        chop = self.notes.chop(self.me)
        if chop is None:
            return False
        live = self.counted[chop] & ~self.notes.trash_mask()
        if not live:
            return False
        critical = sum(1 for i in _bits(live) if self.notes.critical(i))
        return critical * 3 >= len(list(_bits(live))) * 2

    def chop_unseen_danger(self) -> bool:
        """Since its last turn a clue touched its chop, and the new chop is at least
        ``UNSEEN_CHOP_CHANCE`` likely (by what it can count) to be a last copy."""
        history = self.view["history"]
        start = max(0, len(history) - self.players + 1)
        moved = any(
            e["type"] == "clue" and e["target"] == self.me and self._old_chop(e) in e["touched"]
            for e in history[start:]
        )
        if not moved:
            return False
        chop = self.notes.chop(self.me)
        if chop is None:
            return False
        own = next(hand for hand in self.view["hands"] if hand["is_viewer"])["cards"]
        counts = next(card for card in own if card["id"] == chop)["possible_counted"]
        total = sum(counts.values())
        critical = sum(n for code, n in counts.items() if self.notes.critical(CODE[code]))
        return bool(total) and critical / total >= UNSEEN_CHOP_CHANCE

    def _old_chop(self, entry: dict) -> int | None:
        """The viewer's chop just before ``entry`` (a clue to it), by the clues before."""
        touched_before = set()
        history = self.view["history"]
        before = next(i for i, e in enumerate(history) if e is entry)  # (rearrangements too)
        for e in history[:before]:
            if e["type"] == "clue" and e["target"] == self.me:
                touched_before.update(e["touched"])
        hand = self.notes.hands[self.me]
        for cid in reversed(hand):
            if cid not in touched_before and not self.notes.notes[cid].finessed:
                return cid
        return None

    def discard_choice(self) -> int:
        for cid in reversed(self.own):
            if self.known_trash(cid):
                return cid
        chop = self.notes.chop(self.me)
        if chop is not None:
            return chop
        # Every card gotten (a locked hand): the one least likely to be a last copy, and of
        # those the one furthest from being played.
        notes = self.notes

        def cost(cid: int) -> tuple:
            possible = list(_bits(self.live(cid) or self.proven(cid)))
            critical = sum(notes.critical(i) for i in possible) / max(len(possible), 1)
            return (critical, -min((rank_of(i) for i in possible), default=9))

        return min(self.own, key=cost)

    def stall(self, evaluated: list) -> Action:
        """8 tokens (no discard) or a locked hand with nothing better: the safest clue, one
        that misleads nobody if there is one, else one that at least makes nobody misplay
        (MISREAD), else the one touching fewest cards."""
        return max(evaluated, key=lambda e: (e[0], -e[2]))[1]

    def last_resort(self) -> Action:
        if self.legal["discard"]:
            return Discard(self.discard_choice())
        play = self.final_round_try()
        return play if play is not None else Play(self.own[0])

    # -- the reasons, in words (from the view alone, like the move) -------------------------

    def name(self, seat: int) -> str:
        names = self.view.get("names") or []
        return names[seat] if seat < len(names) and names[seat] else f"seat {seat + 1}"

    def slot(self, seat: int, cid: int) -> int:
        return self.notes.hands[seat].index(cid) + 1

    def clue_words(self, turn: int) -> str:
        """What the clue at ``turn`` of the history named: "red" or "2"."""
        entry = self.view["history"][turn]
        return str(entry.get("colour") or entry.get("rank"))

    def move_number(self, turn: int) -> int:
        """The move number, as the replay counts it, of the history's entry ``turn`` (the
        free rearrangements of hands, an option, are entries but not moves)."""
        return self.view["history"][turn]["turn"] + 1

    def play_reason(self, cid: int) -> str:
        notes = self.notes
        note = notes.notes[cid]
        head = f"Play slot {self.slot(self.me, cid)}"
        proven = self.proven(cid)
        if proven and all(notes.playable(i) for i in _bits(proven)):
            return f"{head}: the clues prove it plays now ({_names(proven)})"
        if self.view["deck_size"] == 0 and not self.known_playable(cid):
            return f"{head}: the deck is empty and it is at least 50% likely to play"
        live = self.live(cid)
        known = f" (it can only be {_names(live)})" if live else ""
        if note.finessed and not note.clued:
            giver = self.name(note.by) if note.by >= 0 else "a player"
            on = f"on turn {self.move_number(note.turn)}"
            return f"{head}: finessed by {giver}'s clue {on}, a blind play{known}"
        if note.clued and note.turn >= 0:
            given = f"it was clued {self.clue_words(note.turn)}"
            on = f"on turn {self.move_number(note.turn)}"
            if note.focus == "play":
                return f"{head}: {given} as a play clue {on}{known}"
            if note.focus == "save":
                return f"{head}: {given} as a save {on}, now playable{known}"
            return f"{head}: {given} {on}; all it can be plays now{known}"
        return f"{head}: all it can be plays now{known}"

    def discard_reason(self, cid: int) -> str:
        head = f"Discard slot {self.slot(self.me, cid)}"
        if self.known_trash(cid):
            return f"{head}: known trash (the clues and the board leave nothing it is needed for)"
        if cid == self.notes.chop(self.me):
            slot = self.slot(self.me, cid)
            return f"Discard chop (slot {slot}): nothing to play, and no clue worth a token"
        return (
            f"{head}: its hand is locked (every card clued), and this card is the least "
            "likely to be a last copy"
        )

    def clue_decision(self, clue: Clue, why: str) -> Decision:
        """The clue, what the table reads in it, and ``why`` a clue now (if more than its
        meaning)."""
        meaning = self.clue_meaning(clue)
        reason = f"{meaning}; {why}" if why else meaning
        return Decision(clue, reason)

    def clue_meaning(self, clue: Clue) -> str:
        notes = self.notes
        target = clue.target
        who = self.name(target)
        value = clue.colour or str(clue.rank)
        option = next(
            o
            for o in self.legal["clues"]
            if o["target"] == target
            and o.get("colour") == clue.colour
            and o.get("rank") == clue.rank
        )
        slots = ", ".join(str(self.slot(target, c)) for c in option["touches"])
        head = f"Clue {who} {value} (slot{'s' if len(option['touches']) > 1 else ''} {slots})"
        twin = notes.copy()
        reading = twin.apply_clue(target, option)
        if all(notes.notes[c].gotten for c in option["touches"]):
            shown = self.shown_playable(twin, option["touches"])
            if shown:
                card = f"{who}'s {identity_name(notes.ident[shown[0]])}"
                slot = self.slot(target, shown[0])
                return f"{head}: it touches no new card, but shows {card} (slot {slot}) plays now"
            return f"{head}: it touches no new card (a stall, it tells nobody to play)"
        if reading is None or reading.focus not in notes.ident:
            return f"{head}: new facts about {who}'s cards"
        focus = reading.focus
        ident = notes.ident[focus]
        card = f"{who}'s {identity_name(ident)} (slot {self.slot(target, focus)})"
        chop = notes.chop(target)
        if reading.kind == "literal":
            return f"{head}: {who} reads clues for their facts alone; it tells of {card}"
        if reading.kind == "save" and reading.save >> ident & 1 and not reading.play >> ident & 1:
            where = " on chop" if focus == chop else ""
            if rank_of(ident) == 5:
                return f"Save {who}'s 5 ({identity_name(ident)}){where}: {head}"
            if notes.critical(ident):
                return f"Save {who}'s {identity_name(ident)}{where}, the last copy: {head}"
            if rank_of(ident) == 2:
                return f"Save {who}'s {identity_name(ident)}{where} (a 2 save): {head}"
            return f"Save {who}'s {identity_name(ident)}{where}: {head}"
        if reading.kind in ("play", "save") and reading.play >> ident & 1:
            links = twin.connect(ident, self.me, target, focus=focus) or []
            first = []
            for seat, cid, need, how in links:
                holder = "its own" if seat == self.me else f"{self.name(seat)}'s"
                what = identity_name(need)
                if how == "finesse":
                    first.append(f"a finesse on {holder} slot {self.slot(seat, cid)} ({what})")
                elif how == "prompt":
                    first.append(f"a prompt on {holder} slot {self.slot(seat, cid)} ({what})")
                else:
                    first.append(f"{holder} clued {what} first")
            after = f", after {'; '.join(first)}" if first else ""
            return f"{head}: a play clue on {card}{after}"
        return f"{head}: new facts about {card}, neither a play nor a save"

    # -- saves -------------------------------------------------------------------------------

    def has_safe_action(self, seat: int, notes: Notes | None = None) -> bool:
        """The seat has something to do besides discarding its chop (as the viewer sees)."""
        notes = notes or self.notes
        for cid in notes.hands[seat]:
            note = notes.notes[cid]
            if not note.gotten:
                continue
            ident = notes.ident.get(cid)
            live = note.inferred & ~notes.trash_mask()
            if (
                ident is not None
                and notes.playable(ident)
                and live
                and all(notes.playable(i) for i in _bits(live))
                and not note.waiting
            ):
                return True
            if note.finessed and ident is not None and notes.playable(ident):
                return True
            if note.clued and not live:
                return True  # known trash to discard
        return notes.chop(seat) is None

    def needs_save(self, seat: int, notes: Notes | None = None) -> bool:
        notes = notes or self.notes
        chop = notes.chop(seat)
        if chop is None:
            return False
        ident = notes.ident[chop]
        if notes.dead(ident):
            return False
        if notes.critical(ident):
            return True
        if rank_of(ident) == 2:
            # a 2 save, unless the other copy is visible elsewhere (or already gotten)
            others = notes.visible_in_hands(ident, (seat, self.me)) or any(
                notes.ident.get(c) == ident for c in notes.hands[seat] if c != chop
            )
            return not others
        if notes.playable(ident):
            # never let a unique playable card go: the only copy in sight
            gotten = notes.gotten_visible((self.me,))
            return not gotten >> ident & 1
        return False

    def urgent_save(self, evaluated: list) -> Action | None:
        if not self.legal["clues"]:
            return None
        if self.tokens >= 8 and not self.notes.discarded_any:
            return None  # the Early Game: the next player has clues to give before a discard
        nxt = (self.me + 1) % self.players
        if not self.needs_save(nxt) or self.has_safe_action(nxt):
            return None
        chop = self.notes.chop(nxt)
        saving = [e for e in evaluated if e[3] == nxt and e[4] == chop and e[0] > 0]
        if not saving:
            return None
        return max(saving, key=lambda e: (e[0], -e[2]))[1]

    # -- clues -------------------------------------------------------------------------------

    def evaluate_clues(self) -> list[tuple[float, Clue, int, int, int | None]]:
        """(value, clue, cards touched, target, focus) of every clue the table would read as
        meant; value -1 for a clue that breaks good touch or risks a misplay."""
        notes = self.notes
        result = []
        gotten_before = {cid for cid, n in notes.notes.items() if n.gotten}
        for option in self.legal["clues"]:
            target = option["target"]
            twin = notes.copy()
            reading = twin.apply_clue(target, option)
            value = self.value(twin, reading, target, option, gotten_before)
            result.append(
                (
                    value,
                    _as_clue(option),
                    len(option["touches"]),
                    target,
                    reading.focus if reading else None,
                )
            )
        return result

    def value(
        self, twin: Notes, reading: Reading | None, target: int, option: dict, before: set[int]
    ) -> float:
        notes = self.notes
        if reading is None:
            return -1.0
        if reading.on_viewer:
            # It leans on the giver's own cards, which the giver cannot see (others judge a
            # connection by the cards themselves): not a clue to give.
            return -1.0
        touched = option["touches"]
        new = [c for c in touched if c not in before]
        before_chop = notes.chop(target)
        trash = notes.trash_mask()
        # No misplay: no touched card may look playable to its holder unless it is. First,
        # so that a stall at 8 clue tokens never picks a clue that makes a card misplay over
        # one that only breaks good touch (both were -1 before).
        after_trash = twin.trash_mask()
        for cid in twin.hands[target]:
            if cid not in touched:
                continue
            live = twin.notes[cid].inferred & ~after_trash
            ident = notes.ident[cid]
            if live and all(twin.playable(i) for i in _bits(live)) and not notes.playable(ident):
                return MISPLAY
        # Good touch: no trash, no copy of a card gotten anywhere, no two copies at once.
        taken = notes.gotten_visible((self.me,))
        for cid in self.own:
            known = notes.known_as(cid)
            if notes.notes[cid].gotten and known is not None:
                taken |= 1 << known
        # A card a reading not yet settled waits on (Bob's own clued card may need it as
        # a blind play) may be gotten already: another copy is not clued meanwhile.
        taken |= notes.waited_on()
        seen = 0
        for cid in new:
            ident = notes.ident[cid]
            if trash >> ident & 1 or taken >> ident & 1 or seen >> ident & 1:
                return -1.0
            seen |= 1 << ident
        if not new:
            return self.retouch_value(twin, target, touched)
        if reading.kind == "literal":
            return self.literal_value(twin, target, new, before_chop)
        focus = reading.focus
        ident = notes.ident[focus]
        value = 0.0
        if reading.kind == "play" and reading.play >> ident & 1:
            links = twin.connect(ident, self.me, target, focus=focus)
            if links is None:
                return -1.0
            live = twin.notes[focus].inferred & ~after_trash
            exact = live == 1 << ident or all(twin.playable(i) for i in _bits(live))
            value = 1.0 if exact else 0.6
            for _seat, _cid, _need, how in links:
                if how == "finesse":
                    value += 1.0
                elif how == "prompt":
                    value += 0.5
        elif reading.kind == "save" and reading.save >> ident & 1:
            if notes.critical(ident):
                value = 1.2 if self.in_danger(target) else 0.6
            elif rank_of(ident) == 2:
                value = 0.8 if self.in_danger(target) else 0.4
            else:
                value = 0.3
            if reading.play >> ident & 1:
                value = max(value, 1.0)
        elif reading.kind in ("play", "save"):
            return -1.0  # the focus would be read as something it is not
        else:
            # New cards with a focus that is neither a play nor a save: every other player
            # would look for a meaning (a finesse on someone, say) that is not there.
            return -1.0
        # The other new cards: useful, and sometimes playable.
        for cid in new:
            if cid == focus:
                continue
            if reading.kind == "save":
                value -= 0.05  # a save touches as few cards as it can
            else:
                value += 0.3 if notes.playable(notes.ident[cid]) else 0.1
        if (
            before_chop in touched
            and self.needs_save(target, twin)
            and not self.has_safe_action(target, twin)
        ):
            # The clue moves the chop onto a card that must be saved, and the target has
            # nothing to do but discard it: it would be lost before anyone could save it.
            value -= EXPOSED_CHOP_COST
        distance = (target - self.me) % self.players
        return value - 0.01 * distance

    def retouch_value(self, twin: Notes, target: int, touched: list[int]) -> float:
        """A clue on cards already clued: worth a card played for each it shows to be
        playable (``shown_playable``), else a stall, worth nothing."""
        shown = self.shown_playable(twin, touched)
        return len(shown) - 0.01 * ((target - self.me) % self.players)

    def shown_playable(self, twin: Notes, touched: list[int]) -> list[int]:
        """The clued cards a clue (read in ``twin``) shows to be playable now, where their
        holder could not tell before: a fix by its facts alone (a red card that may be red 2
        or red 4, clued 2)."""
        notes = self.notes
        trash, after_trash = notes.trash_mask(), twin.trash_mask()
        shown = []
        for cid in touched:
            if not notes.playable(notes.ident[cid]):
                continue
            before = notes.notes[cid].inferred & ~trash
            after = twin.notes[cid].inferred & ~after_trash
            if before and all(notes.playable(i) for i in _bits(before)):
                continue  # it knew
            if after and all(twin.playable(i) for i in _bits(after)):
                shown.append(cid)
        return shown

    def literal_value(self, twin: Notes, target: int, new: list[int], chop: int | None) -> float:
        """A clue the table reads for its facts alone (the viewer is read so): a card it
        proves playable counts 1, the chop it keeps from the discard pile its save value."""
        notes = self.notes
        trash = twin.trash_mask()
        value = 0.0
        for cid in new:
            ident = notes.ident[cid]
            facts = twin.notes[cid].mask & ~trash
            if facts and all(twin.playable(i) for i in _bits(facts)):
                value += 1.0
            elif cid == chop and self.needs_save(target):
                value += 1.0 if notes.critical(ident) else 0.6
            else:
                value += 0.05
        return value - 0.01 * ((target - self.me) % self.players)

    def in_danger(self, seat: int) -> bool:
        return not self.has_safe_action(seat) and self.notes.chop(seat) is not None


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _names(mask: int) -> str:
    return " or ".join(identity_name(i) for i in _bits(mask))


def _as_clue(option: dict) -> Clue:
    return Clue(option["target"], colour=option.get("colour"), rank=option.get("rank"))


def choose(view: dict) -> Action:
    return Turn(view).choose()


def decide(view: dict) -> Decision:
    turn = Turn(view)
    decision = turn.decide()
    return replace(decision, safe=play_or_save(turn, decision.action))
