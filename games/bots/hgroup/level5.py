"""The H-Group bot's turn at level 5 ("Intermediate Finesses", docs/level-5.mdx; README.md
here)."""

from __future__ import annotations

from games.engine import Action

from .level1 import Decision
from .level4 import Turn4
from .notes5 import Notes5


class Turn5(Turn4):
    NOTES = Notes5


def decide(view: dict) -> Decision:
    return Turn5(view).decide()


def choose(view: dict) -> Action:
    return decide(view).action
