"""The H-Group bot's turn at level 4 ("Chop Moves", docs/level-4.mdx; README.md here)."""

from __future__ import annotations

from games.engine import Action

from .level1 import Decision
from .level3 import Turn3
from .notes4 import Notes4


class Turn4(Turn3):
    NOTES = Notes4


def decide(view: dict) -> Decision:
    return Turn4(view).decide()


def choose(view: dict) -> Action:
    return decide(view).action
