"""The H-Group reading at level 5 ("Intermediate Finesses", docs/level-5.mdx), on top of
level 4's."""

from __future__ import annotations

from .notes import Notes
from .notes4 import Notes4


class Notes5(Notes4):
    level = 5


__all__ = ["Notes", "Notes5"]
