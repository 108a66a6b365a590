"""A bot that plays by the H-Group conventions (hanabi.github.io), by level (issue 30).

``choose_action(view, level=1)`` takes the engine's per-seat view (``view_for``), like the
house bot, and returns an action. Only level 1 exists so far; see README.md in this folder
for what it includes and what it does not.
"""

from __future__ import annotations

from games.engine import Action

from . import level1

LEVELS = (1,)


def choose_action(view: dict, level: int = 1) -> Action:
    if level not in LEVELS:
        raise ValueError(f"H-Group level {level!r} is not implemented (levels: {LEVELS})")
    return level1.choose(view)


__all__ = ["LEVELS", "choose_action"]
