"""The H-Group bot's reasons (games/bots/hgroup/level1.py) in the reader's language (issue 29).

The bot words each reason as one English sentence from a few fixed shapes ("Play slot 2: it
was clued red as a play clue on turn 5 (it can only be red 1)"); the bot's code stays as it
is, and this layer reads a sentence back into its parts (the slot, the names, the cards, the
turn) and words the same shape in German or French. A sentence of a shape not known here
stays English, and the review marks it so (lang="en"): ``in_words`` says whether it managed.

Nothing here reads the game: only the sentence, which the bot wrote from the mover's view.
"""

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import wording
from games.engine.cards import SUITS

# The context of "; " in the review's template too (templates/games/_review.html).
CLAUSES = "between two clauses of a sentence"
CARD = r"(?:{suits}) [1-5]".format(suits="|".join(SUITS))


def _card(text: str) -> str:
    """'red 3' as the language names it ('rot 3'); 'red 1 or green 1' likewise."""
    return _(" or ").join(wording.card_name(*_identity(part)) for part in text.split(" or "))


def _identity(text: str) -> tuple[str, int]:
    suit, rank = text.rsplit(" ", 1)
    return suit, int(rank)


def _value(text: str) -> str:
    """A clue's value as the bot names it ('red', '3')."""
    return text if text.isdigit() else wording.colour_name(text)


class _Reader:
    """The patterns of one review: the players' names are known, so that a name with spaces
    or an apostrophe is read whole."""

    def __init__(self, names: Sequence[str]) -> None:
        known = sorted({re.escape(name) for name in names if name}, key=len, reverse=True)
        self.who = "(?:{})".format("|".join([*known, r"seat \d+", r"player \d+"]))
        self.shapes: list[tuple[re.Pattern, Callable[[dict], str]]] = [
            (self._compile(pattern), word) for pattern, word in self._patterns()
        ]

    def _compile(self, pattern: str) -> re.Pattern:
        return re.compile(
            pattern.replace("WHO", self.who)
            .replace("CARDS", rf"{CARD}(?: or {CARD})*")
            .replace("CARD", CARD)
        )

    def _patterns(self) -> list[tuple[str, Callable[[dict], str]]]:
        head = r"Clue (?P<who>WHO) (?P<value>\S+) \(slots? (?P<slots>[\d, ]+)\)"
        known = r"(?: \(it can only be (?P<known>CARDS)\))?"
        return [
            # -- plays
            (
                r"Play slot (?P<slot>\d+): the clues prove it plays now \((?P<cards>CARDS)\)",
                lambda p: _("Play slot %(slot)s: the clues prove it plays now (%(cards)s)") % p,
            ),
            (
                r"Play slot (?P<slot>\d+): the deck is empty and it is at least 50% likely to "
                r"play",
                lambda p: (
                    _(
                        "Play slot %(slot)s: the deck is empty and it is at least 50%% likely to "
                        "play"
                    )
                    % p
                ),
            ),
            (
                rf"Play slot (?P<slot>\d+): finessed by (?P<giver>WHO|a player)'s clue on turn "
                rf"(?P<turn>\d+), a blind play{known}",
                lambda p: (
                    _(
                        "Play slot %(slot)s: finessed by %(giver)s's clue on turn %(turn)s, "
                        "a blind play%(known)s"
                    )
                    % p
                ),
            ),
            (
                rf"Play slot (?P<slot>\d+): it was clued (?P<value>\S+) as a play clue on turn "
                rf"(?P<turn>\d+){known}",
                lambda p: (
                    _(
                        "Play slot %(slot)s: it was clued %(value)s as a play clue on turn "
                        "%(turn)s%(known)s"
                    )
                    % p
                ),
            ),
            (
                rf"Play slot (?P<slot>\d+): it was clued (?P<value>\S+) as a save on turn "
                rf"(?P<turn>\d+), now playable{known}",
                lambda p: (
                    _(
                        "Play slot %(slot)s: it was clued %(value)s as a save on turn %(turn)s, "
                        "now playable%(known)s"
                    )
                    % p
                ),
            ),
            (
                rf"Play slot (?P<slot>\d+): it was clued (?P<value>\S+) on turn (?P<turn>\d+); "
                rf"all it can be plays now{known}",
                lambda p: (
                    _(
                        "Play slot %(slot)s: it was clued %(value)s on turn %(turn)s; all it can "
                        "be plays now%(known)s"
                    )
                    % p
                ),
            ),
            (
                rf"Play slot (?P<slot>\d+): all it can be plays now{known}",
                lambda p: _("Play slot %(slot)s: all it can be plays now%(known)s") % p,
            ),
            # -- discards
            (
                r"Discard slot (?P<slot>\d+): known trash \(the clues and the board leave "
                r"nothing it is needed for\)",
                lambda p: (
                    _(
                        "Discard slot %(slot)s: known trash (the clues and the board leave nothing "
                        "it is needed for)"
                    )
                    % p
                ),
            ),
            (
                r"Discard chop \(slot (?P<slot>\d+)\): nothing to play, and no clue worth a "
                r"token",
                lambda p: (
                    _("Discard chop (slot %(slot)s): nothing to play, and no clue worth a token")
                    % p
                ),
            ),
            (
                r"Discard slot (?P<mine>\d+): a Sarcastic Discard: it is the other copy of "
                r"(?P<target>WHO)'s (?P<card>CARD) \(slot (?P<slot>\d+)\), so (?P=target) learns "
                r"that card is it",
                lambda p: (
                    _(
                        "Discard slot %(mine)s: a Sarcastic Discard: it is the other copy of "
                        "%(focus)s, so %(target)s learns that card is it"
                    )
                    % p
                ),
            ),
            (
                r"Discard slot (?P<slot>\d+): its hand is locked \(every card clued\), and this "
                r"card is the least likely to be a last copy",
                lambda p: (
                    _(
                        "Discard slot %(slot)s: its hand is locked (every card clued), and this "
                        "card is the least likely to be a last copy"
                    )
                    % p
                ),
            ),
            (
                r"no clue token and no discard allowed: a last try",
                lambda p: _("no clue token and no discard allowed: a last try"),
            ),
            # -- clues: what the table reads in them
            (
                rf"{head}: it touches no new card \(a stall, it tells nobody to play\)",
                lambda p: (
                    _("%(head)s: it touches no new card (a stall, it tells nobody to play)") % p
                ),
            ),
            (
                rf"{head}: it touches no new card, but shows (?P<target>WHO)'s (?P<card>CARD) "
                rf"\(slot (?P<slot>\d+)\) plays now",
                lambda p: _("%(head)s: it touches no new card, but shows %(focus)s plays now") % p,
            ),
            (
                rf"{head}: a fix clue: (?P<target>WHO)'s (?P<card>CARD) \(slot (?P<slot>\d+)\) "
                rf"is not playable, as (?P=target) thought",
                lambda p: (
                    _("%(head)s: a fix clue: %(focus)s is not playable, as %(target)s thought") % p
                ),
            ),
            (
                rf"{head}: a fix clue that tells nothing new: (?P<target>WHO)'s (?P<card>CARD) "
                rf"\(slot (?P<slot>\d+)\) is bad",
                lambda p: _("%(head)s: a fix clue that tells nothing new: %(focus)s is bad") % p,
            ),
            (
                rf"{head}: a fix clue",
                lambda p: _("%(head)s: a fix clue") % p,
            ),
            (
                rf"{head}: a Trash Chop Move: it keeps (?P<target>WHO)'s (?P<card>CARD) \(slot "
                rf"(?P<slot>\d+)\) from the discard pile",
                lambda p: (
                    _("%(head)s: a Trash Chop Move: it keeps %(focus)s from the discard pile") % p
                ),
            ),
            (
                rf"{head}: a Trash Chop Move on (?P<count>\d+) cards: it keeps (?P<target>WHO)'s "
                rf"(?P<card>CARD) \(slot (?P<slot>\d+)\) and the others from the discard pile",
                lambda p: (
                    _(
                        "%(head)s: a Trash Chop Move on %(count)s cards: it keeps %(focus)s and "
                        "the others from the discard pile"
                    )
                    % p
                ),
            ),
            (
                rf"{head}: a 5's Chop Move: it keeps (?P<target>WHO)'s (?P<card>CARD) \(slot "
                rf"(?P<slot>\d+)\) from the discard pile",
                lambda p: (
                    _("%(head)s: a 5's Chop Move: it keeps %(focus)s from the discard pile") % p
                ),
            ),
            (
                rf"{head}: new facts about (?P=who)'s cards",
                lambda p: _("%(head)s: new facts about %(who)s's cards") % p,
            ),
            (
                rf"{head}: (?P=who) reads clues for their facts alone; it tells of "
                rf"(?P<target>WHO)'s (?P<card>CARD) \(slot (?P<slot>\d+)\)",
                lambda p: (
                    _("%(head)s: %(who)s reads clues for their facts alone; it tells of %(focus)s")
                    % p
                ),
            ),
            (
                rf"Save (?P<target>WHO)'s 5 \((?P<card>CARD)\)(?P<chop> on chop)?: {head}",
                lambda p: _("Save %(target)s's 5 (%(card)s)%(chop)s: %(head)s") % p,
            ),
            (
                rf"Save (?P<target>WHO)'s (?P<card>CARD)(?P<chop> on chop)?, the last copy: "
                rf"{head}",
                lambda p: _("Save %(target)s's %(card)s%(chop)s, the last copy: %(head)s") % p,
            ),
            (
                rf"Save (?P<target>WHO)'s (?P<card>CARD)(?P<chop> on chop)? \(a 2 save\): {head}",
                lambda p: _("Save %(target)s's %(card)s%(chop)s (a 2 save): %(head)s") % p,
            ),
            (
                rf"Save (?P<target>WHO)'s (?P<card>CARD)(?P<chop> on chop)?: {head}",
                lambda p: _("Save %(target)s's %(card)s%(chop)s: %(head)s") % p,
            ),
            (
                rf"{head}: a play clue on (?P<target>WHO)'s (?P<card>CARD) \(slot "
                rf"(?P<slot>\d+)\)(?:, after (?P<after>.+))?",
                lambda p: _("%(head)s: a play clue on %(focus)s%(after)s") % p,
            ),
            (
                rf"{head}: new facts about (?P<target>WHO)'s (?P<card>CARD) \(slot "
                rf"(?P<slot>\d+)\), neither a play nor a save",
                lambda p: _("%(head)s: new facts about %(focus)s, neither a play nor a save") % p,
            ),
        ]

    def connection(self, text: str) -> str | None:
        """One of the cards a play clue waits for ('a finesse on Bob's slot 1 (red 1)')."""
        holder = rf"(?:its own|(?P<holder>{self.who})'s)"
        for pattern, message in (
            (rf"a finesse on {holder} slot (?P<slot>\d+) \((?P<card>{CARD})\)", "finesse"),
            (rf"a prompt on {holder} slot (?P<slot>\d+) \((?P<card>{CARD})\)", "prompt"),
            (rf"{holder} clued (?P<card>{CARD}) first", "first"),
        ):
            found = re.fullmatch(pattern, text)
            if not found:
                continue
            words = {
                "card": _card(found["card"]),
                "slot": found["slot"] if "slot" in found.re.groupindex else "",
            }
            own = found["holder"] is None
            words["holder"] = found["holder"] or ""
            if message == "finesse":
                return (
                    _("a finesse on its own slot %(slot)s (%(card)s)")
                    if own
                    else _("a finesse on %(holder)s's slot %(slot)s (%(card)s)")
                ) % words
            if message == "prompt":
                return (
                    _("a prompt on its own slot %(slot)s (%(card)s)")
                    if own
                    else _("a prompt on %(holder)s's slot %(slot)s (%(card)s)")
                ) % words
            return (
                _("its own clued %(card)s first") if own else _("%(holder)s's clued %(card)s first")
            ) % words
        return None

    def meaning(self, text: str) -> str | None:
        for pattern, word in self.shapes:
            found = pattern.fullmatch(text)
            if found:
                parts = self.parts(found)
                if parts is None:
                    return None
                return word(parts)
        return None

    def parts(self, found: re.Match) -> dict | None:
        parts = {key: value or "" for key, value in found.groupdict().items()}
        if "value" in parts:
            parts["value"] = _value(parts["value"])
        for key in ("cards", "known", "card"):
            if parts.get(key):
                parts[key] = _card(parts[key])
        if parts.get("known"):
            parts["known"] = _(" (it can only be %(cards)s)") % {"cards": parts["known"]}
        if parts.get("chop"):
            parts["chop"] = _(" on chop")
        if parts.get("giver") == "a player":
            parts["giver"] = _("a player")
        if "slots" in parts:
            count = len(parts["slots"].split(", "))
            parts["head"] = _head(parts["who"], parts["value"], parts["slots"], count)
        if parts.get("card") and parts.get("target") is not None and "slot" in parts:
            parts["focus"] = _("%(target)s's %(card)s (slot %(slot)s)") % parts
        if parts.get("after"):
            links = [self.connection(link) for link in parts["after"].split("; ")]
            if None in links:
                return None
            parts["after"] = _(", after %(links)s") % {"links": pgettext(CLAUSES, "; ").join(links)}
        return parts


@lru_cache(maxsize=64)
def _reader(names: tuple[str, ...]) -> "_Reader":
    """One table's patterns, compiled once for all the reasons of its review."""
    return _Reader(names)


def _head(who: str, value: str, slots: str, count: int) -> str:
    if count == 1:
        return _("Clue %(who)s %(value)s (slot %(slots)s)") % {
            "who": who,
            "value": value,
            "slots": slots,
        }
    return _("Clue %(who)s %(value)s (slots %(slots)s)") % {
        "who": who,
        "value": value,
        "slots": slots,
    }


# Why a clue now, beyond its meaning (games/bots/hgroup/level1.py's decide).
WHYS: list[tuple[str, Callable[[dict], str]]] = [
    (
        r"(?P<who>[^;]+) has nothing else to do but discard that chop",
        lambda p: _("%(who)s has nothing else to do but discard that chop") % p,
    ),
    (
        r"in the Early Game a clue comes before any discard",
        lambda p: _("in the Early Game a clue comes before any discard"),
    ),
    (
        r"(?P<count>\d+) clue tokens to spare",
        lambda p: _("%(count)s clue tokens to spare") % p,
    ),
    (
        r"no discard allowed at 8 clue tokens",
        lambda p: _("no discard allowed at 8 clue tokens"),
    ),
    (
        r"its own chop may be a 5 or a last copy",
        lambda p: _("its own chop may be a 5 or a last copy"),
    ),
    (
        r"its hand is locked \(every card clued\): a clue rather than discard one",
        lambda p: _("its hand is locked (every card clued): a clue rather than discard one"),
    ),
    (
        r"a clue has just moved its chop onto a card that may be a last copy",
        lambda p: _("a clue has just moved its chop onto a card that may be a last copy"),
    ),
    (
        r"a stall: no discard allowed at 8 clue tokens",
        lambda p: _("a stall: no discard allowed at 8 clue tokens"),
    ),
    (
        r"the Urgency Principle: a save that cannot wait comes before its blind play, which "
        r"waits a turn",
        lambda p: _(
            "the Urgency Principle: a save that cannot wait comes before its blind play, which "
            "waits a turn"
        ),
    ),
    (
        rf"an Order Chop Move: this 1 out of order tells (?P<target>[^;]+?) to keep their "
        rf"chop, (?P=target)'s (?P<card>{CARD}) \(slot (?P<slot>\d+)\)",
        lambda p: (
            _(
                "an Order Chop Move: this 1 out of order tells %(target)s to keep their chop, "
                "%(focus)s"
            )
            % {
                "target": p["target"],
                "focus": _("%(target)s's %(card)s (slot %(slot)s)")
                % {**p, "card": _card(p["card"])},
            }
        ),
    ),
]


def in_words(reason: str, names: Sequence[str]) -> tuple[str, bool]:
    """The bot's reason in the active language, and whether it is (False: the English
    sentence, of a shape this layer does not know)."""
    if wording.english():
        return reason, True
    reader = _reader(tuple(names))
    meaning = reader.meaning(reason)
    if meaning is not None:
        return meaning, True
    for pattern, word in WHYS:
        found = re.search(rf"; (?:{pattern})$", reason)
        if found:
            meaning = reader.meaning(reason[: found.start()])
            if meaning is not None:
                return _("%(meaning)s; %(why)s") % {
                    "meaning": meaning,
                    "why": word(found.groupdict()),
                }, True
    return reason, False
