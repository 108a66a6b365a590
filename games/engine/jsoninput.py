"""Reading a game file that may hold anything: its JSON, and short quotes of its bad values.

``load_json(content)`` parses a file's bytes (UTF-8, or the UTF-16/32 JSON allows) and raises
``UnreadableJSON`` saying why it cannot: not JSON (and where), not text, nested too deeply
for the parser, or a number too long for Python to read. ``shown(value)`` is a value as an
error message quotes it: one line of at most about 60 characters, whatever the value (a
100,000-character string, a list 10,000 levels deep, a number of 5,000 digits).
"""

from __future__ import annotations

import json
import reprlib


class UnreadableJSON(ValueError):
    """The file is not JSON this engine can read; the message says why."""


def load_json(content: bytes | str) -> object:
    """The parsed document, or UnreadableJSON."""
    try:
        return json.loads(content)
    except RecursionError:
        # The C parser counts nesting against the recursion limit: [[[[...]]]] 10,000 deep.
        raise UnreadableJSON(
            "the file is not a game: its lists or objects are nested too deeply to read"
        ) from None
    except json.JSONDecodeError as error:
        raise UnreadableJSON(
            f"the file is not JSON ({error.msg}: line {error.lineno}, column {error.colno})"
        ) from None
    except UnicodeDecodeError as error:
        # json.loads reads UTF-16 and UTF-32 too; "utf-8-sig" decodes after a 3-byte BOM.
        encoding = error.encoding.upper()
        position = error.start + 3 if encoding.endswith("-SIG") else error.start
        raise UnreadableJSON(
            f"the file is not JSON: it is not {encoding.removesuffix('-SIG')} text (byte "
            f"{position} is {error.object[error.start : error.start + 1]!r})"
        ) from None
    except ValueError:
        # Python refuses to read an integer of more than 4,300 digits (int_max_str_digits).
        raise UnreadableJSON("the file is not a game: it holds a number too long to read") from None


class _Short(reprlib.Repr):
    def repr_int(self, value: int, level: int) -> str:
        if value.bit_length() > 128:
            # repr() itself fails past 4,300 digits; no message needs the digits anyway.
            sign = "negative " if value < 0 else ""
            return f"<a {sign}number of about {int((value.bit_length() - 1) * 0.30103) + 1} digits>"
        return super().repr_int(value, level)


_SHORT = _Short()
_SHORT.maxlevel = 2
_SHORT.maxdict = _SHORT.maxlist = _SHORT.maxtuple = 4
_SHORT.maxstring = 40
_SHORT.maxother = 40
_SHORT.maxlong = 40


def shown(value: object) -> str:
    """A short, one-line repr of a value read from a file, for an error message."""
    try:
        return _SHORT.repr(value)
    except (ValueError, RecursionError):  # pragma: no cover - reprlib bounds size and depth
        return f"a {type(value).__name__}"
