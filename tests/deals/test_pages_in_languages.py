"""A deal's pages in German and French (issue 29): the deal page, starting a table on it,
the refusal to whoever plays it, and the refusal to whoever has seen it, with <main lang>
the reader's; the weekly deal's date as each language writes it. English is unchanged
(tests/deals/test_deal_page.py, test_play_this_deal.py)."""

import re
from datetime import date
from html import unescape

import pytest

from deals.services import share, start_table, weekly_deal
from games.models import Game
from tests.deals.conftest import finished_game

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


DEAL_PAGE = {
    "de": [
        "<title>Verteilung {deal} · ",
        "<h1>Verteilung {deal}</h1>",
        "2 Spieler. Jeder Tisch hier spielt denselben Stapel in derselben Reihenfolge.",
        '<h2 id="play-heading">Diese Verteilung spielen</h2>',
        ">Einen Tisch mit dieser Verteilung eröffnen</a>",
        '<h2 id="results-heading">Ergebnisse mit dieser Verteilung</h2>',
        '<th scope="col">Partie</th><th scope="col">Spieler</th>',
        "<td>Partie {game}</td>",
        "<h3>Die Bots mit dieser Verteilung</h3>",
        "<li>Haus-Bot: <span",
        "<li>Experten-Bot (Hutraten): <span",
        "wird gespielt …",
        ">Zeig mir die Partien (ich spiele diese Verteilung nicht)</button>",
    ],
    "fr": [
        "<title>Donne {deal} · ",
        "<h1>Donne {deal}</h1>",
        "2 joueurs. Chaque table ici joue la même pioche, dans le même ordre.",
        '<h2 id="play-heading">Jouer cette donne</h2>',
        ">Ouvrir une table sur cette donne</a>",
        '<h2 id="results-heading">Résultats sur cette donne</h2>',
        '<th scope="col">Partie</th><th scope="col">Joueurs</th>',
        "<td>Partie {game}</td>",
        "<h3>Les bots sur cette donne</h3>",
        "<li>Bot maison : <span",
        "<li>Bot expert (devinette des chapeaux) : <span",
        "en cours…",
        ">Montre-moi les parties (je ne jouerai pas cette donne)</button>",
    ],
}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_deal_page_in_german_and_french(client, alice, bob, mallory, language):
    original = finished_game(alice, bob)
    deal = share(original)
    client.force_login(speaking(mallory, language))
    html = page(client.get(f"/deals/{deal.pk}/"))
    assert main_lang(html) == language
    expected = [text.format(deal=deal.pk, game=original.pk) for text in DEAL_PAGE[language]]
    assert [text for text in expected if text not in html] == []
    for english in ("Play this deal", "Results on this deal", "being played", "House bot"):
        assert english not in html


@pytest.mark.parametrize(
    "language, expected",
    [
        (
            "de",
            [
                "<h1>Verteilung {deal} spielen</h1>",
                "<legend>Wer beitreten kann</legend>",
                "> Offen in der Lobby</label>",
                "> Nur auf Einladung</label>",
                ">Einen Tisch mit dieser Verteilung eröffnen</button>",
            ],
        ),
        (
            "fr",
            [
                "<h1>Jouer la donne {deal}</h1>",
                "<legend>Qui peut rejoindre</legend>",
                "> Ouverte dans le salon</label>",
                "> Sur invitation seulement</label>",
                ">Ouvrir une table sur cette donne</button>",
            ],
        ),
    ],
)
def test_starting_a_table_in_german_and_french(client, alice, bob, mallory, language, expected):
    deal = share(finished_game(alice, bob))
    client.force_login(speaking(mallory, language))
    html = page(client.get(f"/deals/{deal.pk}/play/"))
    assert main_lang(html) == language
    assert [t for t in (e.format(deal=deal.pk) for e in expected) if t not in html] == []


@pytest.mark.parametrize(
    "language, expected",
    [
        (
            "de",
            ["<h1>Nicht, solange du diese Verteilung spielst</h1>", ">Zurück zu deiner Partie</a>"],
        ),
        ("fr", ["<h1>Pas pendant que tu joues cette donne</h1>", ">Retour à ta partie</a>"]),
    ],
)
def test_the_refusal_to_a_player_of_the_deal(client, alice, bob, carol, language, expected):
    deal = share(finished_game(alice, bob))
    start_table(deal.pk, carol, Game.Visibility.PUBLIC)
    client.force_login(speaking(carol, language))
    response = client.get(f"/deals/{deal.pk}/")
    assert response.status_code == 403
    html = page(response)
    assert main_lang(html) == language
    assert [text for text in expected if text not in html] == []


SEEN = {
    "de": "Du kennst diese Verteilung schon (du hast sie gespielt, zugesehen oder ihre Partien "
    "geöffnet): Jede Verteilung spielt man nur einmal.",
    "fr": "Tu as déjà vu cette donne (tu l'as jouée, regardée ou tu as ouvert ses parties) : "
    "chacun ne joue une donne qu'une fois.",
}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_who_has_seen_the_deal_is_refused_in_their_language(client, alice, bob, language):
    deal = share(finished_game(alice, bob))
    client.force_login(speaking(alice, language))
    response = client.post(f"/deals/{deal.pk}/play/", {"visibility": "public"})
    assert [str(message) for message in response.context["messages"]] == [SEEN[language]]
    assert main_lang(page(response)) == language
    assert not Game.objects.filter(creator=alice, status=Game.Status.OPEN).exists()


@pytest.mark.parametrize(
    "language, heading",
    [
        ("en", "<h1>Deal {deal}: the deal of the week of 23 November 2026</h1>"),
        ("de", "<h1>Verteilung {deal}: die Verteilung der Woche vom 23. November 2026</h1>"),
        ("fr", "<h1>Donne {deal} : la donne de la semaine du 23 novembre 2026</h1>"),
    ],
)
def test_the_weekly_deals_date_as_each_language_writes_it(client, alice, language, heading):
    deal = weekly_deal(date(2026, 11, 25))
    client.force_login(speaking(alice, language))
    html = page(client.get(f"/deals/{deal.pk}/"))
    assert heading.format(deal=deal.pk) in html
