"""Every word a person reads in a template is marked for translation (issue 29): text
between HTML tags, and the attributes read aloud or shown (alt, title, placeholder,
aria-label, a button input's value), must sit inside {% translate %} or
{% blocktranslate %}. Text outside them is allowed only when it has no word: numbers,
punctuation, symbols ("·", "—", "/"), variables ({{ … }}) and tags, or a proper name.

Django's template tags are read first (a tag or a variable becomes a letterless stand-in, a
{% blocktranslate %} or {% comment %} block is left out whole), then the HTML around them,
without its comments, scripts and styles."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import tag_re

ROOT = settings.BASE_DIR
TEMPLATE_DIRS = [Path(d) for d in settings.TEMPLATES[0]["DIRS"]] + sorted(
    path for path in ROOT.glob("*/templates") if path.parent.name != "templates"
)

# Exemptions, each with its reason.
NOT_FOR_PEOPLE = {
    # A developer's tool: the sent emails, served only with DEBUG (hanabi_site/urls.py), never
    # on the site; its readers are the people who write the site, in English.
    "dev/",
}
# Proper names, the same in every language.
PROPER_NAMES = {"Hanabi"}
# A key of one character in <kbd>: pressed as printed, whatever the reader's language (the
# letters static/js/keys.js listens to). A named key ("Enter") is a word, to be marked.
KEY = re.compile(r"\s*\S\s*")
# Templates written whole in one language (help/rules.de.html): the view picks the file of
# the reader's language, so their text is the translation itself.
ONE_LANGUAGE_FILE = re.compile(
    r"\.({})\.(html|txt)$".format("|".join(code for code, _name in settings.LANGUAGES))
)

# Blocks whose text is not the page's untranslated text: a translation, or a comment.
SKIPPED_BLOCKS = {
    "blocktranslate": "endblocktranslate",
    "blocktrans": "endblocktrans",
    "comment": "endcomment",
}
READ_ATTRIBUTES = {"alt", "title", "placeholder", "aria-label"}
BUTTON_INPUTS = {"submit", "button", "reset"}
# What a tag or a variable becomes: no letter, so never a word; a space, so that a tag inside
# an HTML start tag (<p{% if x %} class="y"{% endif %}>) leaves it whole.
STAND_IN = " "
WORD = re.compile(r"[^\W\d_]{2,}|[^\W\d_]")


def _without_django(source: str) -> str:
    """The template's HTML with every Django tag and variable a stand-in (keeping its
    newlines, so that line numbers hold) and the skipped blocks' insides blanked."""
    out, closing = [], None
    for piece in tag_re.split(source):
        keep_lines = "\n" * piece.count("\n")
        is_tag = tag_re.fullmatch(piece) is not None
        if closing is not None:
            if is_tag and piece.startswith("{%") and piece[2:-2].split()[0:1] == [closing]:
                closing = None
            out.append(STAND_IN + keep_lines)
            continue
        if is_tag:
            name = piece[2:-2].split()[0:1]
            if piece.startswith("{%") and name and name[0] in SKIPPED_BLOCKS:
                closing = SKIPPED_BLOCKS[name[0]]
            out.append(STAND_IN + keep_lines)
        else:
            out.append(piece)
    return "".join(out)


def _has_words(text: str) -> bool:
    return any(word not in PROPER_NAMES for word in WORD.findall(text.replace(STAND_IN, " ")))


class _Reader(HTMLParser):
    """Collects (line, text) of what a person reads that is still written in the template."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.raw_depth = 0  # inside <script> or <style>
        self.kbd_depth = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.raw_depth += 1
        if tag == "kbd":
            self.kbd_depth += 1
        attributes = dict(attrs)
        for name, value in attrs:
            read = name in READ_ATTRIBUTES or (
                name == "value" and tag == "input" and attributes.get("type") in BUTTON_INPUTS
            )
            if read and value and _has_words(value):
                self.found.append((self.getpos()[0], f"{name}={value!r}"))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in ("script", "style"):
            self.raw_depth -= 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.raw_depth:
            self.raw_depth -= 1
        if tag == "kbd" and self.kbd_depth:
            self.kbd_depth -= 1

    def handle_data(self, data):
        if self.kbd_depth and KEY.fullmatch(data):
            return
        if not self.raw_depth and _has_words(data):
            text = " ".join(data.replace(STAND_IN, " ").split())
            self.found.append((self.getpos()[0], text))


def unmarked(source: str, plain_text: bool = False) -> list[tuple[int, str]]:
    """(line, text) of every unmarked word-bearing text in a template's source."""
    html = _without_django(source)
    if plain_text:  # an email's text part: no HTML, every line is read
        return [
            (number, " ".join(line.replace(STAND_IN, " ").split()))
            for number, line in enumerate(html.splitlines(), 1)
            if _has_words(line)
        ]
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.found


def templates() -> list[tuple[str, Path]]:
    found = []
    for directory in TEMPLATE_DIRS:
        for path in sorted(directory.rglob("*")):
            if path.suffix not in (".html", ".txt") or not path.is_file():
                continue
            name = path.relative_to(directory).as_posix()
            if any(name.startswith(prefix) for prefix in NOT_FOR_PEOPLE):
                continue
            if ONE_LANGUAGE_FILE.search(name):
                continue
            found.append((name, path))
    return found


def test_every_word_a_person_reads_is_marked_for_translation():
    failures = [
        f"{name}:{line}: {text}"
        for name, path in templates()
        for line, text in unmarked(path.read_text(), plain_text=path.suffix == ".txt")
    ]
    assert failures == []


def test_the_scan_reads_every_template_directory():
    names = {name for name, _path in templates()}
    assert "base.html" in names and "deals/deal.html" in names
    assert "account/email/password_reset_key_message.txt" in names
    assert not any(name.startswith("dev/") for name in names)


def test_the_scan_finds_an_unmarked_word(tmp_path):
    """The scan fails on a template with an unmarked word, wherever a person reads it."""
    template = tmp_path / "temporary.html"
    template.write_text(
        '{% load i18n %}<h1>{% translate "Lobby" %}</h1>\n'
        "<p>{{ count }} · Hanabi — 3/5</p>\n"
        "<p>Unmarked words</p>\n"
        '<img alt="{% translate "A card" %}" src="x.png"><img alt="a card" src="y.png">\n'
        '<input type="submit" value="Send"><input type="hidden" name="a" value="One-Click">\n'
        "{% comment %}Nobody reads this{% endcomment %}{# nor this #}<!-- nor this -->\n"
        "<script>const words = 'not shown';</script><style>p::after{content:'x'}</style>\n"
        "{% blocktranslate with n=count %}Marked {{ n }}{% endblocktranslate %}\n"
        '<span aria-label="Close">×</span>\n'
        "<kbd>q</kbd> <kbd>Enter</kbd>\n"
    )
    assert unmarked(template.read_text()) == [
        (3, "Unmarked words"),
        (4, "alt='a card'"),
        (5, "value='Send'"),
        (9, "aria-label='Close'"),
        (10, "Enter"),
    ]


def test_the_scan_finds_an_unmarked_line_in_an_emails_text():
    source = (
        '{% load i18n %}{% autoescape off %}{% translate "Hello," %}\n'
        "\n"
        "{{ url }}\n"
        "-- \n"
        "Hanabi by post\n"
        "{% endautoescape %}\n"
    )
    assert unmarked(source, plain_text=True) == [(5, "Hanabi by post")]


def test_the_whole_check_fails_on_a_template_dir_holding_an_unmarked_word(tmp_path, monkeypatch):
    """The check above, run on a template directory of one temporary template, fails."""
    import tests.test_templates_marked as scan

    (tmp_path / "marked.html").write_text('{% load i18n %}<p>{% translate "Lobby" %}</p>\n')
    monkeypatch.setattr(scan, "TEMPLATE_DIRS", [tmp_path])
    test_every_word_a_person_reads_is_marked_for_translation()  # marked: passes
    (tmp_path / "unmarked.html").write_text("<p>{{ n }} Unmarked</p>\n")
    with pytest.raises(AssertionError, match="unmarked.html:1: Unmarked"):
        test_every_word_a_person_reads_is_marked_for_translation()
