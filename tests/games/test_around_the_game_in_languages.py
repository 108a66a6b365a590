"""The pages around a game in German and French (issue 29): the replay with its analysis and
review, looking back, the spectator's page, the import and its refusals, the invitation and
the join page. Each says its words in the reader's language and its <main lang> says which;
the look back and the spectator's page keep what they hide hidden in every language. English
is checked by each page's own tests (test_review.py, test_look_back.py, test_watch.py...)."""

import json
import re
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from games.engine import Clue, GameOptions, action_to_dict
from games.models import Game, SpectatorPolicy
from games.services import lobby, play
from games.wording import card_name
from tests.games.conftest import current_user, make_user, play_to_the_end, start_game, user_at
from tests.games.helpers import deck
from tests.games.look_back import VIEWER, never_seen_at, play_everything

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]

LANGUAGES = pytest.mark.parametrize("language", ["de", "fr"])
HTMX = {"HTTP_HX_REQUEST": "true"}


def local_names(card, language: str) -> set[str]:
    """The card's name as the engine writes it and as the reader's language does (as
    tests/games/test_hidden_information.py names a hidden card)."""
    with translation.override(language):
        return {card.name, card_name(card.suit_name, card.rank)}


def main_lang(html: str) -> str:
    (lang,) = re.findall(r'<main id="main" lang="([^"]*)">', html)
    return lang


def speaking(language: str, *users) -> list:
    for user in users:
        user.language = language
        user.save(update_fields=["language"])
    return list(users)


def page(client: Client, url: str, **headers) -> str:
    response = client.get(url, **headers)
    assert response.status_code in (200, 403, 404), (url, response.status_code)
    return unescape(response.content.decode())


def missing(html: str, words: list[str]) -> list[str]:
    return [text for text in words if text not in html]


# -- the replay, its analysis and the review --------------------------------------------------

REPLAY_WORDS = {
    "de": [
        "<title>Partie {pk}, Zug {last} · Hanabi per Post</title>",
        "<h1>Partie {pk}</h1>",
        "Endstand: ",
        "Zug {last} von {last}",
        '<nav class="replay-nav" aria-label="Wiederholung">',
        "> Anfang</span>",
        "> Zurück</span>",
        "Herunterladen (hanab.live-JSON)",
        "Hätte diese Verteilung gewonnen werden können?",
        "<strong>Ja.</strong>",
        "Dein Tisch hat {score} Punkte erreicht.",
        "Im vereinfachten Modell von Baffier et al.",
        "Auswertung mit dem H-Group-Bot",
        '<th scope="col">Gespielt</th>',
        '<th scope="col">Warum</th>',
        " wirft ",
        "stimmte ihm bei ",
    ],
    "fr": [
        "<title>Partie {pk}, tour {last} · Hanabi par courrier</title>",
        "<h1>Partie {pk}</h1>",
        "Score final : ",
        "Tour {last} sur {last}",
        '<nav class="replay-nav" aria-label="Rediffusion">',
        "> Début</span>",
        "> Précédent</span>",
        "Télécharger (JSON hanab.live)",
        "Cette donne aurait-elle pu être gagnée ?",
        "<strong>Oui.</strong>",
        "Ta table a marqué {score} points.",
        "Dans le modèle simplifié de Baffier et al.",
        "Analyse avec le bot H-Group",
        '<th scope="col">Coup joué</th>',
        '<th scope="col">Pourquoi</th>',
        " défausse ",
        "était d'accord avec lui sur ",
    ],
}
REPLAY_ENGLISH = [
    "Final score",
    "Could this deal have been won?",
    "Your table scored",
    "Review with the H-Group bot",
    "agreed with it on",
    "> First</span>",
    "Download (",
    " discards ",
]


@LANGUAGES
def test_the_replay_with_its_analysis_and_review(
    client, alice, bob, language, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(game)  # (and its analysis, run once the ending has committed)
    speaking(language, alice)
    client.force_login(alice)
    html = page(client, f"/games/{game.pk}/replay/{game.turn}/?review=1")
    assert main_lang(html) == language
    words = [
        w.format(pk=game.pk, last=game.turn + 1, score=game.score) for w in REPLAY_WORDS[language]
    ]
    assert missing(html, words) == []
    assert [english for english in REPLAY_ENGLISH if english in html] == []
    # The bot's reasons, read back from its English sentences and worded in the language:
    # none left English (which the cell would mark lang="en").
    reasons = re.findall(r'<td class="reason"([^>]*)>([^<]*)</td>', html)
    assert reasons and [attributes for attributes, _text in reasons if attributes] == []
    said = " ".join(text for _attributes, text in reasons)
    assert not re.search(r"\b(Play slot|Discard|Clue|Save|clued)\b", said), said
    assert {"de": "Hinweis an ", "fr": "Indice à "}[language] in said
    # The best line of the analysis, in the history's words.
    best_line = re.search(r'<ol class="best-line">(.*?)</ol>', html, re.S).group(1)
    assert (" spielt " if language == "de" else " joue ") in best_line
    assert " plays " not in best_line

    # The htmx partials say the same: the next turn's title, the review alone.
    partial = page(client, f"/games/{game.pk}/replay/0/", **HTMX)
    first_title = {"de": "Partie {pk}, Zug 1 ·", "fr": "Partie {pk}, tour 1 ·"}[language]
    assert f"<title>{first_title.format(pk=game.pk)}" in partial
    review = page(client, f"/games/{game.pk}/review/", **HTMX)
    assert words[12] in review and "Review with" not in review


@LANGUAGES
def test_the_review_is_refused_during_play_in_the_readers_language(client, alice, bob, language):
    game = start_game(alice, bob)
    speaking(language, alice)
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/review/", **HTMX)
    assert response.status_code == 403
    expected = {"de": "Die Auswertung öffnet sich", "fr": "L'analyse s'ouvre"}[language]
    assert response.content.decode().startswith(expected)


@LANGUAGES
def test_an_imported_replay(client, alice, language):
    speaking(language, alice)
    client.force_login(alice)
    html = page(client, "/games/import/")
    assert main_lang(html) == language
    words = {
        "de": ["<h1>Eine Partie importieren</h1>", "hanab.live-Spieldatei (JSON)", "Importieren"],
        "fr": ["<h1>Importer une partie</h1>", "Fichier de partie hanab.live (JSON)", "Importer"],
    }[language]
    assert missing(html, words) == []
    game = {
        "players": ["Ann", "Ben"],
        "deck": [
            {"suitIndex": suit, "rank": rank}
            for suit in range(5)
            for rank in (1, 1, 1, 2, 2, 3, 3, 4, 4, 5)
        ],
        "actions": [{"type": 3, "target": 1, "value": 3}],
    }
    upload = SimpleUploadedFile("game.json", json.dumps(game).encode())
    response = client.post("/games/import/", {"file": upload})
    assert response.status_code == 302
    html = page(client, response["Location"])
    title = {"de": "Importierte Partie: Ann, Ben", "fr": "Partie importée : Ann, Ben"}
    assert f"<h1>{title[language]}</h1>" in html
    assert main_lang(html) == language


IMPORT_REFUSALS = [
    (
        b"{not json",
        {
            "de": "Diese Datei kann nicht importiert werden: die Datei ist kein JSON (",
            "fr": "Ce fichier ne peut pas être importé : le fichier n'est pas du JSON (",
        },
    ),
    (
        b"[1, 2]",
        {
            "de": "Diese Datei kann nicht importiert werden: eine hanab.live-Partie ist ein "
            "JSON-Objekt",
            "fr": "Ce fichier ne peut pas être importé : une partie hanab.live est un objet JSON",
        },
    ),
    (
        json.dumps({"players": ["Ann"], "deck": [], "actions": []}).encode(),
        {
            "de": "Diese Datei kann nicht importiert werden: hier wird mit 2 bis 6 Spielern "
            "gespielt, nicht mit 1",
            "fr": "Ce fichier ne peut pas être importé : ici on joue à 2 à 6 joueurs, pas à 1",
        },
    ),
    (
        json.dumps({"players": ["Ann", "Ben"], "actions": []}).encode(),
        {
            "de": "Diese Datei kann nicht importiert werden: der Partie fehlt „deck“",
            "fr": "Ce fichier ne peut pas être importé : la partie n'a pas de « deck »",
        },
    ),
]


@LANGUAGES
@pytest.mark.parametrize("content, expected", IMPORT_REFUSALS)
def test_a_malformed_import_is_refused_in_the_readers_language(
    client, alice, language, content, expected
):
    speaking(language, alice)
    client.force_login(alice)
    response = client.post("/games/import/", {"file": SimpleUploadedFile("x.json", content)})
    assert response.status_code == 400
    html = unescape(response.content.decode())
    assert expected[language] in html
    assert "cannot be imported" not in html


# -- looking back: the words, and the player's own cards hidden in every language -----------


@LANGUAGES
def test_looking_back_names_none_of_the_players_own_cards(client, db, language):
    users = speaking(language, *[make_user(name) for name in ("ann", "ben", "cid")])
    game = start_game(*users, seed=20260101)
    play_everything(game, 12)
    client.force_login(user_at(game, VIEWER))
    words = {
        "de": [
            "<title>Partie {pk}, Zug {turn}, wie du ihn gesehen hast · Hanabi per Post</title>",
            "Partie {pk}: Rückblick",
            "Zug {turn}, wie du ihn damals gesehen hast: deine eigenen Karten bleiben verdeckt.",
            "Zurück zum laufenden Tisch",
            'aria-label="Frühere Züge"',
            "Zug {turn} von {last}",
        ],
        "fr": [
            "<title>Partie {pk}, tour {turn} tel que tu l'as vu · Hanabi par courrier</title>",
            "Partie {pk} : retour en arrière",
            "Le tour {turn} tel que tu l'as vu alors : tes propres cartes restent cachées.",
            "Retour à la table en cours",
            'aria-label="Tours précédents"',
            "Tour {turn} sur {last}",
        ],
    }[language]
    for turn in range(game.turn + 1):
        never_seen = never_seen_at(game, turn, VIEWER)
        assert never_seen, turn
        for headers in ({}, HTMX):
            html = page(client, f"/games/{game.pk}/as-seen/{turn}/", **headers)
            expected = [w.format(pk=game.pk, turn=turn + 1, last=game.turn + 1) for w in words]
            if not headers:
                assert main_lang(html) == language
            assert missing(html, expected) == [], turn
            for card in never_seen:
                for name in local_names(card, language):
                    assert not re.search(rf"\b{re.escape(name)}\b", html), (turn, card, name)
    # The search finds what is shown: another player's card, by its name in the language.
    state = game.load_state()
    shown = state.card(state.hand(2)[0])
    html = page(client, f"/games/{game.pk}/as-seen/{game.turn}/")
    assert any(f"{name}<" in html for name in local_names(shown, language) - {shown.name})


@LANGUAGES
def test_a_turn_not_played_yet(client, alice, bob, language):
    game = start_game(alice, bob)
    speaking(language, alice)
    client.force_login(alice)
    html = page(client, f"/games/{game.pk}/as-seen/5/")
    assert main_lang(html) == language
    words = {
        "de": [
            f"Kein Zug 6 in Partie {game.pk}",
            "Diese Partie ist bei Zug 1: du kannst auf die Züge 1 bis 1 zurückblicken.",
            "Vom letzten Zug aus zurückblicken",
        ],
        "fr": [
            f"Pas de tour 6 dans la partie {game.pk}",
            "Cette partie en est au tour 1 : tu peux revoir les tours 1 à 1.",
            "Revoir depuis le dernier tour",
        ],
    }[language]
    assert missing(html, words) == []


# -- the spectator's page -----------------------------------------------------------------


def _watched_game(*players) -> Game:
    game = start_game(*players, deck=deck())
    Game.objects.filter(pk=game.pk).update(spectators=SpectatorPolicy.DURING)
    game.refresh_from_db()
    return game


@LANGUAGES
def test_the_spectators_page(client, alice, bob, carol, language):
    game = _watched_game(alice, bob)
    for _ in range(3):
        state = game.load_state()
        clue = next(a for a in state.legal_actions() if isinstance(a, Clue))
        play.submit_action(game.pk, current_user(game), action_to_dict(clue), game.turn)
        game.refresh_from_db()
    speaking(language, carol)
    client.force_login(carol)
    html = page(client, f"/games/{game.pk}/watch/")
    assert main_lang(html) == language
    words = {
        "de": [
            f"<h1>Du schaust Partie {game.pk} zu</h1>",
            "Du bist Zuschauer: du siehst jede Hand",
            "2 Spieler",
            "Warten auf <strong>",
        ],
        "fr": [
            f"<h1>Tu regardes la partie {game.pk}</h1>",
            "Tu es spectateur : tu vois toutes les mains",
            "2 joueurs",
            "On attend que <strong>",
        ],
    }[language]
    assert missing(html, words) == []
    assert "You are a spectator" not in html and "Waiting for" not in html
    # A spectator sees every hand, by the language's card names.
    state = game.load_state()
    card = state.card(state.hand(0)[0])
    assert any(f"{name}<" in html for name in local_names(card, language) - {card.name})
    partial = page(client, f"/games/{game.pk}/watch/?v=0", **HTMX)
    assert words[0] in partial


@LANGUAGES
def test_a_player_is_refused_the_spectators_page_in_their_language(client, alice, bob, language):
    """Refused, the page shows nothing of the game in any language: no card name at all."""
    game = _watched_game(alice, bob)
    speaking(language, alice)
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/watch/")
    assert response.status_code == 403
    html = unescape(response.content.decode())
    assert main_lang(html) == language
    words = {
        "de": ["Du kannst dieser Partie nicht zuschauen", "Zu deiner Partie", "Zurück zur Lobby"],
        "fr": ["Tu ne peux pas regarder cette partie", "Aller à ta partie", "Retour au salon"],
    }[language]
    assert missing(html, words) == []
    state = game.load_state()
    for seat in range(state.players):
        for cid in state.hand(seat):
            for name in local_names(state.card(cid), language):
                assert not re.search(rf"\b{re.escape(name)}\b", html), name


# -- the invitation and the join page ------------------------------------------------------


@LANGUAGES
def test_the_invitation_and_the_join_page(alice, bob, language):
    game = lobby.create_game(
        alice,
        GameOptions(players=3, multicolour=1, fuses=2),
        Game.Visibility.INVITE,
        turn_time_limit=48,
        timeout_policy="end_game",
    )
    url = f"/games/{game.pk}/join/{game.invite_code}/"
    visitor = Client(HTTP_ACCEPT_LANGUAGE=language)
    html = page(visitor, url)
    assert main_lang(html) == language
    words = {
        "de": [
            f"Eine Einladung zu Partie {game.pk}",
            f"{alice.display_name} lädt dich zu Hanabi ein",
            "Spieler:",
            "Variante:</strong> sechste Farbe (bunt), 2 Gewitterplättchen",
            "Gewitterplättchen:</strong> 2 (der Tisch verliert",
            "Zeitlimit:</strong> 48 Stunden pro Zug; wenn die Zeit abläuft: ",
            "(lädt dich ein)",
            "Um mitzuspielen, registriere dich",
        ],
        "fr": [
            f"Une invitation à la partie {game.pk}",
            f"{alice.display_name} t'invite à jouer à Hanabi",
            "Joueurs :",
            "Variante :</strong> sixième couleur (multicolore), 2 jetons orage",
            "Jetons orage :</strong> 2 (la table perd",
            "Limite de temps :</strong> 48 heures par tour ; quand le temps est écoulé : ",
            "(t'invite)",
            "Pour jouer, inscris-toi",
        ],
    }[language]
    assert missing(html, words) == []
    assert "per turn" not in html and "invites you" not in html

    speaking(language, bob)
    member = Client()
    member.force_login(bob)
    html = page(member, url)
    assert main_lang(html) == language
    words = {
        "de": [
            f"Partie {game.pk} beitreten",
            "lädt dich zum Spielen ein: 3 Spieler",
            "Bisher am Tisch: ",
        ],
        "fr": [
            f"Rejoindre la partie {game.pk}",
            "t'invite à jouer : 3 joueurs",
            "À la table pour l'instant : ",
        ],
    }[language]
    assert missing(html, words) == []


# -- the bot's reasons, worded again ------------------------------------------------------

REASON_NAMES = ["Ann", "Bob O'Neil", "Cid", "Dee"]


def _reviewed_games():
    """The reasons of the bot's review of games played by the bot with a fifth of the moves
    random, at 2 to 4 players, with each multicolour variant: every shape of reason."""
    import random

    from games.bots.hgroup import choose_action
    from games.engine import new_game, view_for
    from games.review import review

    for players in (2, 3, 4):
        for seed in range(2):
            options = GameOptions(players=players, multicolour=seed + players % 2)
            rng = random.Random(seed)
            state, actions = new_game(options, seed=seed), []
            while not state.is_over:
                if rng.random() < 0.2:
                    action = rng.choice(state.legal_actions())
                else:
                    action = choose_action(view_for(state, state.current_seat))
                actions.append(action_to_dict(action))
                state.apply(action)
            names = REASON_NAMES[:players]
            yield names, review(options, seed, actions, names)


@LANGUAGES
def test_every_reason_of_the_bot_is_worded_in_the_language(language):
    from games.review_words import in_words

    # ("chop", the H-Group's word, is kept in both languages, as their players say it.)
    english_words = re.compile(r"\b(Play|Discard|Clue|Save|clued|slot|turn|after)\b")
    seen = 0
    for names, turns in _reviewed_games():
        for turn in turns:
            with translation.override("en"):
                assert in_words(turn.reason, names) == (turn.reason, True)
            with translation.override(language):
                worded, done = in_words(turn.reason, names)
            assert done, turn.reason
            assert worded != turn.reason
            assert not english_words.search(worded), worded
            seen += 1
    assert seen > 200


@pytest.mark.parametrize(
    "language, expected",
    [
        (
            "de",
            "Hinweis an Bob O'Neil: rot (Plätze 1, 4): ein Spielhinweis auf rot 2 von Bob "
            "O'Neil (Platz 1), nach zuerst rot 1 mit Hinweis von Cid; 6 Hinweisplättchen übrig",
        ),
        (
            "fr",
            "Indice à Bob O'Neil : rouge (positions 1, 4) : un indice de jeu sur le rouge 2 de "
            "Bob O'Neil (position 1), après d'abord le rouge 1 indiqué de Cid ; 6 jetons indice "
            "en réserve",
        ),
    ],
)
def test_a_reason_read_back_into_its_parts(language, expected):
    from games.review_words import in_words

    reason = (
        "Clue Bob O'Neil red (slots 1, 4): a play clue on Bob O'Neil's red 2 (slot 1), after "
        "Cid's clued red 1 first; 6 clue tokens to spare"
    )
    with translation.override(language):
        assert in_words(reason, REASON_NAMES) == (expected, True)
        # A sentence of a shape it does not know stays English, and says so.
        assert in_words("Play it: a hunch", REASON_NAMES) == ("Play it: a hunch", False)


@pytest.mark.parametrize(
    "language, expected",
    [
        (
            "de",
            "Hinweis an Bob O'Neil: 2 (Platz 5): er berührt keine neue Karte, zeigt aber, dass "
            "rot 2 von Bob O'Neil (Platz 5) jetzt spielbar ist",
        ),
        (
            "fr",
            "Indice à Bob O'Neil : 2 (position 5) : il ne touche aucune nouvelle carte, mais "
            "montre que le rouge 2 de Bob O'Neil (position 5) se joue maintenant",
        ),
    ],
)
def test_a_fix_clue_read_back(language, expected):
    from games.review_words import in_words

    reason = (
        "Clue Bob O'Neil 2 (slot 5): it touches no new card, but shows Bob O'Neil's red 2 "
        "(slot 5) plays now"
    )
    with translation.override(language):
        assert in_words(reason, REASON_NAMES) == (expected, True)


LEVEL_4_AND_5_REASONS = [
    "Clue Bob O'Neil 1 (slot 4): a Trash Chop Move: it keeps Bob O'Neil's blue 4 (slot 5) "
    "from the discard pile; in the Early Game a clue comes before any discard",
    "Clue Bob O'Neil 1 (slot 1): a Trash Chop Move on 4 cards: it keeps Bob O'Neil's blue 4 "
    "(slot 5) and the others from the discard pile",
    "Clue Bob O'Neil 5 (slot 4): a 5's Chop Move: it keeps Bob O'Neil's green 3 (slot 5) from "
    "the discard pile",
    "Play slot 3: it was clued 1 as a play clue on turn 1 (it can only be red 1 or blue 1); an "
    "Order Chop Move: this 1 out of order tells Cid to keep their chop, Cid's red 5 (slot 5)",
    "Save Bob O'Neil's 5 (blue 5) on chop: Clue Bob O'Neil 5 (slot 4); the Urgency Principle: a "
    "save that cannot wait comes before its blind play, which waits a turn",
]


@LANGUAGES
@pytest.mark.parametrize("reason", LEVEL_4_AND_5_REASONS)
def test_the_chop_moves_and_the_urgency_principle_are_worded(language, reason):
    from games.review_words import in_words

    with translation.override(language):
        worded, done = in_words(reason, REASON_NAMES)
    assert done, reason
    assert not re.search(r"\b(Play|Clue|Save|slot|keeps|tells|waits)\b", worded), worded
    card = {"de": "blau 4", "fr": "bleu 4"}[language]
    if "blue 4" in reason:
        assert card in worded


# -- too many at once ----------------------------------------------------------------------


@LANGUAGES
def test_too_many_invitations_are_refused_in_the_readers_language(
    client, alice, language, monkeypatch
):
    from datetime import timedelta

    from games import limits

    # Two a day at most, here: the third is refused.
    monkeypatch.setattr(
        limits, "INVITATIONS", limits.Limit(2, timedelta(days=1), "invitations by email", "day")
    )
    game = lobby.create_game(alice, GameOptions(players=4), Game.Visibility.INVITE)
    speaking(language, alice)
    client.force_login(alice)
    for number in range(2):
        response = client.post(f"/games/{game.pk}/invite/", {"email": f"friend{number}@a.test"})
        assert response.status_code == 302
    response = client.post(f"/games/{game.pk}/invite/", {"email": "friend9@a.test"})
    assert response.status_code == 429
    html = unescape(response.content.decode())
    assert main_lang(html) == language
    words = {
        "de": [
            "<h1>Zu viel auf einmal</h1>",
            "Du hast am letzten Tag 2 Einladungen per E-Mail verschickt, mehr erlaubt diese "
            "Seite nicht: bitte versuche es später noch einmal. Nichts wurde gesendet.",
            "Zurück zur Partie",
        ],
        "fr": [
            "<h1>Trop à la fois</h1>",
            "Tu as envoyé 2 invitations par e-mail ces dernières 24 heures, le maximum que ce "
            "site permet : réessaie plus tard. Rien n'a été envoyé.",
            "Retour à la partie",
        ],
    }[language]
    assert missing(html, words) == []
