"""What the house bot believes of each player, for the table's status line
(templates/games/_bot_beliefs.html) and the history (templates/games/_history.html):
games/bots/beliefs.py works it out from the page's own view, and games/bot_remarks.py words
it in the reader's language, so the live page, the look-back and the replay say the same at
the same turn, and nothing is stored."""

from django import template

from games import bot_remarks
from games.models import BotKind
from games.services.play import house_bot_seats

register = template.Library()

NOTHING: dict = {"remarks": {}, "lines": []}
# Where the view keeps what was worked out for it: the status line and the history of one
# page both ask, and a view dict lives for one rendering.
MEMO = "bot_beliefs"


@register.simple_tag(takes_context=True)
def bot_beliefs(context) -> dict:
    """{"remarks": history turn -> sentences, "lines": the table's lines} for the page's game
    and view; nothing when no house bot plays at the table (an imported record has no seats
    to tell, and the expert bot judges nobody)."""
    view = context.get("view")
    game = context.get("game")
    if not view or not view.get("history") or game is None or not getattr(game, "pk", None):
        return NOTHING
    if MEMO in view:
        return view[MEMO]
    marked = any(entry.get("note") for entry in context.get("history") or ())
    if not game.is_finished() and not marked:
        # While a game is played its pages mark every move not made by its player (a bot's,
        # a timeout's: games/table_context.AUTOMATIC): none, and no bot has moved yet, so it
        # has nothing to say, and the seats need not be read (a turn page drawn afresh stays
        # at its queries, tests/games/test_page_queries.py). The replay has no such marks.
        view[MEMO] = NOTHING
        return NOTHING
    seats = context.get("seats") or list(game.seats.all())
    speakers = [seat.position for seat in seats if _house_bot(seat)]
    result = NOTHING
    if speakers:
        remarks, lines = bot_remarks.sentences(
            view["options"],
            view["history"],
            view["names"],
            speakers,
            house_bot_seats(seats),
            viewer=view.get("viewer"),
        )
        result = {"remarks": remarks, "lines": lines}
    view[MEMO] = result
    return result


def _house_bot(seat) -> bool:
    """The house bot plays this seat now: one it was given, or a person's whose time ran out
    too often (games/services/play.bot_action); not an expert or H-Group bot's seat."""
    return seat.is_bot and not (seat.user_id is None and seat.bot_kind != BotKind.HOUSE)


@register.filter
def remarks_for(found: dict, entry: dict) -> list[str]:
    """The remarks made after this history entry (a move: only a move changes a belief, and a
    free entry such as a rearranged hand may share its turn number)."""
    if not found or entry.get("type") not in ("clue", "play", "discard"):
        return []
    return found["remarks"].get(entry["turn"], [])
