"""The friends page and its messages in German and French (issue 29), with <main lang> the
reader's; English is unchanged (tests/friends/test_friends.py)."""

import re
from html import unescape

import pytest

from friends import services
from games.engine import GameOptions
from games.models import Game
from games.services import lobby
from tests.games.conftest import play_to_the_end, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]


def main_lang(html: str) -> str:
    (lang,) = re.findall(r'<main id="main" lang="([^"]*)">', html)
    return lang


def speaking(user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    return user


FRIENDS_PAGE = {
    "de": [
        "<title>Freunde · ",
        "<h1>Freunde</h1>",
        "Ein Freund ist ein Lesezeichen: Er erfährt nichts davon.",
        "<h2>Deine Freunde</h2>",
        ">Bob entfernen</button>",
        "<h2>Mitspieler der letzten Zeit</h2>",
        'Bob\n        <span class="muted">(Freund)</span>',
        ">Carol als Freund hinzufügen</button>",
    ],
    "fr": [
        "<title>Amis · ",
        "<h1>Amis</h1>",
        "Un ami est un marque-page : il n'en est pas averti.",
        "<h2>Tes amis</h2>",
        ">Retirer Bob</button>",
        "<h2>Partenaires récents</h2>",
        'Bob\n        <span class="muted">(ami)</span>',
        ">Ajouter Carol comme ami</button>",
    ],
}
MESSAGES = {
    "de": ("Carol ist jetzt dein Freund.", "Keiner deiner Freunde heißt Zed."),
    "fr": ("Carol est maintenant ton ami.", "Aucun de tes amis ne s'appelle Zed."),
}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_friends_page_and_its_messages_in_german_and_french(
    client, alice, bob, carol, language
):
    play_to_the_end(start_game(alice, bob))
    start_game(carol, alice)
    services.add_friend(alice, bob.pk)
    client.force_login(speaking(alice, language))
    html = unescape(client.get("/friends/").content.decode())
    assert main_lang(html) == language
    assert [text for text in FRIENDS_PAGE[language] if text not in html] == []
    assert "Recent partners" not in html and "as a friend" not in html

    added, nobody = MESSAGES[language]
    response = client.post("/friends/add/", {"person": carol.pk}, follow=True)
    assert [str(message) for message in response.context["messages"]] == [added]
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    response = client.post(f"/friends/invite/{game.pk}/", {"name": "Zed"}, follow=True)
    assert [str(message) for message in response.context["messages"]] == [nobody]
