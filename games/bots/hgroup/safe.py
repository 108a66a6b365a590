"""Where the H-Group bot took the safe reading of a card of its own (issue 30), as a fact the
game's history can show beside its move: ``SafeReading`` on ``Decision.safe``.

It holds only what every player may know: the bot's own slot, the clue that could be read
two ways (its giver's seat and its move number), and what the safe reading made of it (the
bot waits, or reads the card as a save). Never an identity, never another player's card. The
seats whose blind play or prompted play the reading waits on are kept apart (``via``): the
site does not show the sentence to them while the game is played, since to them it would say
that a card of their own connects (games/safe_words.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Action, Play

WAITS = "waits"  # it does not play the card yet: a reading of it waits on another's play
SAVE = "save"  # it reads the card as a save, not as a play clue (a 5 Stall, a chop clue)
KINDS = (WAITS, SAVE)


@dataclass(frozen=True)
class SafeReading:
    slot: int  # the bot's own slot, 1 the newest
    turn: int  # the clue's move number, as the history counts them (1 the first move)
    giver: int  # the seat that gave the clue
    kind: str  # WAITS or SAVE
    via: tuple[int, ...] = ()  # seats the waiting reading waits on (not shown to them)

    def as_dict(self) -> dict:
        """For Move.safe_reading (JSON)."""
        return {
            "slot": self.slot,
            "turn": self.turn,
            "giver": self.giver,
            "kind": self.kind,
            "via": list(self.via),
        }


def clue_of(turn, cid: int) -> tuple[int, int] | None:
    """(move number, giver seat) of the latest clue whose focus was ``cid``, else of the clue
    that first got it (``turn``: a level's ``Turn``)."""
    notes = turn.notes
    history = turn.view["history"]
    readings = getattr(notes, "readings", [])
    for index in range(min(len(readings), len(history)) - 1, -1, -1):
        reading = readings[index]
        if reading is not None and reading.focus == cid and history[index]["type"] == "clue":
            return history[index]["turn"] + 1, history[index]["seat"]
    note = notes.notes[cid]
    if 0 <= note.turn < len(history) and note.by >= 0:
        return history[note.turn]["turn"] + 1, note.by
    return None


def at(turn, cid: int, kind: str, via=()) -> SafeReading | None:
    """The safe reading of ``cid`` (a card of the viewer's) for ``turn``, if its clue is
    known."""
    clue = clue_of(turn, cid)
    if clue is None:
        return None
    return SafeReading(turn.slot(turn.me, cid), clue[0], clue[1], kind, tuple(sorted(set(via))))


def waited_on(notes, cid: int) -> set[int]:
    """The seats a reading of ``cid`` waits on (a blind play, a prompted play)."""
    seats = {seat for deps in notes.notes[cid].waiting.values() for seat in deps}
    chains = getattr(notes, "deps", {}).get(cid, {})
    return seats | {seat for chain in chains.values() for seat, _ in chain}


def play_or_save(turn, action: Action) -> SafeReading | None:
    """Level 1's rule: a chop clue whose focus may be a play or a save is kept, not played,
    until one reading is left. The first card of its own (not the one it plays) where both
    readings are still live and it does not take the card for playable, on the bot's first
    move after that clue."""
    notes = turn.notes
    played = action.card_id if isinstance(action, Play) else None
    readings = getattr(notes, "readings", [])
    for cid in turn.own:
        note = notes.notes[cid]
        if cid == played or not note.clued or note.focus != "save":
            continue
        index = next(
            (
                i
                for i in range(len(readings) - 1, -1, -1)
                if readings[i] is not None and readings[i].focus == cid
            ),
            None,
        )
        if index is None:
            continue
        reading = readings[index]
        if reading.kind != "save" or len(turn.view["history"]) - index > turn.players:
            continue  # (said on its first move after the clue, not on every move after)
        live = turn.live(cid)
        as_play = live & reading.play
        only_save = live & reading.save & ~reading.play
        if as_play and only_save and not turn.known_playable(cid):
            return at(turn, cid, SAVE)
    return None
