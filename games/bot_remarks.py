"""What the house bot believes of each player, in the reader's language (issues 27, 29):
the sentences of the history and the table's status line, worded from what
games/bots/beliefs.py works out (which stays free of Django, as every bot does).

Each sentence is whole in the catalogue where its grammar depends on who is named: "you
played" and "Alice played" conjugate differently in German and French, so each has its own
message; one bot or several ("Bot 2 reads", "The bots read") is a plural form."""

import re
from collections.abc import Collection, Sequence

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.bots.beliefs import Change, Line, Stance, told
from games.bots.knowledge import CONVENTION, LITERAL
from games.wording import card_name


class Voice:
    """How a sentence names the bot and the players: the bot seats by name ("Bot 2", or
    "The bots" for several), the viewer as "you"."""

    def __init__(self, names: Sequence[str], bots: Sequence[int], viewer: int | None) -> None:
        self.names = list(names)
        self.viewer = viewer
        self.count = 2 if len(bots) > 1 else 1  # for the plural forms: one bot, or several
        if len(bots) > 1:
            self.bot = _("The bots")
        else:
            self.bot = self.names[bots[0]] if bots else _("The bot")

    def you(self, seat: int) -> bool:
        return seat == self.viewer

    def name(self, seat: int) -> str:
        return self.names[seat]

    def clues_of(self, seat: int) -> str:
        if self.you(seat):
            return _("your clues")
        return _("%(name)s's clues") % {"name": self.name(seat)}

    def clue_of(self, seat: int) -> str:
        if self.you(seat):
            return _("your clue")
        return _("%(name)s's clue") % {"name": self.name(seat)}


# French elides "de" and "que" before a vowel: "les indices d'Alice", "qu'Ève".
ELIDED = re.compile(r"\b(d|qu)e (?=[AEIOUYÀÂÉÈÊÎÔaeiouyàâéèêîô])")


def _in_french_form(text: str) -> str:
    return ELIDED.sub(r"\1'", text) if get_language() == "fr" else text


def _card(card: str) -> str:
    """A card as beliefs names it ("blue 3"), in the reader's language."""
    suit, rank = card.rsplit(" ", 1)
    return card_name(suit, int(rank))


def _no_longer_by_conventions(voice: Voice, seat: int) -> str:
    return ngettext(
        "no longer reads %(clues)s by its conventions",
        "no longer read %(clues)s by their conventions",
        voice.count,
    ) % {"clues": voice.clues_of(seat)}


def _no_longer_expects_reading(voice: Voice, seat: int) -> str:
    if voice.you(seat):
        return ngettext(
            "no longer expects you to read a clue beyond what it shows",
            "no longer expect you to read a clue beyond what it shows",
            voice.count,
        )
    return ngettext(
        "no longer expects %(name)s to read a clue beyond what it shows",
        "no longer expect %(name)s to read a clue beyond what it shows",
        voice.count,
    ) % {"name": voice.name(seat)}


def _expects_reading_again(voice: Voice, seat: int) -> str:
    if voice.you(seat):
        return ngettext(
            "expects you to read clues beyond what they show again",
            "expect you to read clues beyond what they show again",
            voice.count,
        )
    return ngettext(
        "expects %(name)s to read clues beyond what they show again",
        "expect %(name)s to read clues beyond what they show again",
        voice.count,
    ) % {"name": voice.name(seat)}


def _bot_does(voice: Voice, parts: list[str]) -> str:
    """ "Bot 2 reads …, and no longer expects …": one or two verb phrases of the bot."""
    what = (
        parts[0]
        if len(parts) == 1
        else _("%(first)s, and %(second)s")
        % {
            "first": parts[0],
            "second": parts[1],
        }
    )
    return _("%(bot)s %(what)s") % {"bot": voice.bot, "what": what}


def headline(voice: Voice, seat: int, before: Stance, after: Stance, again: bool) -> str:
    """What the bot believes now, where it changed: "Bot 2 reads Alice's clues literally
    from now on"."""
    parts = []
    clues = voice.clues_of(seat)
    if after.level != before.level:
        if after.level == CONVENTION and again:
            parts.append(
                ngettext(
                    "reads %(clues)s by its conventions again",
                    "read %(clues)s by their conventions again",
                    voice.count,
                )
                % {"clues": clues}
            )
        elif after.level == CONVENTION:
            parts.append(
                ngettext(
                    "reads %(clues)s by its conventions from now on",
                    "read %(clues)s by their conventions from now on",
                    voice.count,
                )
                % {"clues": clues}
            )
        elif after.level == LITERAL:
            parts.append(
                ngettext(
                    "reads %(clues)s literally from now on",
                    "read %(clues)s literally from now on",
                    voice.count,
                )
                % {"clues": clues}
            )
        else:
            parts.append(_no_longer_by_conventions(voice, seat))
    if after.literal_reader != before.literal_reader:
        if after.literal_reader:
            parts.append(_no_longer_expects_reading(voice, seat))
        else:
            parts.append(_expects_reading_again(voice, seat))
    return _bot_does(voice, parts)


def _did(voice: Voice, change: Change) -> str:
    """ "Alice played red 3", "you discarded blue 1"."""
    card = _card(change.card)
    if voice.you(change.actor):
        done = {
            "played": _("you played %(card)s"),
            "misplayed": _("you misplayed %(card)s"),
            "discarded": _("you discarded %(card)s"),
        }[change.verb]
        return done % {"card": card}
    done = {
        "played": _("%(name)s played %(card)s"),
        "misplayed": _("%(name)s misplayed %(card)s"),
        "discarded": _("%(name)s discarded %(card)s"),
    }[change.verb]
    return done % {"name": voice.name(change.actor), "card": card}


def _ignored(voice: Voice, change: Change) -> str:
    """ "Alice discarded although a clue had shown Alice's card in slot 2 to be playable"."""
    actor = change.actor
    if change.verb == "discarded":
        if voice.you(actor):
            done = _("you discarded")
        else:
            done = _("%(name)s discarded") % {"name": voice.name(actor)}
    elif voice.you(actor):
        done = _("you gave %(target)s a clue") % {"target": voice.name(change.target)}
    elif voice.you(change.target):
        done = _("%(name)s gave you a clue") % {"name": voice.name(actor)}
    else:
        done = _("%(name)s gave %(target)s a clue") % {
            "name": voice.name(actor),
            "target": voice.name(change.target),
        }
    slots = ", ".join(map(str, change.slots))
    if not change.slots:
        shown = _("a card")
    elif voice.you(actor):
        shown = ngettext(
            "your card in slot %(slots)s", "your cards in slots %(slots)s", len(change.slots)
        ) % {"slots": slots}
    else:
        shown = ngettext(
            "%(name)s's card in slot %(slots)s",
            "%(name)s's cards in slots %(slots)s",
            len(change.slots),
        ) % {"name": voice.name(actor), "slots": slots}
    return _("%(done)s although a clue had shown %(shown)s to be playable") % {
        "done": done,
        "shown": shown,
    }


def reason(voice: Voice, change: Change) -> str:
    """Why, in public terms: "Bob misplayed blue 3, which Alice's clue had marked as
    playable"."""
    if change.cause == "implied_play":
        card = _card(change.card)
        if voice.you(change.actor):
            return _("you played %(card)s, which the clues had only implied was playable") % {
                "card": card
            }
        return _("%(name)s played %(card)s, which the clues had only implied was playable") % {
            "name": voice.name(change.actor),
            "card": card,
        }
    if change.cause == "ignored_play":
        return _ignored(voice, change)
    values = {"did": _did(voice, change), "clue": voice.clue_of(change.seat)}
    if change.verb == "misplayed" and change.focus == "play":
        return _("%(did)s, which %(clue)s had marked as playable") % values
    return _("%(did)s, not the card %(clue)s on it had meant") % values


def remark(voice: Voice, change: Change, again: bool = False) -> str:
    """The history's sentence for one change."""
    said = _("%(headline)s: %(reason)s.") % {
        "headline": headline(voice, change.seat, change.before, change.after, again),
        "reason": reason(voice, change),
    }
    return _in_french_form(said)


def status(voice: Voice, line: Line) -> str | None:
    """A stance below the conventions in words, as the table says it: what differs from where
    every person starts, or from the conventions they had reached. None when nothing does
    (trust lost, then regained up to where everyone starts): no news for the table."""
    parts = []
    if line.stance.level == LITERAL:
        parts.append(
            ngettext("reads %(clues)s literally", "read %(clues)s literally", voice.count)
            % {"clues": voice.clues_of(line.seat)}
        )
    elif line.was_conventional:
        parts.append(_no_longer_by_conventions(voice, line.seat))
    if line.stance.literal_reader:
        parts.append(_no_longer_expects_reading(voice, line.seat))
    if not parts:
        return None
    said = _("%(state)s (since turn %(turn)s).") % {
        "state": _bot_does(voice, parts),
        "turn": line.since + 1,
    }
    return _in_french_form(said)


def sentences(
    options: dict,
    history: Sequence[dict],
    names: Sequence[str],
    bots: Sequence[int],
    bot_seats: Collection[int],
    viewer: int | None = None,
) -> tuple[dict[int, list[str]], list[str]]:
    """The remarks by history turn, and the table's lines (games.bots.beliefs.told), in the
    active language."""
    by_turn, lines = told(options, history, bots, bot_seats)
    voice = Voice(names, bots, viewer)
    remarks = {
        turn: [remark(voice, said.change, said.again) for said in found]
        for turn, found in by_turn.items()
    }
    return remarks, [text for text in (status(voice, line) for line in lines) if text]
