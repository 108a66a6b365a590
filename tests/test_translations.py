"""The German and French catalogues (issue 29): every message of the site's .po files has a
translation in both, none fuzzy, each keeping its placeholders; the files hold every message
the code and templates mark; and they compile."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.translations import TRANSLATED, catalogue, entries

ROOT = Path(settings.BASE_DIR)
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation_none_fuzzy(language):
    found = entries(catalogue(language))
    assert len(found) > 100
    untranslated = [
        entry.msgid
        for entry in found
        if not entry.msgstr or any(not text.strip() for text in entry.msgstr.values())
    ]
    assert untranslated == []
    assert [entry.msgid for entry in found if "fuzzy" in entry.flags] == []
    assert [entry.msgid for entry in found if entry.obsolete] == []
    # Both languages have two plural forms (one; other), as the header says.
    plurals = [entry for entry in found if entry.msgid_plural]
    assert plurals and all(sorted(entry.msgstr) == [0, 1] for entry in plurals)


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_translation_keeps_the_placeholders_of_its_message(language):
    wrong = [
        (entry.msgid, text)
        for entry in entries(catalogue(language))
        for text in entry.msgstr.values()
        if sorted(set(PLACEHOLDER.findall(text)))
        != sorted(set(PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or ""))))
    ]
    assert wrong == []


def test_a_message_without_a_translation_is_found(tmp_path):
    """The check above reads what it should: an empty msgstr and a fuzzy entry are seen."""
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: de\\n"\n\n'
        'msgid "Open the game"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Log in"\nmsgstr "Anmelden"\n\n'
        'msgid "%(counter)s game"\nmsgid_plural "%(counter)s games"\n'
        'msgstr[0] "%(counter)s Partie"\nmsgstr[1] ""\n',
        encoding="utf-8",
    )
    found = {entry.msgid: entry for entry in entries(po)}
    assert found["Open the game"].msgstr == {0: ""}
    assert "fuzzy" in found["Log in"].flags
    assert found["%(counter)s game"].msgstr == {0: "%(counter)s Partie", 1: ""}


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("xgettext") is None, reason="xgettext (gettext) is missing")
def test_the_catalogues_hold_every_message_the_site_marks(tmp_path):
    """makemessages, run on a copy of the site, finds the messages the .po files hold: a
    string marked and never translated fails here, and so does a translated one that no
    literal marks."""
    copy = tmp_path / "site"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv", "var", ".git", "node_modules", "test-results", "staticfiles", "*.mo", "bench"
        ),
    )
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-v", "0", "--no-obsolete", "-l", "de"]
        + [argument for name in ("var", "node_modules") for argument in ("--ignore", name)],
        cwd=copy,
        env={"PATH": "/usr/bin:/bin", "DEBUG": "true", "PYTHONPATH": str(copy)},
        check=True,
        capture_output=True,
    )
    marked = {
        entry.msgid for entry in entries(copy / "locale" / "de" / "LC_MESSAGES" / "django.po")
    }
    assert len(marked) > 100
    for language in TRANSLATED:
        held = {entry.msgid for entry in entries(catalogue(language))}
        assert sorted(marked - held) == [], language
        # And none the code does not mark: a message passed to gettext through a variable
        # (xgettext sees no literal) works until the next makemessages drops it.
        assert sorted(held - marked) == [], language


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="msgfmt (gettext) is missing")
@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalogue_compiles_with_its_formats_checked(language, tmp_path):
    result = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "django.mo"), str(catalogue(language))],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
