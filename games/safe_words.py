"""The H-Group bot's safe readings in the game's history, in the reader's language (issue 30).

A move of the H-Group bot that took the safe reading of a card of its own keeps where
(Move.safe_reading, from games/bots/hgroup/safe.py): its own slot, the clue's turn and giver,
and what it made of it. Here that is worded for the reader: "Its slot 3 could be read two
ways from Cathy's clue on turn 7; it took the safe reading and waits." The sentence names no
card and nothing of another player's hand. While the game is played it is not shown to a
player whose own blind play (or prompted play) the bot's reading waits on: to them it would
say that a card of theirs connects.
"""

import re
from collections.abc import Iterable, Sequence

from django.utils.translation import get_language
from django.utils.translation import gettext as _

WAITS, SAVE = "waits", "save"  # (games/bots/hgroup/safe.py's kinds)

# French elides "de" before a vowel: "l'indice d'Alice".
ELIDED = re.compile(r"\bde (?=[AEIOUYÀÂÉÈÊÎÔaeiouyàâéèêîô])")


def safe_readings(moves: Iterable) -> dict[int, dict]:
    """Turn -> the stored safe reading, of the moves that have one (rows with ``turn`` and
    ``safe_reading``)."""
    return {move.turn: move.safe_reading for move in moves if move.safe_reading}


def sentence(
    safe: dict | None, names: Sequence[str], viewer: int | None, finished: bool
) -> str | None:
    """The sentence for one move's safe reading, for ``viewer`` (a seat, None for one who
    plays no seat: a spectator, the replay); None when there is none or it is not theirs to
    read yet."""
    if not safe or safe.get("kind") not in (WAITS, SAVE):
        return None
    if not finished and viewer is not None and viewer in (safe.get("via") or ()):
        return None
    giver = safe["giver"]
    words = {"slot": safe["slot"], "turn": safe["turn"]}
    if giver == viewer:
        if safe["kind"] == WAITS:
            return (
                _(
                    "Its slot %(slot)s could be read two ways from your clue on turn %(turn)s; "
                    "it took the safe reading and waits."
                )
                % words
            )
        return (
            _(
                "Its slot %(slot)s could be read two ways from your clue on turn %(turn)s; "
                "it took the safe reading: a save, not a play yet."
            )
            % words
        )
    words["giver"] = names[giver] if 0 <= giver < len(names) else str(giver + 1)
    if safe["kind"] == WAITS:
        text = (
            _(
                "Its slot %(slot)s could be read two ways from %(giver)s's clue on turn "
                "%(turn)s; it took the safe reading and waits."
            )
            % words
        )
    else:
        text = (
            _(
                "Its slot %(slot)s could be read two ways from %(giver)s's clue on turn "
                "%(turn)s; it took the safe reading: a save, not a play yet."
            )
            % words
        )
    return ELIDED.sub("d'", text) if get_language() == "fr" else text
