"""A rematch's pages in German and French (issue 29): the offer under a finished game, the
invitation page with each answer, and the messages, with <main lang> the reader's; English
is unchanged (tests/rematches/test_pages.py)."""

import re
from html import unescape

import pytest

from games.services import lobby
from rematches import services
from rematches.models import Rematch

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]


def main_lang(html: str) -> str:
    (lang,) = re.findall(r'<main id="main" lang="([^"]*)">', html)
    return lang


def speaking(user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    return user


def page(response) -> str:
    return unescape(response.content.decode())


INVITATION = {
    "de": [
        "<title>Revanche von Partie {game} · ",
        "<h1>Revanche von Partie {game}</h1>",
        "<p>3 Spieler · neu gemischt · die Plätze werden zu Beginn neu verteilt.</p>",
        "Alice hat vorgeschlagen, noch einmal zu spielen; die Partie beginnt, wenn alle",
        "<li>Bob: hat noch nicht geantwortet</li>",
        "<p>Spielst du noch einmal mit?</p>",
        ">Annehmen</button>",
        ">Ablehnen</button>",
        ">Zurück zu Partie {game}</a>",
    ],
    "fr": [
        "<title>Revanche de la partie {game} · ",
        "<h1>Revanche de la partie {game}</h1>",
        "<p>3 joueurs · une nouvelle donne · les places mélangées au début.</p>",
        "Alice a proposé de rejouer ; la partie commence quand tout le monde a accepté.",
        "<li>Bob : n'a pas encore répondu</li>",
        "<p>Veux-tu rejouer ?</p>",
        ">Accepter</button>",
        ">Refuser</button>",
        ">Retour à la partie {game}</a>",
    ],
}
ACCEPTED = {
    "de": ("Du hast einen Platz am neuen Tisch.", "<li>Bob: angenommen</li>"),
    "fr": ("Tu as une place à la nouvelle table.", "<li>Bob : a accepté</li>"),
}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_invitation_page_in_german_and_french(client, finished, alice, bob, language):
    rematch, _ = services.propose(finished.pk, alice)
    client.force_login(speaking(bob, language))
    html = page(client.get(f"/rematches/{rematch.pk}/"))
    assert main_lang(html) == language
    expected = [text.format(game=finished.pk) for text in INVITATION[language]]
    assert [text for text in expected if text not in html] == []
    assert "Will you play again?" not in html and "has not answered yet" not in html

    message, answer = ACCEPTED[language]
    response = client.post(f"/rematches/{rematch.pk}/accept/", follow=True)
    assert [str(m) for m in response.context["messages"]] == [message]
    assert answer in page(response)


@pytest.mark.parametrize(
    "language, expected",
    [
        (
            "de",
            [
                'id="rematch-heading-{game}">Noch einmal spielen</h2>',
                ">Noch einmal mit demselben Tisch spielen</button>",
            ],
        ),
        (
            "fr",
            ['id="rematch-heading-{game}">Rejouer</h2>', ">Rejouer avec la même table</button>"],
        ),
    ],
)
def test_the_offer_under_a_finished_game(client, finished, alice, language, expected):
    client.force_login(speaking(alice, language))
    html = page(client.get(finished.get_absolute_url(), follow=True))
    assert [t for t in (e.format(game=finished.pk) for e in expected) if t not in html] == []
    response = client.post(f"/rematches/propose/{finished.pk}/", follow=True)
    assert Rematch.objects.filter(finished_game=finished).exists()
    assert main_lang(page(response)) == language


@pytest.mark.parametrize(
    "language, refusal",
    [
        ("de", "Diese Partie wurde abgesagt: Für eine Antwort ist es zu spät."),
        ("fr", "Cette partie a été annulée : il est trop tard pour répondre."),
    ],
)
def test_a_refusal_in_the_invitees_language(client, finished, alice, bob, language, refusal):
    rematch, _ = services.propose(finished.pk, alice)
    lobby.abort_game(rematch.game.pk, alice)
    client.force_login(speaking(bob, language))
    response = client.post(f"/rematches/{rematch.pk}/accept/", follow=True)
    assert [str(m) for m in response.context["messages"]] == [refusal]
