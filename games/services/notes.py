"""A player's private notes on cards, as on hanab.live: "r3", "5", "b", "kt", "f", "cm" or
any short text, kept by card id (so a note follows its card across turns).

A note is the writer's own text and nothing else: it is shown to the writer alone while the
game goes on, and to everyone in the finished game's replay, under the writer's name. It
changes no other page, so writing one does not raise the game's version: the writer's notes
are part of the cached table's key instead (games/views/table.py).
"""

import re

from django.db import transaction

from accounts.models import User
from games.engine import SUIT_LETTERS
from games.errors import GameError, NotAllowed
from games.models import Seat

MAX_NOTE_LENGTH = 60

# hanab.live's shorthands that say what a card is for rather than what it is.
TAGS = {
    "kt": "known trash",
    "trash": "known trash",
    "f": "finesse",
    "cm": "chop move",
}
TAG_BADGES = {"known trash": "KT", "finesse": "F", "chop move": "CM"}
_IDENTITY = re.compile(rf"^([{''.join(SUIT_LETTERS).lower()}]?)([1-5]?)$")
_TOKENS = re.compile(r"[^\s,;|\[\]()]+")


def write_note(game_id: int, user: User, card_id: int, text: str) -> Seat:
    """Set (or, with empty text, remove) the user's note on a card of the game they play.

    The card must be one the writer holds or can see: a card dealt from the deck so far (in
    a hand, played or discarded), never one still in the deck. Bad input changes nothing and
    raises GameError with a message for the player."""
    text = " ".join(text.split())  # one line, no stray spaces
    if len(text) > MAX_NOTE_LENGTH:
        raise GameError(f"A note holds at most {MAX_NOTE_LENGTH} characters.")
    if not text.isprintable():
        raise GameError("A note holds plain text only.")
    with transaction.atomic():
        # The seat's row lock, and the game's (the join): two notes written at once (two
        # tabs) both land, one by one, and a note waits for a move holding the game.
        seat = (
            Seat.objects.select_for_update()
            .select_related("game")
            .filter(game_id=game_id, user=user)
            .first()
        )
        if seat is None:
            raise NotAllowed("You are not playing in this game.")
        game = seat.game
        if not game.is_playing():
            raise GameError("Notes can be written only while the game is being played.")
        if not 0 <= card_id < game.load_state().cards_drawn:
            raise GameError("That card is not on the table: reload the page and try again.")
        notes = dict(seat.notes or {})
        if text:
            notes[str(card_id)] = text
        else:
            notes.pop(str(card_id), None)
        seat.notes = notes
        seat.save(update_fields=["notes"])
    return seat


def parse_note(text: str) -> dict:
    """What a note says in hanab.live's shorthand: the identity it names ("R3", "B", "5": the
    last one written wins, as on hanab.live) and its tags (known trash, finesse, chop move).
    Anything else is free text: the note itself is always shown whole."""
    identity = None
    tags: list[str] = []
    for token in _TOKENS.findall(text.lower()):
        if token in TAGS:
            if TAGS[token] not in tags:
                tags.append(TAGS[token])
            continue
        match = _IDENTITY.match(token)
        if match and token:
            identity = token.upper()
    return {"identity": identity, "tags": tags}


def note_entry(text: str, writer: str | None = None) -> dict:
    """One note as the table shows it: text, badges and (in a replay) the writer's name."""
    parsed = parse_note(text)
    badges = ([parsed["identity"]] if parsed["identity"] else []) + [
        TAG_BADGES[tag] for tag in parsed["tags"]
    ]
    return {"text": text, "writer": writer, "badges": badges, **parsed}


def notes_by_card(seats: list[Seat], writer_names: bool) -> dict[int, list[dict]]:
    """Every note of these seats, by card id; with the writers' names when `writer_names`
    (the replay of a finished game), else unnamed (the writer's own table)."""
    found: dict[int, list[dict]] = {}
    for seat in seats:
        for card_id, text in (seat.notes or {}).items():
            if str(card_id).isdigit() and text:
                writer = seat.name if writer_names else None
                found.setdefault(int(card_id), []).append(note_entry(text, writer))
    return found
