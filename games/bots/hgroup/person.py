"""A scripted "H-Group person": a partner that plays a level's H-Group conventions the way
the H-Group bot does, with a person's occasional mistakes (issue 30's benchmark partner).

``Person(level=1, seed=0)`` is called like any bot, ``person(view) -> Action``, with the
engine's per-seat view (``view_for``) only; ``person.decide(view)`` returns a
``PersonDecision``: the action, its reason in words, the convention move it would have made
without a mistake, and the mistakes it made (if any).

The convention move is the H-Group bot's own turn at that level (``level1.Turn``, or the
level's subclass of it, as ``games.bots.hgroup.decide(view, level)`` plays it); with every
rate at 0 the person plays exactly as ``decide`` does. Three kinds of mistake, each drawn
with a fixed probability per opportunity:

- **A wrong focus** (``FOCUS``, rate 0.10 by default): each clue the person receives that
  touches two or more new cards (where the focus is a choice) is, at this rate, read with
  its focus on another of those new cards (chosen at random among them), which is then
  read as that clue's play clue (a card off the chop: it is never read as a save). A chop
  save read this way is a play clue on a card that may not be playable, the classic
  misread. The person keeps the misreading on every later turn (it is drawn per clue, not
  per turn) until a card shows it otherwise; a card it misplays on its own misreading is not
  held against the giver (the person knows the mistake was its own), so it does not start
  reading that giver's clues for facts alone.
- **A late save** (``LATE_SAVE``, rate 0.15): when the convention move is a save clue on a
  player's chop, at this rate the person does not see that the chop needed saving: it
  makes the move it would make if no chop save were there (a play, another clue, a
  discard). Drawn again every turn, so the save usually comes a round late, or never.
- **A missed play clue** (``MISSED_PLAY_CLUE``, rate 0.10): when the convention move is a
  play clue (the reading "play" of the clue it gives: a direct, delayed, prompting or
  finessing play clue), at this rate the person does not see it and makes the move it would
  make if no play clue were there.

A decision has at most one of the last two (the convention move is either a save or a play
clue); a wrong focus is a reading, and its effect shows in whatever the person does after.
The person's safety is the bot's: on the last fuse it plays only what the clues prove, so a
wrong focus can cost a misplay but not, by itself, the last fuse.

Hidden information: every draw is a hash of the person's seed, the kind of mistake, its
seat and the place in the history (the clue's index for a focus, the turn for the others),
and the misread focus is chosen by the cards' places in the hand: nothing that depends on
the person's own cards, nor on anything else the view hides. The same seed and the same
view always give the same decision; like the bots, nothing is kept between turns.
"""

from __future__ import annotations

import hashlib
import importlib
from dataclasses import dataclass, field
from functools import lru_cache

from games.engine import Action, Clue

from . import LEVELS, level1
from .level1 import Decision, Turn
from .notes import Notes, Reading

FOCUS = "wrong focus"
LATE_SAVE = "late save"
MISSED_PLAY_CLUE = "missed play clue"
KINDS = (FOCUS, LATE_SAVE, MISSED_PLAY_CLUE)


@dataclass(frozen=True)
class Rates:
    """The probability of each mistake per opportunity (see the module's docstring)."""

    focus: float = 0.10
    late_save: float = 0.15
    missed_play_clue: float = 0.10

    def of(self, kind: str) -> float:
        return {
            FOCUS: self.focus,
            LATE_SAVE: self.late_save,
            MISSED_PLAY_CLUE: self.missed_play_clue,
        }[kind]


RATES = Rates()
NO_MISTAKES = Rates(0.0, 0.0, 0.0)


@dataclass(frozen=True)
class PersonDecision:
    action: Action
    reason: str
    convention: Action  # what the level's conventions (its own reading) would do
    # The kinds of mistake this decision made (LATE_SAVE or MISSED_PLAY_CLUE at most one).
    mistakes: tuple[str, ...] = ()
    # The kind of mistake that could have been made here (the convention move was a chop
    # save or a play clue), drawn or not: for the rates.
    chance: str | None = None
    # The clues received so far whose focus was a choice: (history index, misread).
    focus_readings: tuple[tuple[int, bool], ...] = field(default=())


def draw(seed: int, kind: str, seat: int, index: int) -> float:
    """A number in [0, 1) fixed by the arguments: the same in every process and every run
    (Python's ``hash`` of a string is not)."""
    digest = hashlib.blake2b(f"{seed}:{kind}:{seat}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


class _MisreadingNotes:
    """Notes whose reading of a clue to the viewer may put its focus on another new card."""

    SEED = 0
    RATE = 0.0

    def __init__(self, view: dict, literal: frozenset[int] | None = None) -> None:
        self.focus_chances: dict[int, bool] = {}  # before the replay, which reads the clues
        self.misread_focus: set[int] = set()
        super().__init__(view, literal)

    def _read_focus(
        self, giver: int, target: int, focus: int, on_chop: bool, entry: dict, retouch: bool
    ) -> Reading:
        # Only clues of the history ("turn" in the entry), not a clue the viewer weighs.
        if target == self.me and "turn" in entry and not retouch:
            new = [
                cid
                for cid in self.hands[target]
                if cid in entry["touched"]
                and self.notes[cid].turn == self.turn
                and not self.notes[cid].finessed
            ]
            if len(new) >= 2:
                wrong = draw(self.SEED, FOCUS, self.me, self.turn) < self.RATE
                self.focus_chances[self.turn] = wrong
                if wrong:
                    others = [cid for cid in new if cid != focus]
                    pick = draw(self.SEED, FOCUS + " card", self.me, self.turn)
                    focus = others[int(pick * len(others))]
                    # The old chop is the true focus whenever the clue touched it: any other
                    # card is off the chop.
                    on_chop = False
                    self.misread_focus.add(focus)
        reading = super()._read_focus(giver, target, focus, on_chop, entry, retouch)
        if focus in self.misread_focus:
            # A card played on its own misreading is the person's mistake, not the giver's.
            self.notes[focus].claim = None
        return reading


class _PersonTurn:
    """A level's turn that, when told to, does not see chop saves or play clues."""

    def __init__(self, view: dict, blind_to: frozenset[str] = frozenset()) -> None:
        self.blind_to = blind_to
        super().__init__(view)

    def value(
        self, twin: Notes, reading: Reading | None, target: int, option: dict, before: set[int]
    ) -> float:
        worth = super().value(twin, reading, target, option, before)
        if self.blind_to and worth > 0 and clue_kind(self.notes, reading, target) in self.blind_to:
            return -1.0
        return worth


def clue_kind(notes: Notes, reading: Reading | None, target: int) -> str | None:
    """LATE_SAVE for a save clue on the target's chop, MISSED_PLAY_CLUE for a play clue, by
    the reading (before the clue, ``notes``) the table gives it."""
    if reading is None:
        return None
    if reading.kind == "save" and reading.focus == notes.chop(target):
        return LATE_SAVE
    if reading.kind == "play":
        return MISSED_PLAY_CLUE
    return None


def _level_turn(level: int) -> type[Turn]:
    """The bot's turn class at ``level``: level 1's ``Turn``, or the one subclass of it that
    module ``level<N>`` defines."""
    if level == 1:
        return level1.Turn
    module = importlib.import_module(f"{__package__}.level{level}")
    found = [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Turn) and obj.__module__ == module.__name__
    ]
    if len(found) != 1:
        raise ValueError(f"no single turn class for H-Group level {level}")
    return found[0]


@lru_cache(maxsize=64)
def _person_turn(level: int, seed: int, focus_rate: float) -> type[Turn]:
    base = _level_turn(level)
    notes = type(
        f"PersonNotes{level}",
        (_MisreadingNotes, base.NOTES),
        {"SEED": seed, "RATE": focus_rate},
    )
    return type(f"PersonTurn{level}", (_PersonTurn, base), {"NOTES": notes})


class Person:
    """An H-Group player of ``level`` who errs at ``rates``, its draws fixed by ``seed``."""

    def __init__(self, level: int = 1, seed: int = 0, rates: Rates = RATES) -> None:
        if level not in LEVELS:
            raise ValueError(f"H-Group level {level!r} is not implemented (levels: {LEVELS})")
        self.level, self.seed, self.rates = level, seed, rates
        self.turn_class = _person_turn(level, seed, rates.focus)

    def __call__(self, view: dict) -> Action:
        return self.decide(view).action

    def __repr__(self) -> str:
        return f"Person(level={self.level}, seed={self.seed}, rates={self.rates})"

    def decide(self, view: dict) -> PersonDecision:
        turn = self.turn_class(view)
        convention = turn.decide()
        readings = tuple(sorted(turn.notes.focus_chances.items()))
        chance = self._kind(turn, convention.action)
        if chance is None:
            return PersonDecision(
                convention.action, convention.reason, convention.action, (), None, readings
            )
        seat, index = view["viewer"], len(view["history"])
        if draw(self.seed, chance, seat, index) >= self.rates.of(chance):
            return PersonDecision(
                convention.action, convention.reason, convention.action, (), chance, readings
            )
        blind = self.turn_class(view, blind_to=frozenset({chance}))
        made = blind.decide()
        if made.action == convention.action:
            # Nothing else to do than that clue (no other move): no mistake after all.
            return PersonDecision(made.action, made.reason, convention.action, (), chance, readings)
        return PersonDecision(
            made.action,
            f"{made.reason} (a person's mistake, a {chance}: it did not see "
            f"{_what_missed(turn, convention)})",
            convention.action,
            (chance,),
            chance,
            readings,
        )

    @staticmethod
    def _kind(turn: Turn, action: Action) -> str | None:
        if not isinstance(action, Clue):
            return None
        option = next(
            o
            for o in turn.legal["clues"]
            if o["target"] == action.target
            and o.get("colour") == action.colour
            and o.get("rank") == action.rank
        )
        twin = turn.notes.copy()
        reading = twin.apply_clue(action.target, option)
        return clue_kind(turn.notes, reading, action.target)


def _what_missed(turn: Turn, convention: Decision) -> str:
    return f"this move: {convention.reason}"


__all__ = [
    "FOCUS",
    "KINDS",
    "LATE_SAVE",
    "MISSED_PLAY_CLUE",
    "NO_MISTAKES",
    "RATES",
    "Person",
    "PersonDecision",
    "Rates",
    "draw",
]
