"""Malformed game files for the fuzz tests: valid hanab.live exports and engine records,
damaged the ways real files are (a key dropped, a value of the wrong type or out of range, a
huge or deeply nested value, a truncated text, bytes that are not UTF-8).

``game_documents()`` gives parsed documents (Python objects, as ``json.loads`` returns them
and deeper than it can), ``game_files()`` the bytes of a file. Deep nests and numbers too
long for ``json.loads`` are held as markers (``Deep``, ``LongNumber``) until one of the two
is made, because neither ``json.dumps`` nor ``copy.deepcopy`` can handle them.
"""

from __future__ import annotations

import copy
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from games.engine import SUITS, Clue, GameOptions, new_deck, new_game, to_hanablive, to_record

from .helpers import cheating_greedy, run

DATA = Path(__file__).parent / "data"
NAMES = ["Ann", "Bob", "Cid", "Dee"]


def valid_documents() -> list[dict]:
    """Files of every kind the engine reads: hand-written and exported hanab.live games,
    records with a seed and with a deck."""
    documents = [json.loads(path.read_text()) for path in sorted(DATA.glob("*.json"))]
    options = GameOptions(4, multicolour=1)
    state = run(new_game(options, seed=77), cheating_greedy)
    documents.append(to_hanablive(options, state.deck, state.actions, NAMES))
    options = GameOptions(3, fuses=1)
    state = run(new_game(options, seed=8), cheating_greedy)
    documents.append(to_record(options, 8, state.actions[:20], NAMES[:3]))
    options = GameOptions(2, multicolour=2, empty_clues=True)
    deck = new_deck(options, 5)
    state = run(new_game(options, deck=deck), cheating_greedy)
    documents.append(to_record(options, deck, state.actions[:10]))
    options = GameOptions(2)
    state = new_game(options, seed=1)
    mine, theirs = (state.card(state.hand(seat)[0]) for seat in (0, 1))
    clues = [Clue(1, rank=theirs.rank), Clue(0, colour=SUITS[mine.suit])]
    documents.append(to_record(options, 1, clues, NAMES[:2]))
    return documents


VALID = valid_documents()


@dataclass(frozen=True)
class Deep:
    """A list (or object) nested ``depth`` levels deep: ``[[[...]]]``."""

    depth: int
    kind: str = "list"

    def build(self) -> object:
        value: object = [] if self.kind == "list" else {}
        for _ in range(self.depth):
            value = [value] if self.kind == "list" else {"a": value}
        return value

    def text(self) -> str:
        if self.kind == "list":
            return "[" * self.depth + "[]" + "]" * self.depth
        return '{"a": ' * self.depth + "{}" + "}" * self.depth


@dataclass(frozen=True)
class LongNumber:
    """An integer of ``digits`` digits: past 4,300, ``json.loads`` refuses it."""

    digits: int
    negative: bool = False

    def build(self) -> int:
        limit = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return int(self.text())
        finally:
            sys.set_int_max_str_digits(limit)

    def text(self) -> str:
        return ("-" if self.negative else "") + "9" * self.digits


MARKERS = (Deep, LongNumber)
PLAIN = {type(None), bool, int, float, str}

# Every key a game file may hold, and a few it may not: added keys take these names.
KEYS = [
    "players", "deck", "actions", "options", "notes", "characters", "id", "seed", "format",
    "suitIndex", "rank", "type", "target", "value", "card_id", "colour",
    "variant", "startingPlayer", "emptyClues", "allOrNothing", "deckPlays", "cardCycle",
    "oneExtraCard", "oneLessCard", "detrimentalCharacters", "timed", "timeBase", "speedrun",
    "multicolour", "until_perfect", "fuses", "empty_clues", "", "\x00", "a\nb",
]  # fmt: skip

SCALARS = [
    None, True, False, 0, 1, 2, 3, 4, 5, 6, 7, 59, 60, -1, -2**63, 2**63, 2**64, 10**30,
    -(10**30), 10**4000, 0.0, 1.0, 2.0, 1.5, -0.5, 1e308, math.inf, -math.inf, math.nan,
    "", "0", "1", "x", "No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)",
    "clue", "play", "discard", "red", "Red", "multicolour", "R3", "red 3", "hanabi-engine/1",
    "\x00", "\ud800", "\n", "\x1b[31m", "é", "x" * 100_000,
]  # fmt: skip


def _huge_list(item: object, length: int) -> list:
    return [copy.deepcopy(item) for _ in range(length)] if length <= 1000 else [item] * length


def _values() -> st.SearchStrategy:
    """A value to put where another was: wrong types, edge numbers, huge and deep ones, each
    kind about as often as the others."""
    edge = st.sampled_from(SCALARS)
    keys = st.sampled_from(KEYS) | st.text(max_size=5)
    nested = st.recursive(
        edge,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
        max_leaves=6,
    )
    deep = st.builds(Deep, st.sampled_from([2, 50, 990, 10_000]), st.sampled_from(["list", "dict"]))
    long = st.builds(LongNumber, st.sampled_from([4301, 5000, 20_000]), st.booleans())
    huge = st.builds(
        _huge_list,
        st.sampled_from([0, 1, None, "x", {"suitIndex": 0, "rank": 1}, [], {}]),
        st.sampled_from([61, 1000, 100_000]),
    )
    return st.one_of(
        edge,
        edge,
        st.integers(),
        st.floats(),
        st.text(max_size=20),
        st.lists(edge, max_size=3),
        st.dictionaries(keys, edge, max_size=3),
        nested,
        deep,
        long,
        huge,
    )


VALUES = _values()
NEW_KEYS = st.sampled_from(KEYS) | st.text(max_size=8)
OPERATIONS = st.sampled_from(["replace", "retype", "retype", "delete", "add", "resize"])


def _retyped(value: object) -> list:
    """The same value in other JSON types: 1 as 1.0, "1", [1], true; "red" as ["red"]..."""
    if isinstance(value, bool):
        return [int(value), str(value).lower(), not value, None]
    if isinstance(value, int):
        return [float(value), str(value), [value], {"value": value}, value == 1]
    if isinstance(value, float):
        return [int(value) if math.isfinite(value) else 0, str(value), [value]]
    if isinstance(value, str):
        return [[value], {value: value}, value.upper(), len(value), value + "\x00"]
    if isinstance(value, list):
        return [dict(enumerate(map(str, range(len(value))))), value[:1], [value], len(value)]
    if isinstance(value, dict):
        return [list(value.values()), list(value), [value], ""]
    return [0, "", [], {}]


def _path(draw: st.DrawFn, document: object) -> tuple:
    """A place in the document, chosen by a walk from the top that stops at each level with
    probability 1/3: the options, one action, the deck as a whole and one card's rank are
    each changed often (a uniform choice of place would change mostly cards of the deck)."""
    path: list = []
    node = document
    while isinstance(node, dict | list) and node:
        keys = list(node) if isinstance(node, dict) else range(len(node))
        key = keys[draw(st.integers(0, len(keys) - 1))]
        path.append(key)
        node = node[key]
        if draw(st.integers(0, 2)) == 0:
            break
    return tuple(path)


def _parent(document: object, path: tuple) -> object:
    node = document
    for key in path[:-1]:
        node = node[key]
    return node


@st.composite
def _mutated(draw: st.DrawFn) -> object:
    """A valid document with one to four places changed."""
    document: object = copy.deepcopy(VALID[draw(st.integers(0, len(VALID) - 1))])
    if draw(st.integers(0, 19)) == 0:
        return draw(VALUES)  # not a game at all
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3, 4]))):
        path = _path(draw, document)
        if not path:
            break
        operation = draw(OPERATIONS)
        parent, key = _parent(document, path), path[-1]
        if operation == "replace":
            parent[key] = draw(VALUES)
        elif operation == "retype":
            parent[key] = draw(st.sampled_from(_retyped(parent[key])))
        elif operation == "delete":
            del parent[key]
        elif operation == "add" and isinstance(parent[key], dict):
            parent[key][draw(NEW_KEYS)] = draw(VALUES)
        elif operation == "add" and isinstance(parent[key], list):
            parent[key].insert(draw(st.integers(0, len(parent[key]))), draw(VALUES))
        elif operation == "resize" and isinstance(parent[key], list):
            items = parent[key]
            if items and draw(st.booleans()):
                parent[key] = items * draw(st.sampled_from([2, 3, 1000]))
            else:
                del items[draw(st.integers(0, len(items))) :]
        elif isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += draw(st.sampled_from([-1, 1, 100, -(10**20)]))
    return document


def build(document: object, made: dict | None = None) -> object:
    """The document as Python objects, markers made into what they stand for. A huge list
    repeats one item: each object is made once."""
    made = {} if made is None else made
    if id(document) in made:
        return made[id(document)]
    if isinstance(document, MARKERS):
        result = document.build()
    elif isinstance(document, dict):
        result = {key: build(value, made) for key, value in document.items()}
    elif isinstance(document, list):
        result = [item if type(item) in PLAIN else build(item, made) for item in document]
    else:
        return document
    made[id(document)] = result
    return result


def to_text(document: object) -> str:
    """The document as JSON text (with NaN and Infinity, which json.loads reads)."""
    spliced: dict[str, str] = {}

    def marker(value: object) -> str:
        if not isinstance(value, MARKERS):
            raise TypeError(f"not JSON: {value!r}")
        placeholder = f"@@marker{len(spliced)}@@"
        spliced[json.dumps(placeholder)] = value.text()
        return placeholder

    text = json.dumps(document, default=marker)
    for placeholder, replacement in spliced.items():
        text = text.replace(placeholder, replacement, 1)
    return text


def game_documents() -> st.SearchStrategy:
    """Parsed documents: damaged valid files, and now and then a valid one."""
    return st.one_of(_mutated(), st.sampled_from(VALID)).map(build)


BAD_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xef\xbb\xbf", b"\x80\x80", b"\\u"]


@st.composite
def game_files(draw: st.DrawFn) -> bytes:
    """The bytes of a file: a damaged document's JSON, and some damage to the text itself."""
    document = draw(st.one_of(_mutated(), st.sampled_from(VALID)))
    content = to_text(document).encode("utf-8", "surrogatepass")
    damage = draw(
        st.sampled_from(["none", "none", "truncate", "bytes", "utf-16", "bom", "random", "deep"])
    )
    if damage == "truncate":
        content = content[: draw(st.integers(0, len(content)))]
    elif damage == "bytes":
        at = draw(st.integers(0, len(content)))
        content = content[:at] + draw(st.sampled_from(BAD_BYTES)) + content[at:]
    elif damage == "utf-16":
        content = to_text(document).encode("utf-16", "surrogatepass")
    elif damage == "bom":
        content = b"\xef\xbb\xbf" + content
    elif damage == "random":
        content = draw(st.binary(max_size=64))
    elif damage == "deep":
        depth = draw(st.sampled_from([990, 10_000, 100_000]))
        content = (b"[" * depth) if draw(st.booleans()) else Deep(depth, "dict").text().encode()
    return content
