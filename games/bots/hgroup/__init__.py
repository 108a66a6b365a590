"""A bot that plays by the H-Group conventions (hanabi.github.io), by level (issue 30).

``choose_action(view, level=1)`` takes the engine's per-seat view (``view_for``), like the
house bot, and returns an action; ``decide(view, level=1)`` returns the same action with its
reason in words (a ``Decision``), by the same code path. Levels 1 to 5 exist; see
README.md in this folder for what it includes and what it does not.
"""

from __future__ import annotations

from games.engine import Action

from . import level1, level2, level3, level4, level5
from .level1 import Decision

LEVELS = (1, 2, 3, 4, 5)


def decide(view: dict, level: int = 1) -> Decision:
    """The move for the seat whose view this is, and why ("Discard chop (slot 5): ...")."""
    if level not in LEVELS:
        raise ValueError(f"H-Group level {level!r} is not implemented (levels: {LEVELS})")
    return {
        1: level1.decide,
        2: level2.decide,
        3: level3.decide,
        4: level4.decide,
        5: level5.decide,
    }[level](view)


def choose_action(view: dict, level: int = 1) -> Action:
    return decide(view, level).action


__all__ = ["LEVELS", "Decision", "choose_action", "decide"]
