"""The H-Group reading at level 4 ("Chop Moves", docs/level-4.mdx), on top of level 3's."""

from __future__ import annotations

from .notes import Notes
from .notes3 import Notes3


class Notes4(Notes3):
    level = 4


__all__ = ["Notes", "Notes4"]
