"""The help pages (/rules/, /bots/, /by-email/) have one source per language in
templates/help/ (issue 29). The three must say the same things: this compares their structure
(headings and their levels and ids, the paragraphs, list items and terms of each section, the
links, the commands shown), reads back every command a page shows in its own language, and
renders each page in each language with <main lang> saying which."""

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings

from games.engine import GameOptions, new_game, view_for
from games.text_commands import NotUnderstood, read_reply

HELP = Path(settings.BASE_DIR) / "templates" / "help"
PAGES = {"rules": "/rules/", "bots": "/bots/", "by_email": "/by-email/"}
LANGUAGES = [code for code, _name in settings.LANGUAGES]
TRANSLATIONS = [code for code in LANGUAGES if code != "en"]
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
# What each section must have as many of in every language.
COUNTED = ("p", "ul", "ol", "dl", "li", "dt", "dd", "table", "tr", "kbd", "code")


@dataclass
class Section:
    heading: tuple[str, str | None]  # (level, id); ("", None) before the first heading
    counts: dict[str, int] = field(default_factory=dict)

    def summary(self) -> tuple:
        return (self.heading, tuple(sorted(self.counts.items())))


class Structure(HTMLParser):
    """A source's sections, and every id, link and command in document order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections = [Section(("", None))]
        self.ids: list[str] = []
        self.links: list[str] = []
        self.commands: list[str] = []
        self._command: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.append(attributes["id"])
        if tag == "a":
            self.links.append(attributes.get("href") or "")
        if tag in HEADINGS:
            self.sections.append(Section((tag, attributes.get("id"))))
        elif tag in COUNTED:
            counts = self.sections[-1].counts
            counts[tag] = counts.get(tag, 0) + 1
        if tag == "kbd":
            self._command = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "kbd" and self._command is not None:
            self.commands.append(" ".join("".join(self._command).split()))
            self._command = None

    def handle_data(self, data: str) -> None:
        if self._command is not None:
            self._command.append(data)


def structure(source: str) -> Structure:
    parser = Structure()
    parser.feed(source)
    parser.close()
    return parser


def source(page: str, language: str) -> str:
    return (HELP / f"{page}.{language}.html").read_text(encoding="utf-8")


def differences(english: str, other: str) -> list[str]:
    """What differs between two sources' structures, in words (empty: the same)."""
    mine, theirs = structure(english), structure(other)
    found = []
    ours = [section.summary() for section in mine.sections]
    yours = [section.summary() for section in theirs.sections]
    if len(ours) != len(yours):
        found.append(f"{len(ours) - 1} headings against {len(yours) - 1}")
    for number, (a, b) in enumerate(zip(ours, yours, strict=False)):
        if a != b:
            found.append(f"section {number}: {a} against {b}")
    for what in ("ids", "links"):
        if getattr(mine, what) != getattr(theirs, what):
            found.append(f"{what}: {getattr(mine, what)} against {getattr(theirs, what)}")
    return found


@pytest.mark.parametrize("page", PAGES)
def test_every_language_has_a_source_of_every_help_page(page):
    for language in LANGUAGES:
        assert (HELP / f"{page}.{language}.html").is_file(), f"{page}.{language}.html"


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("page", PAGES)
def test_each_language_has_the_structure_of_the_english_page(page, language):
    assert differences(source(page, "en"), source(page, language)) == []


def test_the_structures_are_not_trivially_equal():
    """The comparison sees what the pages are made of, not an empty outline."""
    rules = structure(source("rules", "en"))
    assert len(rules.sections) > 10
    assert "#empty-clues" in rules.links and "empty-clues" in rules.ids
    by_email = structure(source("by_email", "en"))
    assert by_email.commands[:3] == ["play 3", "discard 1", "clue bob red"]


def _without_first(pattern: str, text: str) -> str:
    changed, count = re.subn(pattern, "", text, count=1, flags=re.DOTALL)
    assert count == 1
    return changed


@pytest.mark.parametrize(
    "change",
    [
        # A list item lost (the first of the end of the game's cases).
        lambda text: _without_first(r"<li><strong>The last fuse burns</strong>.*?</li>", text),
        # A section gained.
        lambda text: text.replace(
            '<h2 id="knowing">',
            '<h2 id="talking">Talking</h2>\n<p>Not a word.</p>\n<h2 id="knowing">',
        ),
        # A section lost, heading and paragraph.
        lambda text: _without_first(r'<h3 id="fuses">.*?(?=<h3 id="empty-clues">)', text),
        # A paragraph split in two.
        lambda text: text.replace("You may not pass.", "You may not pass.</p>\n<p>Never.", 1),
        # An anchor renamed, a link changed, a command dropped.
        lambda text: text.replace('id="set-up"', 'id="setup"'),
        lambda text: text.replace("{% url 'games:bots' %}", "/bots/"),
        lambda text: _without_first(r"<kbd>play 3 now</kbd>", text),
        # A heading one level down.
        lambda text: text.replace('<h3 id="time">', '<h4 id="time">').replace(
            "Time per turn</h3>", "Time per turn</h4>"
        ),
    ],
)
def test_a_copy_that_gains_or_loses_a_part_fails_the_comparison(change):
    english = source("rules", "en")
    changed = change(english)
    assert changed != english
    assert differences(english, changed) != []
    assert differences(english, english) == []


# -- the commands a page shows are read back, in its language, to the same moves ------------


NAMES = ["Alice", "Bob", "Cleo"]


def _view(**options) -> dict:
    """Alice's view of a fresh three-player game against Bob and Cleo, with every option a
    command on the pages may need (multicolour clues, rearranging)."""
    state = new_game(GameOptions(3, multicolour=1, rearrange=True, **options), seed=5)
    return view_for(state, 0, NAMES)


def _meaning(command: str, view: dict, language: str) -> tuple:
    reply = read_reply(command, view, language)
    assert reply.action or reply.wants_help or reply.chat, command
    return (reply.action, reply.wants_help, bool(reply.chat))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", ["by_email", "rules"])
def test_every_command_a_page_shows_is_read_in_its_language(page, language):
    view = _view()
    commands = structure(source(page, language)).commands
    assert commands, f"{page}.{language}.html shows no command"
    for command in commands:
        try:
            _meaning(command, view, language)
        except NotUnderstood as refused:
            pytest.fail(f"{page}.{language}.html shows {command!r}: {refused.reason}")


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("page", ["by_email", "rules"])
def test_the_commands_mean_what_the_english_ones_mean(page, language):
    view = _view()
    english = structure(source(page, "en")).commands
    translated = structure(source(page, language)).commands
    assert [_meaning(command, view, language) for command in translated] == [
        _meaning(command, view, "en") for command in english
    ]


@pytest.mark.parametrize(
    ("language", "commands"),
    [
        ("de", ["spiele 3", "abwerfen 1", "hinweis bob rot", "hilfe"]),
        ("fr", ["joue 3", "défausse 1", "indice bob rouge", "aide"]),
    ],
)
def test_the_by_email_page_shows_its_languages_own_words(language, commands):
    shown = structure(source("by_email", language)).commands
    for command in commands:
        assert command in shown


# -- each page in each language ---------------------------------------------------------


def _main_lang(html: str) -> list[str]:
    return re.findall(r'<main id="main" lang="([^"]*)">', html)


def _first_heading(page: str, language: str) -> str:
    (heading,) = re.findall(r"<h1>(.*?)</h1>", source(page, language))
    return heading


@pytest.mark.django_db
@pytest.mark.usefixtures("translated")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_a_visitor_reads_each_page_in_the_language_of_their_cookie(client, page, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(PAGES[page]).content.decode()
    assert _main_lang(html) == [language]
    assert f"<h1>{_first_heading(page, language)}</h1>" in html
    for other in LANGUAGES:
        if other != language:
            assert f"<h1>{_first_heading(page, other)}</h1>" not in html


@pytest.mark.django_db
@pytest.mark.usefixtures("translated")
@pytest.mark.parametrize("page", PAGES)
def test_a_member_reads_each_page_in_their_profiles_language(client, alice, page):
    alice.language = "fr"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    html = client.get(PAGES[page], headers={"accept-language": "de"}).content.decode()
    assert _main_lang(html) == ["fr"]
    assert f"<h1>{_first_heading(page, 'fr')}</h1>" in html


@pytest.mark.django_db
@pytest.mark.usefixtures("translated")
@pytest.mark.parametrize(
    ("language", "word"), [("en", "Rules"), ("de", "Regeln"), ("fr", "Règles")]
)
def test_every_page_links_to_the_rules_in_the_header(client, language, word):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get("/accounts/login/").content.decode()
    assert f'<a href="/rules/">{word}</a>' in html
