"""The command language of a reply to a your-turn email: "play 3", "clue Bob red", "help",
"chat: ...". Pure Python on the engine's per-seat view (``games.engine.view_for``): of Django,
only gettext, for the wording of its refusals and help in the active language.

It only resolves words into an engine action (slot -> card id, name -> seat, word -> colour
or rank). Whether the move is legal now is the engine's business when the move is applied,
so its reason reaches the player in the same words as on the web page. Two refusals are
given here: NotUnderstood, no command in the words (no verb, no slot number, a word that is
no colour or rank); and Impossible, a command that was read but names what is not there (no
such slot, player, seat, rank or colour in this game, or a clue to oneself), so no action
is left to ask the engine about.

The commands of English, German and French are all read, whatever the reader's language
(issue 29): "spiele 3", "wirf 1 ab", "hinweis Bob rot", "joue 3", "défausse 1", "indice Bob
rouge", "hilfe", "aide". The few words that mean different things in different languages
(the colour letters "b" and "g") are read in the reader's language, which the caller passes;
the refusals, summaries and help are worded in the active language (translation.override).

    reply = read_reply("Play 3.\\nchat: sorry!", view)   # NotUnderstood(reason) if not
    reply.action   # {"type": "play", "card_id": 7}; reply.summary == "play slot 3"
"""

from __future__ import annotations

import re
import string
import unicodedata
from dataclasses import dataclass, field

from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from games.engine import SUIT_LETTERS, SUITS

MULTICOLOUR = SUITS[5]
LANGUAGES = ("en", "de", "fr")
LANGUAGE_NAMES = {
    "en": gettext_noop("English"),
    "de": gettext_noop("German"),
    "fr": gettext_noop("French"),
}
# Around a word, not inside it: "#3", "3.", "Bob:", "“red”" read as 3, Bob, red.
PUNCTUATION = string.punctuation + "“”‘’«»…–—"
CHAT = re.compile(r"^\s*chat\s*:", re.IGNORECASE)


def _key(word: str) -> str:
    """A word as the vocabularies are looked up: in lower case, without accents ("Défausse"
    and "defausse" are one word; "weiß" is "weiss", "grün" is "grun")."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _keyed(words: dict) -> dict:
    return {_key(word): meaning for word, meaning in words.items()}


def _ranks(*spellings: tuple[str, ...]) -> dict[str, int]:
    return {word: rank for rank, words in enumerate(spellings, start=1) for word in words}


@dataclass(frozen=True)
class Vocabulary:
    """One language's words for the commands. Every language's words are read whatever the
    reader's language; where two languages give one word different meanings (a colour
    letter: "b" is blue in English and German, blanc in French), the reader's wins."""

    play: str  # the words the examples are written with
    discard: str
    clue: str
    now: str  # "play 3 now": the slot as the hand is now (after a rearrangement)
    colour_names: dict[str, str]  # suit -> its name in this language, for the examples
    verbs: dict[str, str]  # word -> "play", "discard" or "clue"
    # Verbs with a particle: "wirf 1 ab". word -> (verb, particles, whether one is needed).
    separable: dict[str, tuple[str, frozenset[str], bool]] = field(default_factory=dict)
    help: frozenset[str] = frozenset()
    colours: dict[str, str] = field(default_factory=dict)  # names, forms and letters -> suit
    ranks: dict[str, int] = field(default_factory=dict)
    fillers: frozenset[str] = frozenset()  # before a slot number: "play the card 3"
    seats: tuple[str, ...] = ()  # before a seat number: "clue seat 3 red"

    def __post_init__(self) -> None:
        for name in ("verbs", "separable", "colours", "ranks"):
            object.__setattr__(self, name, _keyed(getattr(self, name)))
        for name in ("help", "fillers"):
            object.__setattr__(self, name, frozenset(map(_key, getattr(self, name))))


ENGLISH = Vocabulary(
    play="play",
    discard="discard",
    clue="clue",
    now="now",
    colour_names={suit: suit for suit in SUITS},
    verbs={"play": "play", "discard": "discard", "clue": "clue", "hint": "clue", "tell": "clue"},
    help=frozenset({"help", "commands"}),  # and a line of "?" alone, in every language
    colours={
        **{suit: suit for suit in SUITS},
        **{letter.lower(): suit for letter, suit in zip(SUIT_LETTERS, SUITS, strict=True)},
        "multicolor": MULTICOLOUR,
        "rainbow": MULTICOLOUR,
        "multi": MULTICOLOUR,
    },
    ranks=_ranks(
        ("one", "ones"), ("two", "twos"), ("three", "threes"), ("four", "fours"), ("five", "fives")
    ),
    fillers=frozenset({"slot", "card", "the"}),
    seats=("seat", "player", "p"),
)
# The German edition: "Farbrausch" is its multicolour variant, whose sixth colour is "bunt".
# Its letters are the names' first letters, two where two names share one (gelb, grün;
# blau, bunt): "g" alone is gelb, "b" alone blau.
GERMAN = Vocabulary(
    play="spiele",
    discard="abwerfen",
    clue="hinweis",
    now="jetzt",
    colour_names={
        "red": "rot",
        "yellow": "gelb",
        "green": "grün",
        "blue": "blau",
        "white": "weiß",
        MULTICOLOUR: "bunt",
    },
    verbs={
        "spiele": "play",
        "spiel": "play",
        "spielen": "play",
        "ausspielen": "play",
        "abwerfen": "discard",
        "ablegen": "discard",
        "hinweis": "clue",
        "tipp": "clue",
    },
    separable={
        "spiele": ("play", frozenset({"aus"}), False),
        "spiel": ("play", frozenset({"aus"}), False),
        "wirf": ("discard", frozenset({"ab", "weg"}), True),
        "werfe": ("discard", frozenset({"ab", "weg"}), True),
        "werf": ("discard", frozenset({"ab", "weg"}), True),
        "lege": ("discard", frozenset({"ab"}), True),
        "leg": ("discard", frozenset({"ab"}), True),
    },
    help=frozenset({"hilfe", "befehle"}),
    colours={
        **{form: "red" for form in ("rot", "rote", "roten")},
        **{form: "yellow" for form in ("gelb", "gelbe", "gelben")},
        **{form: "green" for form in ("grün", "grüne", "grünen", "gruen", "gruene", "gruenen")},
        **{form: "blue" for form in ("blau", "blaue", "blauen")},
        **{form: "white" for form in ("weiß", "weiße", "weißen", "weiss", "weisse", "weissen")},
        **{
            form: MULTICOLOUR
            for form in ("bunt", "bunte", "bunten", "mehrfarbig", "mehrfarbige", "farbrausch")
        },
        "regenbogen": MULTICOLOUR,
        "r": "red",
        "g": "yellow",
        "ge": "yellow",
        "gr": "green",
        "b": "blue",
        "bl": "blue",
        "w": "white",
        "m": MULTICOLOUR,
        "bu": MULTICOLOUR,
    },
    ranks=_ranks(
        ("eins", "einsen", "einser"),
        ("zwei", "zweien", "zweier"),
        ("drei", "dreien", "dreier"),
        ("vier", "vieren", "vierer"),
        ("fünf", "fünfen", "fünfer", "fuenf", "fuenfen", "fuenfer"),
    ),
    fillers=frozenset({"karte", "die", "platz"}),
    seats=("platz", "spieler", "spielerin", "sitz"),
)
# The French edition: "b" alone is blanc (white), as its players write it; bleu is "bl".
FRENCH = Vocabulary(
    play="joue",
    discard="défausse",
    clue="indice",
    now="maintenant",
    colour_names={
        "red": "rouge",
        "yellow": "jaune",
        "green": "vert",
        "blue": "bleu",
        "white": "blanc",
        MULTICOLOUR: "multicolore",
    },
    verbs={
        "joue": "play",
        "jouer": "play",
        "jouez": "play",
        "défausse": "discard",
        "défausser": "discard",
        "défaussez": "discard",
        "indice": "clue",
    },
    help=frozenset({"aide", "commandes"}),
    colours={
        "rouge": "red",
        "jaune": "yellow",
        "vert": "green",
        "verte": "green",
        "bleu": "blue",
        "bleue": "blue",
        "blanc": "white",
        "blanche": "white",
        "multicolore": MULTICOLOUR,
        "arc-en-ciel": MULTICOLOUR,
        "r": "red",
        "j": "yellow",
        "v": "green",
        "b": "white",
        "bc": "white",
        "bl": "blue",
        "m": MULTICOLOUR,
    },
    ranks=_ranks(("un", "une"), ("deux",), ("trois",), ("quatre",), ("cinq",)),
    fillers=frozenset({"la", "le", "carte", "case", "position"}),
    seats=("place", "joueur", "joueuse", "siege"),
)
VOCABULARIES = {"en": ENGLISH, "de": GERMAN, "fr": FRENCH}
# A number with a plural or German ending: "4s", "4er" (a Vierer).
RANK_NUMBER = re.compile(r"^(\d+)(?:s|er)?$")
SEAT = re.compile(
    rf"^(?:{'|'.join(seat for vocabulary in VOCABULARIES.values() for seat in vocabulary.seats)})?"
    r"\s*(\d+)$"
)
# French puts "à" before the player ("indice à Bob rouge"); a bare "a" is a name's start.
BEFORE_PLAYER = {"à"}


def reader_language(language: str | None) -> str:
    """One of LANGUAGES: "de-AT" is German; an unknown language (or none) is English."""
    base = (language or "").lower().split("-")[0].split("_")[0]
    return base if base in VOCABULARIES else "en"


def _meanings(kind: str, word: str) -> dict[str, object]:
    """What ``word`` means in each language that has it: {"en": "blue", "fr": "white"}."""
    key = _key(word)
    return {
        language: table[key]
        for language, vocabulary in VOCABULARIES.items()
        if key in (table := getattr(vocabulary, kind))
    }


def _lookup(kind: str, word: str, language: str):
    """What ``word`` means (None if nothing), in the reader's ``language`` where languages
    differ. Where they differ and the reader's has no such word, nothing is guessed."""
    meanings = _meanings(kind, word)
    if len(set(meanings.values())) <= 1:
        return next(iter(meanings.values()), None)
    if language in meanings:
        return meanings[language]
    listed = " and ".join(
        _("%(meaning)s in %(language)s")
        % {"meaning": _shown(meaning), "language": _(LANGUAGE_NAMES[other])}
        for other, meaning in meanings.items()
    )
    raise NotUnderstood(_(WRITE_THE_NAME[kind]) % {"word": word, "meanings": listed})


WRITE_THE_NAME = {
    "colours": gettext_noop("“%(word)s” is %(meanings)s: write the colour's name."),
    "ranks": gettext_noop("“%(word)s” is %(meanings)s: write the rank's name."),
    "verbs": gettext_noop("“%(word)s” is %(meanings)s: write the command's name."),
    "separable": gettext_noop("“%(word)s” is %(meanings)s: write the command's name."),
}


@dataclass(frozen=True)
class Reply:
    action: dict | None  # the move asked for, in the engine's dict format
    summary: str  # how the move reads back: "play slot 3", "clue Bob: red" ("" if none)
    wants_help: bool
    chat: str  # "" if none


class NotUnderstood(Exception):
    """The reply holds no command this module can read; ``reason`` says why, to the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Impossible(NotUnderstood):
    """The command was read, but names a slot, player, seat, rank or colour this game does
    not have (or the player themself): a move refused, with ``reason``, not a reply left
    unread. A subclass, so that whoever only asks "was there an action?" catches both."""


# -- reading a reply -------------------------------------------------------------------------


def read_reply(text: str, view: dict, language: str | None = "en") -> Reply:
    """The command (first non-empty line) and the chat ("chat:" to the end) of a reply.

    The commands of every language in LANGUAGES are read; ``language`` is the reader's (the
    seat's player's), in which a word that means different things in different languages is
    taken ("b" is blue in English and German, white in French)."""
    language = reader_language(language)
    lines = (text or "").splitlines()
    chat = ""
    for index, line in enumerate(lines):
        if CHAT.match(line):
            # Everything from "chat:" to the end is chat, on one line.
            chat = " ".join(" ".join([CHAT.sub("", line, count=1), *lines[index + 1 :]]).split())
            lines = lines[:index]
            break
    # Lines quoted with ">" are the email we sent (its example commands among them), never
    # the player's own words, even when the reply parser let them through.
    commands = [
        line.strip() for line in lines if line.strip() and not line.lstrip().startswith(">")
    ]
    if not commands:
        if chat:
            return Reply(action=None, summary="", wants_help=False, chat=chat)
        raise NotUnderstood(_("The reply was empty."))
    # Only the first line counts: what follows is often a signature the parser missed.
    line = commands[0]
    words = _words(line)
    if (words and _is_help(words[0])) or set(line) <= {"?", " "}:
        return Reply(action=None, summary="", wants_help=True, chat=chat)
    verb, args = _verb(words, line, language)
    if verb == "clue":
        action, summary = _clue(args, line, view, language)
    else:
        action, summary = _card(verb, words[0], args, line, view, language)
    return Reply(action=action, summary=summary, wants_help=False, chat=chat)


def _words(text: str) -> list[str]:
    """Lower-case words with the punctuation around each taken off; empty ones dropped."""
    text = unicodedata.normalize("NFC", text)
    words = (word.strip(PUNCTUATION) for word in text.casefold().split())
    return [word for word in words if word]


def _is_help(word: str) -> bool:
    return any(_key(word) in vocabulary.help for vocabulary in VOCABULARIES.values())


def _verb(words: list[str], line: str, language: str) -> tuple[str, list[str]]:
    """The verb of the command ("play", "discard", "clue") and the words after it, without
    the particle of a German separable verb ("wirf 1 ab")."""
    if not words:
        raise NotUnderstood(_not_a_command(line))
    first, args = words[0], words[1:]
    verb = _lookup("verbs", first, language)
    separable = _lookup("separable", first, language)
    if separable is not None:
        verb, particles, needed = separable
        found = [index for index, word in enumerate(args) if word in particles]
        if found:
            args = args[: found[-1]] + args[found[-1] + 1 :]
        elif needed:
            particle = sorted(particles)[0]
            raise NotUnderstood(
                _(
                    "%(line)s is not a command: write “%(verb)s”, a slot number and "
                    "“%(particle)s”, as in “%(verb)s 1 %(particle)s”."
                )
                % {"line": _quoted(line), "verb": first, "particle": particle}
            )
    if verb is None:
        raise NotUnderstood(_not_a_command(line))
    return verb, args


def _not_a_command(line: str) -> str:
    return _("%(line)s is not a command. Reply “%(help)s” for the commands.") % {
        "line": _quoted(line),
        "help": _("help"),
    }


def _active() -> str:
    """The language the refusals and help are worded in (the active one)."""
    return reader_language(get_language())


def _shown(meaning: object) -> str:
    """A colour (a suit's key) in the active language's word; anything else as it is."""
    names = VOCABULARIES[_active()].colour_names
    return names.get(meaning, str(meaning)) if isinstance(meaning, str) else str(meaning)


def _quoted(line: str) -> str:
    return quote(line if len(line) <= 60 else line[:57] + "...")


def quote(text: str) -> str:
    """``text`` in the active language's quotation marks: “…”, „…“, « … »."""
    return _("“%(text)s”") % {"text": text}


def _own_cards(view: dict) -> list[dict]:
    return view["hands"][view["viewer"]]["cards"]


def _is_now(word: str) -> bool:
    return any(_key(word) == _key(vocabulary.now) for vocabulary in VOCABULARIES.values())


def _is_filler(word: str) -> bool:
    return any(_key(word) in vocabulary.fillers for vocabulary in VOCABULARIES.values())


def _card_command(written: str, slot: int | str, language: str, *, now: bool = False) -> str:
    """A play or discard as the player wrote its verb ("wirf"), with this slot: "wirf 2 ab",
    "joue 2 maintenant". The word for "now" is in the verb's language (else the reader's)."""
    meanings = _meanings("verbs", written) or _meanings("separable", written)
    own = language if language in meanings else next(iter(meanings), language)
    words = [written, str(slot)]
    if now:
        words.append(VOCABULARIES[own].now)
    separable = VOCABULARIES[own].separable.get(_key(written))
    if separable is not None and separable[2]:
        words.append(sorted(separable[1])[0])
    return " ".join(words)


def _card(
    verb: str, written: str, args: list[str], line: str, view: dict, language: str
) -> tuple[dict, str]:
    """play/discard: a slot as the email shows it (1 = newest, on the left). ``written`` is
    the verb as the player wrote it, for the refusals.

    With the option of rearranging hands, the slots of a hand rearranged during this turn are
    not the slots an email of this turn may show: such a command is refused, unless it says
    "now" ("play 3 now": slot 3 as the hand is now)."""
    now = any(_is_now(word) for word in args)
    args = [word for word in args if not _is_now(word)]
    while args and _is_filler(args[0]):
        args = args[1:]
    cards = _own_cards(view)
    # isdecimal, not isdigit: "²" is a digit that int() does not read.
    if len(args) != 1 or not args[0].isdecimal():
        raise NotUnderstood(
            _("%(line)s is not a command: write “%(verb)s” and a slot number, as in “%(example)s”.")
            % {
                "line": _quoted(line),
                "verb": written,
                "example": _card_command(written, 1, language),
            }
        )
    slot = int(args[0])
    if not cards:
        raise Impossible(
            _("You have no cards to play.")
            if verb == "play"
            else _("You have no cards to discard.")
        )
    if not 1 <= slot <= len(cards):
        raise Impossible(
            _("There is no slot %(slot)s: your hand has one card, in slot 1.") % {"slot": slot}
            if len(cards) == 1
            else _("There is no slot %(slot)s: your hand has slots 1 to %(size)s.")
            % {"slot": slot, "size": len(cards)}
        )
    if not now and _rearranged_this_turn(view):
        raise Impossible(
            _(
                "Your hand was rearranged during this turn, so slot %(slot)s may not hold the "
                "card you saw there. Your hand as it is now is below: to %(verb)s the card that "
                "is in slot %(slot)s now, reply “%(command)s”."
            )
            % {
                "slot": slot,
                "verb": _("play") if verb == "play" else _("discard"),
                "command": _card_command(written, slot, language, now=True),
            }
        )
    card_id = next(card["id"] for card in cards if card["slot"] == slot)
    summary = _("play slot %(slot)s") if verb == "play" else _("discard slot %(slot)s")
    return {"type": verb, "card_id": card_id}, summary % {"slot": slot}


def _rearranged_this_turn(view: dict) -> bool:
    """The viewer moved a card of their hand during the current turn (the option of
    rearranging): an email of this turn may show the slots as they were before."""
    me, turn = view["viewer"], view["turn"]
    return any(
        entry["type"] == "rearrange" and entry["seat"] == me and entry["turn"] == turn
        for entry in view["history"]
    )


def _clue(args: list[str], line: str, view: dict, language: str) -> tuple[dict, str]:
    """clue <player> <value>: the value is the last word, the player everything before it."""
    if args[:1] and args[0] in BEFORE_PLAYER:
        args = args[1:]
    if len(args) < 2:
        raise NotUnderstood(
            _(
                "%(line)s is not a command: a clue names a player, then a colour or a rank, "
                "as in “%(example)s”."
            )
            % {"line": _quoted(line), "example": f"{_words(line)[0]} {_example_target(view)} 1"}
        )
    target = _player(" ".join(args[:-1]), view)
    value = _value(args[-1], view, language)
    action = {"type": "clue", "target": target, **value}
    if "colour" in value:
        shown = _shown(value["colour"])
    else:
        shown = _("%(rank)ss") % {"rank": value["rank"]}
    return action, _("clue %(player)s: %(value)s") % {"player": _name(view, target), "value": shown}


def _name(view: dict, seat: int) -> str:
    return view["hands"][seat]["name"]


def _others(view: dict) -> list[int]:
    """The other seats in turn order, starting after the viewer."""
    players = view["players"]
    return [(view["viewer"] + step) % players for step in range(1, players)]


def _player(text: str, view: dict) -> int:
    """A seat from a display name, an unambiguous prefix of one, or a seat number."""
    me = view["viewer"]
    names = {hand["seat"]: " ".join(_words(hand["name"])) for hand in view["hands"]}

    def pick(matches: list[int]) -> int | None:
        # A clue to oneself is never meant when someone else also fits the words.
        others = [seat for seat in matches if seat != me]
        if len(others) == 1:
            return others[0]
        if len(others) > 1:
            listed = _(" or ").join(_seat_text(view, s) for s in others)
            raise NotUnderstood(
                _("“%(text)s” could be %(players)s: write more of the name, or the seat number.")
                % {"text": text, "players": listed}
            )
        if matches:
            raise Impossible(_("You cannot clue yourself."))
        return None

    exact = pick([seat for seat, name in names.items() if name == text])
    if exact is not None:
        return exact
    number = SEAT.match(_key(text))
    if number:
        seat = int(number.group(1)) - 1
        if not 0 <= seat < view["players"]:
            raise Impossible(
                _("There is no seat %(seat)s: the seats are 1 to %(players)s.")
                % {"seat": seat + 1, "players": view["players"]}
            )
        if seat == me:
            raise Impossible(_("You cannot clue yourself."))
        return seat
    prefix = pick([seat for seat, name in names.items() if name.startswith(text)])
    if prefix is not None:
        return prefix
    raise Impossible(
        _("There is no player “%(text)s”: the others are %(players)s.")
        % {"text": text, "players": _players_text(view)}
    )


def _seat_text(view: dict, seat: int) -> str:
    return _("%(name)s (seat %(seat)s)") % {"name": _name(view, seat), "seat": seat + 1}


def _players_text(view: dict) -> str:
    return ", ".join(_seat_text(view, seat) for seat in _others(view))


def colour_letter(colour: str, language: str) -> str:
    """The letter (or two) that names ``colour`` in ``language``, as a card's code shows it
    and as a reply may write it: "R"; "Gr" for grün, where "G" alone is gelb; "B" for blanc
    in French, where bleu is "Bl"."""
    if language == "en":
        return SUIT_LETTERS[SUITS.index(colour)]
    own = VOCABULARIES[language].colours
    letters = [word for word, suit in own.items() if suit == colour and len(word) <= 2]
    return min(letters, key=len).capitalize() if letters else SUIT_LETTERS[SUITS.index(colour)]


def local_letters(language: str) -> dict[str, str]:
    """The engine's letters ("R", "Y", "G", …) -> the letters of ``language``'s edition."""
    language = reader_language(language)
    return {
        letter: colour_letter(suit, language)
        for letter, suit in zip(SUIT_LETTERS, SUITS, strict=True)
    }


def local_code(code: str, language: str) -> str:
    """An engine code ("G3", or a letter alone) in ``language``'s letters: "Gr3" in German,
    where "G" is gelb; "V3" in French (vert). Replies read them the same way."""
    return local_letters(language)[code[0]] + code[1:]


def _colours_text(view: dict) -> str:
    language = _active()
    return ", ".join(
        f"{_shown(colour)} ({colour_letter(colour, language)})" for colour in view["clue_colours"]
    )


def _value(word: str, view: dict, language: str) -> dict:
    """{"colour": ...} or {"rank": ...} from a colour's name or letter, a digit, "4s",
    "4er" or a rank's name, in any language (the reader's where they differ)."""
    number = RANK_NUMBER.match(word)
    rank = int(number.group(1)) if number else _lookup("ranks", word, language)
    if rank is not None:
        if not 1 <= rank <= 5:
            raise Impossible(_("There is no rank %(rank)s: the ranks are 1 to 5.") % {"rank": rank})
        return {"rank": rank}
    colour = _lookup("colours", word, language)
    if colour is None and word.endswith("s"):
        colour = _lookup("colours", word.removesuffix("s"), language)
    if colour is None:
        raise NotUnderstood(
            _(
                "“%(word)s” is not a colour or a rank: the clue colours are %(colours)s; "
                "the ranks are 1 to 5."
            )
            % {"word": word, "colours": _colours_text(view)}
        )
    if colour not in view["clue_colours"]:
        raise Impossible(
            _("%(colour)s is not a clue colour in this game: the clue colours are %(colours)s.")
            % {"colour": _shown(colour), "colours": _colours_text(view)}
        )
    return {"colour": colour}


# -- examples and help ---------------------------------------------------------------------


def example_commands(view: dict, count: int = 3, language: str | None = "en") -> list[str]:
    """Up to ``count`` commands that are legal now for the viewer, of as many kinds as there
    are (a play, a colour clue, a discard, a rank clue, then more of each), in ``language``;
    [] if it is not the viewer's turn. Each reads back (read_reply, in that language) to one
    of view["legal"]'s actions."""
    legal = view.get("legal")
    if not view.get("your_turn") or not legal:
        return []
    language = reader_language(language)
    words = VOCABULARIES[language]
    slots = {card["id"]: card["slot"] for card in _own_cards(view)}
    plays = [f"{words.play} {slots[cid]}" for cid in sorted(legal["play"], key=slots.get)]
    # The oldest card first: that is the one people usually throw away.
    discards = [
        f"{words.discard} {slots[cid]}"
        for cid in sorted(legal["discard"], key=slots.get, reverse=True)
    ]
    order = {seat: index for index, seat in enumerate(_others(view))}
    clues = sorted(legal["clues"], key=lambda clue: order.get(clue["target"], len(order)))
    colour_clues = [_clue_text(clue, view, language) for clue in clues if "colour" in clue]
    rank_clues = [_clue_text(clue, view, language) for clue in clues if "rank" in clue]
    kinds = [plays, colour_clues, discards, rank_clues]
    examples: list[str] = []
    for index in range(max(map(len, kinds))):
        for kind in kinds:
            if index < len(kind) and len(examples) < count:
                examples.append(kind[index])
    return examples


def _clue_text(clue: dict, view: dict, language: str = "en") -> str:
    """ "clue Bob red" when the name reads back to the same seat, else "clue 2 red"."""
    words = VOCABULARIES[language]
    value = words.colour_names[clue["colour"]] if "colour" in clue else str(clue.get("rank"))
    by_name = f"{words.clue} {_name(view, clue['target'])} {value}"
    try:
        if read_reply(by_name, view, language).action.get("target") == clue["target"]:
            return by_name
    except NotUnderstood:
        pass
    return f"{words.clue} {clue['target'] + 1} {value}"


def _example_target(view: dict) -> str:
    others = _others(view)
    return _name(view, others[0]) if others else "Bob"


def command_help(view: dict, *, chat_open: bool | None = None) -> str:
    """The commands, for this game: the viewer's slots, the other players, the colours, in
    the active language (its command words; every language's are read).
    ``chat_open``: whether the game's table talk is open now (None: say it depends)."""
    language = _active()
    words = VOCABULARIES[language]
    size = len(_own_cards(view))
    slots = _("slot 1 to %(size)s") % {"size": size} if size else _("you have no cards now")
    target = _example_target(view)
    colour = words.colour_names[view["clue_colours"][0]]
    if chat_open is None:
        chat = _("goes to the table talk, if this game allows it during play")
    elif chat_open:
        chat = _("goes to the table talk")
    else:
        chat = _("is not sent: this game's table talk is closed during play")
    play, discard, clue = words.play, words.discard, words.clue
    help_word = _("help")  # the command word: "hilfe", "aide"
    lines = [
        _("Reply with one command on the first line of your reply:"),
        f"  {play} N".ljust(14)
        + _("play the card in slot N of your hand (%(slots)s; slot 1 is the newest, on the left)")
        % {"slots": slots},
        f"  {discard} N".ljust(14) + _("discard the card in slot N"),
        *(
            [
                _(
                    "  (if you rearranged your hand during this turn, add “%(now)s”: “%(example)s” "
                    "plays the card in slot 2 as your hand is now)"
                )
                % {"now": words.now, "example": f"{play} 2 {words.now}"}
            ]
            if view["options"].get("rearrange")
            else []
        ),
        f"  {clue} "
        + _("PLAYER VALUE   e.g. “%(colour_clue)s” or “%(rank_clue)s”")
        % {"colour_clue": f"{clue} {target} {colour}", "rank_clue": f"{clue} {target} 3"},
        _(
            "    PLAYER: a name (its first letters are enough if no one else's start the same) "
            "or a seat number: %(players)s"
        )
        % {"players": _players_text(view)},
        _("    VALUE: a colour, by name or letter: %(colours)s; or a rank, 1 to 5")
        % {"colours": _colours_text(view)},
        f"  {help_word}".ljust(14) + _("this list and the table again"),
        "  chat: "
        + _("TEXT  on a line of its own, after the command or alone: TEXT %(chat)s")
        % {"chat": chat},
    ]
    examples = example_commands(view, language=language)
    if examples:
        lines.append(
            _("For example: %(examples)s.")
            % {"examples": ", ".join(quote(example) for example in examples)}
        )
    return "\n".join(lines)
