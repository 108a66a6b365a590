"""Every page a player reads, in German and in French (issue 29): each says which language
it is in (<html lang>, <main lang>, Content-Language) and holds no English sentence left
over. The pages are those of a small world: a game being played, one finished (its replay,
review, look-back, export offer), one waiting, a rematch, a shared deal, the profiles, the
friends page, the help pages, the account pages."""

import re
from html.parser import HTMLParser

import pytest

from deals import services as deals
from games.engine import GameOptions
from games.models import Game, SpectatorPolicy
from games.services import lobby
from rematches import services as rematches
from tests.games.conftest import play_to_the_end, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]

# English words that no German or French sentence of the site uses ("was" and "will" are
# German words too); a page in either language holding one (outside names, code, quoted
# words and the language menu) left a string English.
ENGLISH = re.compile(
    r"\b(the|your|you|and|with|which|this|that|there|turn|game|games|card|cards|clue|"
    r"clues|play|plays|played|discard|player|players|open|join|what|when|here|none|"
    r"has|have|yet|of|to|is|are|it)\b",
    re.IGNORECASE,
)

QUOTED = re.compile(r"«[^»]*»|„[^“]*“|“[^”]*”|‘[^’]*’")


class ReadableText(HTMLParser):
    """The words a person reads on a page: text and the attributes read aloud, without
    scripts, styles, code, the language menu (each language in its own name) or anything
    marked lang="en" (an English name on purpose, such as a deck's hanab.live export)."""

    SKIP = {"script", "style", "code", "kbd", "pre", "select", "template"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        attributes = dict(attrs)
        skipped = (
            tag in self.SKIP
            or attributes.get("lang") == "en"
            or attributes.get("translate") == "no"
            or bool(self.stack and self.stack[-1])
        )
        if not skipped:
            for name in ("title", "alt", "aria-label", "placeholder"):
                if attributes.get(name):
                    self.parts.append(attributes[name])
        if tag not in self.VOID:
            self.stack.append(skipped)

    def handle_endtag(self, tag) -> None:
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data) -> None:
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)


def english_left(html: str, names: set[str]) -> list[str]:
    reader = ReadableText()
    reader.feed(html)
    found = []
    for part in reader.parts:
        text = " ".join(part.split())
        for name in names:
            text = text.replace(name, "")
        # A quoted example, such as the English commands a reply may also use.
        text = QUOTED.sub("", text)
        if ENGLISH.search(text):
            found.append(text)
    return found


@pytest.fixture
def world(alice, bob, carol):
    finished = play_to_the_end(start_game(alice, bob, seed=7))
    playing = start_game(alice, bob, carol, seed=11)
    Game.objects.filter(pk=playing.pk).update(spectators=SpectatorPolicy.DURING)
    waiting = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.PUBLIC)
    rematch, _ = rematches.propose(finished.pk, alice)
    deal = deals.share(finished)
    return {
        "finished": finished,
        "playing": playing,
        "waiting": waiting,
        "rematch": rematch,
        "deal": deal,
    }


def pages(world, alice) -> list[str]:
    finished, playing = world["finished"], world["playing"]
    return [
        "/",
        "/games/new/",
        f"/games/{playing.pk}/",
        f"/games/{finished.pk}/as-seen/2/",
        f"/games/{world['waiting'].pk}/",
        f"/games/{finished.pk}/",
        f"/games/{finished.pk}/replay/0/",
        f"/games/{finished.pk}/replay/{finished.turn}/",
        f"/games/{finished.pk}/review/",
        f"/games/{finished.pk}/analysis/",
        "/games/import/",
        f"/rematches/{world['rematch'].pk}/",
        f"/deals/{world['deal'].pk}/",
        f"/players/{alice.pk}/",
        f"/players/{alice.pk}/games/",
        "/friends/",
        "/bots/",
        "/by-email/",
        "/rules/",
        "/accounts/profile/",
        "/accounts/email/",
        "/accounts/password/change/",
    ]


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_page_says_its_language_and_holds_no_english(client, world, alice, language):
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    names = {user.display_name for user in type(alice).objects.all()} | {"Hanabi", "hanab.live"}
    problems = {}
    for url in pages(world, alice):
        response = client.get(url, follow=True)
        html = response.content.decode()
        said = []
        if response.status_code != 200:
            said.append(f"status {response.status_code}")
        if f'<html lang="{language}"' not in html:
            said.append("<html lang> is not " + language)
        main = re.search(r"<main\b[^>]*>", html)
        if not main or f'lang="{language}"' not in main.group(0):
            said.append(f"<main> says {main.group(0) if main else 'nothing'}")
        if response.headers.get("Content-Language") != language:
            said.append(f"Content-Language {response.headers.get('Content-Language')}")
        said += english_left(html, names)
        if said:
            problems[url] = said
    assert problems == {}


def test_the_check_finds_english_left_in_a_page():
    html = '<main lang="de"><p>Du bist am Zug.</p><p>Waiting for the others</p></main>'
    assert english_left(html, set()) == ["Waiting for the others"]
    assert english_left('<p lang="en">The deck</p><code>play 3</code>', set()) == []


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_visitor_and_a_spectator_read_their_browsers_language(client, world, mallory, language):
    """Before an account, the browser's Accept-Language decides; a spectator (mallory, who
    plays in no game here) reads the table in the language of their profile."""
    visitor_pages = [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/rules/",
    ]
    problems = {}
    names = {user.display_name for user in type(mallory).objects.all()} | {"Hanabi"}
    for url in visitor_pages:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
        html = response.content.decode()
        said = english_left(html, names)
        if f'<html lang="{language}"' not in html or response.status_code != 200:
            said.append(f"status {response.status_code}, not in {language}")
        if said:
            problems[url] = said
    mallory.language = language
    mallory.save(update_fields=["language"])
    client.force_login(mallory)
    response = client.get(f"/games/{world['playing'].pk}/watch/", follow=True)
    html = response.content.decode()
    said = english_left(html, names)
    main = re.search(r"<main\b[^>]*>", html)
    if response.status_code != 200 or not main or f'lang="{language}"' not in main.group(0):
        said.append(f"status {response.status_code}, <main> not in {language}")
    if said:
        problems["watch"] = said
    assert problems == {}
