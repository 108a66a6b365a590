"""The command language of a reply to a your-turn email: "play 3", "clue Bob red", "help",
"chat: ...". Pure Python on the engine's per-seat view (``games.engine.view_for``): no Django.

It only resolves words into an engine action (slot -> card id, name -> seat, word -> colour
or rank). Whether the move is legal now is the engine's business when the move is applied,
so its reason reaches the player in the same words as on the web page. Two refusals are
given here: NotUnderstood, no command in the words (no verb, no slot number, a word that is
no colour or rank); and Impossible, a command that was read but names what is not there (no
such slot, player, seat, rank or colour in this game, or a clue to oneself), so no action
is left to ask the engine about.

    reply = read_reply("Play 3.\\nchat: sorry!", view)   # NotUnderstood(reason) if not
    reply.action   # {"type": "play", "card_id": 7}; reply.summary == "play slot 3"
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from games.engine import SUIT_LETTERS, SUITS

MULTICOLOUR = SUITS[5]
# Words people write for a colour, beyond its name and its letter.
COLOUR_WORDS = {"multicolor": MULTICOLOUR, "rainbow": MULTICOLOUR, "multi": MULTICOLOUR}
RANK_WORDS = {
    word: rank
    for rank, words in enumerate(
        [
            ("one", "ones"),
            ("two", "twos"),
            ("three", "threes"),
            ("four", "fours"),
            ("five", "fives"),
        ],
        start=1,
    )
    for word in words
}
VERBS = {"play": "play", "discard": "discard", "clue": "clue", "hint": "clue", "tell": "clue"}
HELP_WORDS = {"help", "commands"}  # and a line of "?" alone
# Around a word, not inside it: "#3", "3.", "Bob:", "“red”" read as 3, Bob, red.
PUNCTUATION = string.punctuation + "“”‘’«»…–—"
CHAT = re.compile(r"^\s*chat\s*:", re.IGNORECASE)
SEAT = re.compile(r"^(?:seat|player|p)?\s*(\d+)$")


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


def read_reply(text: str, view: dict) -> Reply:
    """The command (first non-empty line) and the chat ("chat:" to the end) of a reply."""
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
        raise NotUnderstood("The reply was empty.")
    # Only the first line counts: what follows is often a signature the parser missed.
    line = commands[0]
    words = _words(line)
    if (words and words[0] in HELP_WORDS) or set(line) <= {"?", " "}:
        return Reply(action=None, summary="", wants_help=True, chat=chat)
    verb = VERBS.get(words[0]) if words else None
    if verb is None:
        raise NotUnderstood(f"{_quoted(line)} is not a command. Reply “help” for the commands.")
    if verb == "clue":
        action, summary = _clue(words[1:], line, view)
    else:
        action, summary = _card(verb, words[1:], line, view)
    return Reply(action=action, summary=summary, wants_help=False, chat=chat)


def _words(text: str) -> list[str]:
    """Lower-case words with the punctuation around each taken off; empty ones dropped."""
    words = (word.strip(PUNCTUATION) for word in text.casefold().split())
    return [word for word in words if word]


def _quoted(line: str) -> str:
    return f"“{line if len(line) <= 60 else line[:57] + '...'}”"


def _own_cards(view: dict) -> list[dict]:
    return view["hands"][view["viewer"]]["cards"]


def _card(verb: str, args: list[str], line: str, view: dict) -> tuple[dict, str]:
    """play/discard: a slot as the email shows it (1 = newest, on the left).

    With the option of rearranging hands, the slots of a hand rearranged during this turn are
    not the slots an email of this turn may show: such a command is refused, unless it ends
    in "now" ("play 3 now": slot 3 as the hand is now)."""
    if args[:1] in (["slot"], ["card"]):
        args = args[1:]
    now = args[-1:] == ["now"]
    if now:
        args = args[:-1]
    cards = _own_cards(view)
    if len(args) != 1 or not args[0].isdigit():
        raise NotUnderstood(
            f"{_quoted(line)} is not a command: write “{verb}” and a slot number, as in “{verb} 1”."
        )
    slot = int(args[0])
    if not cards:
        raise Impossible(f"You have no cards to {verb}.")
    if not 1 <= slot <= len(cards):
        raise Impossible(
            f"There is no slot {slot}: your hand has one card, in slot 1."
            if len(cards) == 1
            else f"There is no slot {slot}: your hand has slots 1 to {len(cards)}."
        )
    if not now and _rearranged_this_turn(view):
        raise Impossible(
            f"Your hand was rearranged during this turn, so slot {slot} may not hold the card "
            f"you saw there. Your hand as it is now is below: to {verb} the card that is in "
            f"slot {slot} now, reply “{verb} {slot} now”."
        )
    card_id = next(card["id"] for card in cards if card["slot"] == slot)
    return {"type": verb, "card_id": card_id}, f"{verb} slot {slot}"


def _rearranged_this_turn(view: dict) -> bool:
    """The viewer moved a card of their hand during the current turn (the option of
    rearranging): an email of this turn may show the slots as they were before."""
    me, turn = view["viewer"], view["turn"]
    return any(
        entry["type"] == "rearrange" and entry["seat"] == me and entry["turn"] == turn
        for entry in view["history"]
    )


def _clue(args: list[str], line: str, view: dict) -> tuple[dict, str]:
    """clue <player> <value>: the value is the last word, the player everything before it."""
    if len(args) < 2:
        raise NotUnderstood(
            f"{_quoted(line)} is not a command: a clue names a player, then a colour or a "
            f"rank, as in “clue {_example_target(view)} 1”."
        )
    target = _player(" ".join(args[:-1]), view)
    value = _value(args[-1], view)
    action = {"type": "clue", "target": target, **value}
    shown = value.get("colour") or f"{value.get('rank')}s"
    return action, f"clue {_name(view, target)}: {shown}"


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
            listed = " or ".join(f"{_name(view, s)} (seat {s + 1})" for s in others)
            raise NotUnderstood(
                f"“{text}” could be {listed}: write more of the name, or the seat number."
            )
        if matches:
            raise Impossible("You cannot clue yourself.")
        return None

    exact = pick([seat for seat, name in names.items() if name == text])
    if exact is not None:
        return exact
    number = SEAT.match(text)
    if number:
        seat = int(number.group(1)) - 1
        if not 0 <= seat < view["players"]:
            raise Impossible(f"There is no seat {seat + 1}: the seats are 1 to {view['players']}.")
        if seat == me:
            raise Impossible("You cannot clue yourself.")
        return seat
    prefix = pick([seat for seat, name in names.items() if name.startswith(text)])
    if prefix is not None:
        return prefix
    raise Impossible(f"There is no player “{text}”: the others are {_players_text(view)}.")


def _players_text(view: dict) -> str:
    return ", ".join(f"{_name(view, seat)} (seat {seat + 1})" for seat in _others(view))


def _colours_text(view: dict) -> str:
    return ", ".join(
        f"{colour} ({SUIT_LETTERS[SUITS.index(colour)]})" for colour in view["clue_colours"]
    )


def _value(word: str, view: dict) -> dict:
    """{"colour": ...} or {"rank": ...} from a colour name, its letter, a digit or "fours"."""
    if word.isdigit() or word[:-1].isdigit() and word.endswith("s"):
        rank = int(word.rstrip("s"))
        if not 1 <= rank <= 5:
            raise Impossible(f"There is no rank {rank}: the ranks are 1 to 5.")
        return {"rank": rank}
    if word in RANK_WORDS:
        return {"rank": RANK_WORDS[word]}
    colour = _colour(word) or _colour(word.removesuffix("s"))
    if colour is None:
        raise NotUnderstood(
            f"“{word}” is not a colour or a rank: the clue colours are {_colours_text(view)}; "
            "the ranks are 1 to 5."
        )
    if colour not in view["clue_colours"]:
        raise Impossible(
            f"{colour} is not a clue colour in this game: the clue colours are "
            f"{_colours_text(view)}."
        )
    return {"colour": colour}


def _colour(word: str) -> str | None:
    if word in SUITS:
        return word
    if word.upper() in SUIT_LETTERS and len(word) == 1:
        return SUITS[SUIT_LETTERS.index(word.upper())]
    return COLOUR_WORDS.get(word)


# -- examples and help ---------------------------------------------------------------------


def example_commands(view: dict, count: int = 3) -> list[str]:
    """Up to ``count`` commands that are legal now for the viewer, of as many kinds as there
    are (a play, a colour clue, a discard, a rank clue, then more of each); [] if it is not
    the viewer's turn. Each reads back (read_reply) to one of view["legal"]'s actions."""
    legal = view.get("legal")
    if not view.get("your_turn") or not legal:
        return []
    slots = {card["id"]: card["slot"] for card in _own_cards(view)}
    plays = [f"play {slots[cid]}" for cid in sorted(legal["play"], key=slots.get)]
    # The oldest card first: that is the one people usually throw away.
    discards = [
        f"discard {slots[cid]}" for cid in sorted(legal["discard"], key=slots.get, reverse=True)
    ]
    order = {seat: index for index, seat in enumerate(_others(view))}
    clues = sorted(legal["clues"], key=lambda clue: order.get(clue["target"], len(order)))
    colour_clues = [_clue_text(clue, view) for clue in clues if "colour" in clue]
    rank_clues = [_clue_text(clue, view) for clue in clues if "rank" in clue]
    kinds = [plays, colour_clues, discards, rank_clues]
    examples: list[str] = []
    for index in range(max(map(len, kinds))):
        for kind in kinds:
            if index < len(kind) and len(examples) < count:
                examples.append(kind[index])
    return examples


def _clue_text(clue: dict, view: dict) -> str:
    """ "clue Bob red" when the name reads back to the same seat, else "clue 2 red"."""
    value = clue.get("colour") or str(clue.get("rank"))
    by_name = f"clue {_name(view, clue['target'])} {value}"
    try:
        if read_reply(by_name, view).action.get("target") == clue["target"]:
            return by_name
    except NotUnderstood:
        pass
    return f"clue {clue['target'] + 1} {value}"


def _example_target(view: dict) -> str:
    others = _others(view)
    return _name(view, others[0]) if others else "Bob"


def command_help(view: dict, *, chat_open: bool | None = None) -> str:
    """The commands, for this game: the viewer's slots, the other players, the colours.
    ``chat_open``: whether the game's table talk is open now (None: say it depends)."""
    size = len(_own_cards(view))
    slots = f"slot 1 to {size}" if size else "you have no cards now"
    target = _example_target(view)
    colour = view["clue_colours"][0]
    if chat_open is None:
        chat = "goes to the table talk, if this game allows it during play"
    elif chat_open:
        chat = "goes to the table talk"
    else:
        chat = "is not sent: this game's table talk is closed during play"
    lines = [
        "Reply with one command on the first line of your reply:",
        f"  play N      play the card in slot N of your hand ({slots}; slot 1 is the newest, "
        "on the left)",
        "  discard N   discard the card in slot N",
        *(
            [
                "  (if you rearranged your hand during this turn, add “now”: “play 2 now” "
                "plays the card in slot 2 as your hand is now)"
            ]
            if view["options"].get("rearrange")
            else []
        ),
        f"  clue PLAYER VALUE   e.g. “clue {target} {colour}” or “clue {target} 3”",
        f"    PLAYER: a name (its first letters are enough if no one else's start the same) "
        f"or a seat number: {_players_text(view)}",
        f"    VALUE: a colour, by name or letter: {_colours_text(view)}; or a rank, 1 to 5",
        "  help        this list and the table again",
        f"  chat: TEXT  on a line of its own, after the command or alone: TEXT {chat}",
    ]
    examples = example_commands(view)
    if examples:
        lines.append("For example: " + ", ".join(f"“{example}”" for example in examples) + ".")
    return "\n".join(lines)
