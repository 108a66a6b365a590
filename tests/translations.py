"""The site's translations in the tests (issue 29): the catalogues compiled before the first
test (dev.py compiles them too, but a run of pytest alone must not read stale ones), and a
reader of the .po files for the tests that check them."""

import fcntl
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

LOCALE = settings.BASE_DIR / "locale"
TRANSLATED = ("de", "fr")


def catalogue(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


def compiled(language: str) -> Path:
    return catalogue(language).with_suffix(".mo")


def is_current(language: str) -> bool:
    mo = compiled(language)
    return mo.exists() and mo.stat().st_mtime >= catalogue(language).stat().st_mtime


def compile_catalogues() -> bool:
    """Compile each .po whose .mo is missing or older (msgfmt, as compilemessages runs it):
    whether every catalogue is compiled now. pytest-xdist's workers take turns (a lock); each
    .mo is written whole, then renamed, so no worker reads half of one."""
    LOCALE.mkdir(exist_ok=True)
    with open(LOCALE / ".compiling", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for language in TRANSLATED:
            if is_current(language):
                continue
            if shutil.which("msgfmt") is None:
                return False
            target = compiled(language)
            with tempfile.NamedTemporaryFile(dir=target.parent, suffix=".mo", delete=False) as out:
                pass
            subprocess.run(
                ["msgfmt", "--check-format", "-o", out.name, str(catalogue(language))], check=True
            )
            os.replace(out.name, target)
    _forget_loaded_catalogues()
    return all(is_current(language) for language in TRANSLATED)


def _forget_loaded_catalogues() -> None:
    """Django keeps each language's catalogue once read: read them again from the .mo."""
    from django.utils.translation import trans_real

    trans_real._translations = {}
    trans_real._default = None


@dataclass
class Entry:
    msgid: str
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _unquote(text: str) -> str:
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(0)), text)


def entries(path: Path) -> list[Entry]:
    """The messages of a .po file (the header, msgid "", left out)."""
    found: list[Entry] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry, key, flags, obsolete = None, None, set(), False
        for line in block.splitlines():
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",")}
                continue
            if line.startswith("#~"):
                obsolete = True
                line = line[2:].strip()
            elif line.startswith("#") or not line.strip():
                continue
            if line.startswith("msgctxt"):  # (pgettext's context: one line, before msgid)
                continue
            head = line.split(" ", 1)[0]
            if head in ("msgid", "msgid_plural") or head.startswith("msgstr"):
                key = head
                if head == "msgid":
                    entry = Entry(msgid="", flags=flags, obsolete=obsolete)
                value = _unquote(_STRING.search(line).group(1))
            else:
                value = _unquote(_STRING.search(line).group(1))
            if key == "msgid":
                entry.msgid += value
            elif key == "msgid_plural":
                entry.msgid_plural = (entry.msgid_plural or "") + value
            else:
                index = int(key[7:-1]) if key.startswith("msgstr[") else 0
                entry.msgstr[index] = entry.msgstr.get(index, "") + value
        if entry is not None and entry.msgid:
            found.append(entry)
    return found
