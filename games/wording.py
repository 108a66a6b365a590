"""The engine's sentences in the active language (issue 29): a move of the history, how the
game ended, the rating of a score, the options. The engine (games/engine/) stays free of
Django and speaks English; this layer words the same facts with gettext.

In English each function returns the engine's own sentence, unchanged. In German and French
the cards and colours are named as each edition names them, the names replies are read in
(games/text_commands.py). Nothing here reads more of the game than the engine's sentence
does: a card played or discarded (face up), the slots a clue touched (public).
"""

import re
from collections.abc import Sequence

from django.utils.translation import get_language, gettext_noop, ngettext
from django.utils.translation import gettext as _

from games.engine import End, GameOptions, GameState, describe, end_text, rating_word
from games.engine.cards import SUITS
from games.engine.history import played_slot, player_name, rearrangement_text, touched_slots
from games.engine.options import MAX_CLUE_TOKENS
from games.engine.state import Event, Rearrangement
from games.text_commands import VOCABULARIES, reader_language

# games.models.outcome's sentence for a game its timeout policy ended.
TIMED_OUT_TEXT = "Time ran out on a turn, and the game ended: it scores 0."
gettext_noop("Time ran out on a turn, and the game ended: it scores 0.")

MULTICOLOUR_VARIANTS = {
    1: gettext_noop("sixth suit"),
    2: gettext_noop("sixth suit, one of each"),
    3: gettext_noop("wild multicolour"),
}


def english() -> bool:
    return reader_language(get_language()) == "en"


def colour_name(suit: str) -> str:
    """A suit ("red", "multicolour") as the active language's edition names it."""
    return VOCABULARIES[reader_language(get_language())].colour_names.get(suit, suit)


def card_name(suit: str, rank: int) -> str:
    """'rot 3', 'rouge 3', 'red 3'."""
    return f"{colour_name(suit)} {rank}"


def rank_clue(rank: int) -> str:
    """A rank clue's value: '3s', '3er', '3'."""
    return _("%(rank)ss") % {"rank": rank}


def event_sentence(event: Event, state: GameState, names: Sequence[str] | None = None) -> str:
    """engine.describe(event, state, names), in the active language."""
    if english():
        return describe(event, state, names)
    who = player_name(names, event.seat)
    if event.kind == "clue":
        value = (
            colour_name(SUITS[event.colour]) if event.colour is not None else rank_clue(event.rank)
        )
        count = len(event.touched)
        if count == 0:
            touching = _("touching no cards")
        else:
            touching = ngettext("touching %(count)d card", "touching %(count)d cards", count) % {
                "count": count
            }
        slots = touched_slots(event)
        where = (
            " ("
            + ngettext("slot %(slots)s", "slots %(slots)s", len(slots))
            % {"slots": ", ".join(map(str, slots))}
            + ")"
            if slots
            else ""
        )
        return _("%(who)s clues %(target)s: %(value)s, %(touching)s%(slots)s") % {
            "who": who,
            "target": player_name(names, event.target),
            "value": value,
            "touching": touching,
            "slots": where,
        }
    card = state.deck[event.card_id]
    words = {
        "who": who,
        "card": card_name(SUITS[card.suit], card.rank),
        "slot": played_slot(event),
        "colour": colour_name(SUITS[card.suit]),
        "tokens": MAX_CLUE_TOKENS,
    }
    if event.kind == "discard":
        return _("%(who)s discards %(card)s (slot %(slot)s)") % words
    if not event.placed:
        if event.fuses_left == 0:
            return _("%(who)s misplays %(card)s (slot %(slot)s; last fuse burns)") % words
        return _("%(who)s misplays %(card)s (slot %(slot)s; fuse burns)") % words
    if event.bonus:
        return (
            _(
                "%(who)s plays %(card)s (slot %(slot)s; the %(colour)s firework is complete: "
                "a clue token comes back)"
            )
            % words
        )
    if card.rank == 5:
        return (
            _(
                "%(who)s plays %(card)s (slot %(slot)s; the %(colour)s firework is complete; "
                "all %(tokens)s clue tokens were already available)"
            )
            % words
        )
    return _("%(who)s plays %(card)s (slot %(slot)s)") % words


def rearrangement_sentence(moved: Rearrangement, names: Sequence[str] | None = None) -> str:
    """engine.rearrangement_text, in the active language: by slots alone, never the card."""
    if english():
        return rearrangement_text(moved, names)
    return _("%(who)s moves a card from slot %(from)s to slot %(to)s") % {
        "who": player_name(names, moved.seat),
        "from": moved.from_slot,
        "to": moved.to_slot,
    }


def entry_sentence(entry: dict, state: GameState, names: Sequence[str] | None = None) -> str:
    """The sentence of one entry of a view's history (engine.view_for), in the active
    language: a move from the state's event of that turn, a rearrangement from its slots."""
    if english():
        return entry["text"]
    if entry["type"] == "rearrange":
        return _("%(who)s moves a card from slot %(from)s to slot %(to)s") % {
            "who": player_name(names, entry["seat"]),
            "from": entry["from_slot"],
            "to": entry["to_slot"],
        }
    event = next((event for event in state.events if event.turn == entry["turn"]), None)
    return entry["text"] if event is None else event_sentence(event, state, names)


def rating(score: int, options: GameOptions) -> str:
    """engine.rating_word, in the active language."""
    if english():
        return rating_word(score, options)
    if options.until_perfect:
        return _("victory") if score == options.max_score else _("defeat")
    short = options.max_score - score
    if short <= 0:
        return _("perfect")
    return ngettext("%(short)d short of perfect", "%(short)d short of perfect", short) % {
        "short": short
    }


def ending(state: GameState, names: Sequence[str] | None = None) -> str | None:
    """engine.end_text, in the active language."""
    if english() or state.end is None:
        return end_text(state, names)
    options, end = state.options, state.end
    words = {"score": state.score, "rating": rating(state.score, options)}
    if end is End.PERFECT:
        if options.until_perfect:
            return _("Victory: every firework is complete.")
        return _("Every firework is complete: %(score)s points, %(rating)s!") % words
    if end is End.STRIKEOUT:
        return _("The last fuse burned: the game is lost and scores 0.")
    if end is End.DEFEAT_LOST_CARD:
        card = state.deck[state.events[-1].card_id]
        return _("Defeat: the last %(card)s is gone, so the display can no longer be perfect.") % {
            "card": card_name(SUITS[card.suit], card.rank)
        }
    if end is End.DEFEAT_NO_ACTION:
        return _("Defeat: %(who)s has no card and no clue token, and nobody may pass.") % {
            "who": player_name(names, state.turn % state.players)
        }
    if end is End.LAST_ROUND:
        return _("The last round is over: %(score)s points, %(rating)s.") % words
    return (
        _("No remaining card can raise the score, so the game ends: %(score)s points, %(rating)s.")
        % words
    )


def outcome_in_words(outcome: dict, state: GameState, names: Sequence[str] | None = None) -> dict:
    """games.models.outcome's dict (score, max_score, rating, text), worded in the active
    language."""
    if english():
        return outcome
    timed_out = outcome["text"] == TIMED_OUT_TEXT
    return {
        **outcome,
        "rating": rating(outcome["score"], state.options),
        "text": _(TIMED_OUT_TEXT) if timed_out else ending(state, names),
    }


def options_text(options: GameOptions) -> str:
    """GameOptions.describe(), in the active language: '3 Spieler, Farbrausch'."""
    if english():
        return options.describe()
    parts = [
        ngettext("%(count)d player", "%(count)d players", options.players)
        % {"count": options.players}
    ]
    if options.multicolour:
        parts.append(_(MULTICOLOUR_VARIANTS[options.multicolour]))
    if options.until_perfect:
        parts.append(_("until perfect"))
    if options.fuses != 3:
        parts.append(
            ngettext("%(count)d fuse", "%(count)d fuses", options.fuses) % {"count": options.fuses}
        )
    if options.empty_clues:
        parts.append(_("empty clues"))
    if options.rearrange:
        parts.append(_("rearranging"))
    return ", ".join(parts)


# The refusals a move or a message can meet (games/services/, the engine's rules), as those
# word them in English: each a pattern and its message for gettext. An email's answer says
# them in the player's language (mailplay/processing.py), and so do the site's pages.
REFUSALS = [
    (
        r"That move is not allowed: (?P<reason>.+)\.",
        gettext_noop("That move is not allowed: %(reason)s."),
    ),
    (r"no clue token is available", gettext_noop("no clue token is available")),
    (
        rf"all {MAX_CLUE_TOKENS} clue tokens are available, so nobody may discard",
        gettext_noop("all %(tokens)s clue tokens are available, so nobody may discard"),
    ),
    (
        r"a clue must touch at least one card \(empty clues are off\)",
        gettext_noop("a clue must touch at least one card (empty clues are off)"),
    ),
    (r"a player cannot clue themselves", gettext_noop("a player cannot clue themselves")),
    (r"the game is over", gettext_noop("the game is over")),
    (r"It is not your turn\.", gettext_noop("It is not your turn.")),
    (r"A bot plays this seat now\.", gettext_noop("A bot plays this seat now.")),
    (
        r"This game is not being played: no move can be made\.",
        gettext_noop("This game is not being played: no move can be made."),
    ),
    (r"You are not playing in this game\.", gettext_noop("You are not playing in this game.")),
    (r"Write something first\.", gettext_noop("Write something first.")),
    (
        r"A message has at most (?P<count>\d+) characters\.",
        gettext_noop("A message has at most %(count)s characters."),
    ),
    (
        r"This table keeps quiet during play: the chat opens when the game ends\.",
        gettext_noop("This table keeps quiet during play: the chat opens when the game ends."),
    ),
    # The table's own forms (the web's words for the same services, issue 29).
    (r"card (?P<card>\d+) is not in your hand", gettext_noop("card %(card)s is not in your hand")),
    (
        r"there is no player (?P<seat>\d+) in this game",
        gettext_noop("there is no player %(seat)s in this game"),
    ),
    (
        r"The game moved on since your page was loaded, so that move was not made\. "
        r"Here is the table as it is now\.",
        gettext_noop(
            "The game moved on since your page was loaded, so that move was not made. "
            "Here is the table as it is now."
        ),
    ),
    (r"Nobody else plays your seat\.", gettext_noop("Nobody else plays your seat.")),
    (r"This game is not being played\.", gettext_noop("This game is not being played.")),
    (
        r"Your hand changed since your page was loaded \(a card was played, drawn or moved\), "
        r"so no card was moved\. Here is your hand as it is now\.",
        gettext_noop(
            "Your hand changed since your page was loaded (a card was played, drawn or moved), "
            "so no card was moved. Here is your hand as it is now."
        ),
    ),
    (
        r"This game is not being played: no card can be moved\.",
        gettext_noop("This game is not being played: no card can be moved."),
    ),
    (
        r"Rearranging one's hand is not an option of this game\.",
        gettext_noop("Rearranging one's hand is not an option of this game."),
    ),
    (
        r"rearranging one's hand is not an option of this game",
        gettext_noop("rearranging one's hand is not an option of this game"),
    ),
    (
        r"A bot plays your seat now: take it back to move your cards\.",
        gettext_noop("A bot plays your seat now: take it back to move your cards."),
    ),
    (
        r"Your hand has slots 1 to (?P<count>\d+): there is no slot (?P<slot>\d+)\.",
        gettext_noop("Your hand has slots 1 to %(count)s: there is no slot %(slot)s."),
    ),
    (
        r"That card was not moved: (?P<reason>.+)\.",
        gettext_noop("That card was not moved: %(reason)s."),
    ),
    (
        r"A note holds at most (?P<count>\d+) characters\.",
        gettext_noop("A note holds at most %(count)s characters."),
    ),
    (r"A note holds plain text only\.", gettext_noop("A note holds plain text only.")),
    (
        r"Notes can be written only while the game is being played\.",
        gettext_noop("Notes can be written only while the game is being played."),
    ),
    (
        r"That card is not on the table: reload the page and try again\.",
        gettext_noop("That card is not on the table: reload the page and try again."),
    ),
    (
        r"Only the players of a game can write in its chat\.",
        gettext_noop("Only the players of a game can write in its chat."),
    ),
    (
        r"Only a player at this table can ask for a pause\.",
        gettext_noop("Only a player at this table can ask for a pause."),
    ),
    (r"Only a game in play can be paused\.", gettext_noop("Only a game in play can be paused.")),
    (
        r"This game has no time limit: there is no clock to pause\.",
        gettext_noop("This game has no time limit: there is no clock to pause."),
    ),
    (r"The game is already paused\.", gettext_noop("The game is already paused.")),
    (
        r"Only a game in play, not paused, can be paused\.",
        gettext_noop("Only a game in play, not paused, can be paused."),
    ),
    (
        r"Only a player at this table can resume the game\.",
        gettext_noop("Only a player at this table can resume the game."),
    ),
    (r"The game is not paused\.", gettext_noop("The game is not paused.")),
    (
        r"Only the game's creator can give a turn more time\.",
        gettext_noop("Only the game's creator can give a turn more time."),
    ),
    (
        r"This turn has no deadline to extend\.",
        gettext_noop("This turn has no deadline to extend."),
    ),
    (
        r"A deadline can be extended by 1 hour to 7 days\.",
        gettext_noop("A deadline can be extended by 1 hour to 7 days."),
    ),
]


def refusal(text: str) -> str:
    """A refusal of the services or the engine (``str(error)``), in the active language;
    one this layer does not know stays as it was written."""
    if english():
        return text
    for pattern, message in REFUSALS:
        found = re.fullmatch(pattern, text)
        if found:
            words = {"tokens": MAX_CLUE_TOKENS, **found.groupdict()}
            if "reason" in words:
                words["reason"] = refusal(words["reason"])
            return _(message) % words if "%(" in message else _(message)
    return text
