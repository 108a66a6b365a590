"""The site's pages in German and French (issue 29): a German or French viewer reads the
lobby, ... in their language, and its <main> says so; an English viewer's page is unchanged
(tests/test_pages.py and the pages' own tests)."""

import re
from html import unescape

import pytest

from games.engine import GameOptions
from games.models import Game
from games.services import lobby
from tests.games.conftest import current_user, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]


def main_lang(html: str) -> str:
    (lang,) = re.findall(r'<main id="main" lang="([^"]*)">', html)
    return lang


def speaking(user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    return user


@pytest.mark.parametrize(
    "language, expected",
    [
        (
            "de",
            [
                "<title>(1) Du bist am Zug · Lobby · ",
                "<h1>Lobby</h1>",
                ">Neue Partie</a>",
                '<h2 id="my-games">Meine Partien</h2>',
                '<strong class="badge turn">Du bist am Zug</strong>',
                "2 Spieler, Farbrausch² (bunt zählt als jede Farbe) · ",
                "Sucht Spieler: 2 Plätze frei",
                "3 Spieler, erstellt von Bob",
                '<h2 id="open-games">Offene Partien</h2>',
                "Die Verteilung der Woche",
                "Noch keine beendete Partie.",
            ],
        ),
        (
            "fr",
            [
                "<title>(1) À toi de jouer · Salon · ",
                "<h1>Salon</h1>",
                ">Nouvelle partie</a>",
                '<h2 id="my-games">Mes parties</h2>',
                '<strong class="badge turn">À toi de jouer</strong>',
                "2 joueurs, multicolore joker (compte pour toutes les couleurs) · ",
                "Cherche des joueurs : 2 places libres",
                "3 joueurs, créée par Bob",
                '<h2 id="open-games">Parties ouvertes</h2>',
                "La donne de la semaine",
                "Aucune partie terminée pour l'instant.",
            ],
        ),
    ],
)
def test_the_lobby_in_german_and_french(client, alice, bob, language, expected):
    game = start_game(alice, bob, multicolour=3)
    player = speaking(current_user(game), language)
    lobby.create_game(player, GameOptions(players=3), Game.Visibility.INVITE)
    lobby.create_game(bob, GameOptions(players=3), Game.Visibility.PUBLIC)
    client.force_login(player)
    html = unescape(client.get("/").content.decode())
    assert main_lang(html) == language
    missing = [text for text in expected if text not in html]
    assert missing == []
    for english in ("My games", "Your turn", "Gathering players", "created by", "No finished"):
        assert english not in html


@pytest.mark.parametrize(
    "accept, language, expected",
    [
        (
            "de-DE,de;q=0.9",
            "de",
            ["Hanabi für alle, die über Tage spielen", "Zum Spielen anmelden"],
        ),
        (
            "fr-FR,fr;q=0.9",
            "fr",
            ["Hanabi pour celles et ceux qui jouent", "Se connecter pour jouer"],
        ),
    ],
)
def test_the_lobby_for_a_visitor_in_their_browsers_language(client, accept, language, expected):
    html = unescape(client.get("/", headers={"accept-language": accept}).content.decode())
    assert main_lang(html) == language
    assert [text for text in expected if text not in html] == []


def test_the_lobby_stays_english_for_an_english_viewer(client, alice, bob):
    start_game(alice, bob, multicolour=3)
    client.force_login(alice)
    html = unescape(client.get("/").content.decode())
    assert main_lang(html) == "en"
    assert '<h2 id="my-games">My games</h2>' in html
    assert "2 players, wild multicolour · " in html
    assert "The deal of the week" in html


NEW_GAME = {
    "de": [
        "<title>Neue Partie · ",
        "<h1>Neue Partie</h1>",
        ">Bots am Tisch:</label>",
        ">3 Spieler</option>",
        ">Farbrausch² (bunt zählt als jede Farbe)</option>",
        ">Ohne Bunt</option>",
        ">72 Stunden</option>",
        ">7 Tage</option>",
        "Ein Bot zieht für die abwesende Person",
        "Nur Leute mit dem Einladungslink",
        "Bis perfekt spielen (Variante 4)",
        ">Partie erstellen</button>",
    ],
    "fr": [
        "<title>Nouvelle partie · ",
        "<h1>Nouvelle partie</h1>",
        ">Bots à la table\u00a0:</label>",
        ">3 joueurs</option>",
        ">Multicolore joker (compte pour toutes les couleurs)</option>",
        ">Sans multicolore</option>",
        ">72 heures</option>",
        ">7 jours</option>",
        "Un bot joue le coup à la place du joueur absent",
        "Seulement les personnes ayant le lien d'invitation",
        "Jouer jusqu'à la perfection (variante 4)",
        ">Créer la partie</button>",
    ],
}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_new_game_form_in_german_and_french(client, alice, language):
    client.force_login(speaking(alice, language))
    html = unescape(client.get("/games/new/").content.decode())
    assert main_lang(html) == language
    assert [text for text in NEW_GAME[language] if text not in html] == []
    for english in ("Bots at the table", "3 players", "72 hours", "Create the game"):
        assert english not in html


@pytest.mark.parametrize(
    "language, refusal, created",
    [
        ("de", "Lass mindestens einen Platz für einen Menschen frei: dich.", "Partie erstellt."),
        ("fr", "Laisse au moins une place à une personne : toi.", "Partie créée."),
        ("en", "Leave at least one seat for a person: you.", "Game created."),
    ],
)
def test_the_new_game_forms_answers_in_the_viewers_language(
    client, alice, language, refusal, created
):
    client.force_login(speaking(alice, language))
    form = {
        "players": 2,
        "bots": 2,
        "multicolour": 0,
        "fuses": 3,
        "turn_time_limit": 72,
        "timeout_policy": "auto_move",
        "visibility": "invite",
    }
    html = unescape(client.post("/games/new/", form).content.decode())
    assert refusal in html
    response = client.post("/games/new/", {**form, "bots": 1}, follow=True)
    assert created in unescape(response.content.decode())


def test_the_new_game_form_stays_english_for_an_english_viewer(client, alice):
    client.force_login(alice)
    html = unescape(client.get("/games/new/").content.decode())
    assert main_lang(html) == "en"
    for text in (
        ">3 players</option>",
        ">Wild multicolour</option>",
        ">No multicolour</option>",
        ">72 hours</option>",
        ">7 days</option>",
        ">No limit</option>",
        "A bot makes the move for the absent player",
        ">Create the game</button>",
    ):
        assert text in html


WAITING = {
    "de": {
        "creator": [
            "3 Spieler · nur auf Einladung · erstellt von Alice",
            "72 Stunden pro Zug; wenn die Zeit abläuft: ein Bot zieht für die abwesende Person.",
            "<h2>Plätze</h2>",
            "Alice (hat die Partie erstellt)",
            "freier Platz",
            ">Bot hinzufügen</button>",
            ">Partie starten</button>",
            "Die Partie kann beginnen, wenn jeder Platz besetzt ist.",
            "<h2>Spieler einladen</h2>",
            "Teile diesen Link:",
            "E-Mail-Adresse zum Einladen",
            ">Einladung senden</button>",
            '<h2 id="chat-heading">Tischgespräch</h2>',
            "Freunde und Mitspieler der letzten Zeit",
        ],
        "player": ["Warten, bis Alice die Partie startet.", ">Diesen Tisch verlassen</button>"],
    },
    "fr": {
        "creator": [
            "3 joueurs · sur invitation seulement · créée par Alice",
            "72 heures par tour ; quand le temps est écoulé : un bot joue le coup à la place "
            "du joueur absent.",
            "<h2>Places</h2>",
            "Alice (a créé la partie)",
            "place libre",
            ">ajouter un bot</button>",
            ">Lancer la partie</button>",
            "La partie peut commencer quand toutes les places sont prises.",
            "<h2>Inviter des joueurs</h2>",
            "Partage ce lien :",
            "Adresse e-mail à inviter",
            ">Envoyer une invitation</button>",
            '<h2 id="chat-heading">Discussion à table</h2>',
            "Amis et partenaires récents",
        ],
        "player": ["En attente que Alice lance la partie.", ">Quitter cette table</button>"],
    },
}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_waiting_room_in_german_and_french(client, alice, bob, language):
    game = lobby.create_game(
        alice, GameOptions(players=3), Game.Visibility.INVITE, turn_time_limit=72
    )
    lobby.join_game(game.pk, bob, game.invite_code)
    client.force_login(speaking(alice, language))
    html = unescape(client.get(game.get_absolute_url()).content.decode())
    assert main_lang(html) == language
    assert [text for text in WAITING[language]["creator"] if text not in html] == []
    for english in ("Seats", "Start the game", "Invite players", "Table talk", "per turn"):
        assert english not in html
    client.force_login(speaking(bob, language))
    html = unescape(client.get(game.get_absolute_url()).content.decode())
    assert main_lang(html) == language
    assert [text for text in WAITING[language]["player"] if text not in html] == []


def test_the_waiting_room_stays_english_for_an_english_viewer(client, alice):
    game = lobby.create_game(
        alice, GameOptions(players=3), Game.Visibility.INVITE, turn_time_limit=72
    )
    client.force_login(alice)
    html = unescape(client.get(game.get_absolute_url()).content.decode())
    assert main_lang(html) == "en"
    for text in (
        "<p>3 players · by invitation only · created by Alice</p>",
        "<p>72 hours per turn; when time runs out: a bot makes the move for the absent player.</p>",
        "<h2>Seats</h2>",
        ">Start the game</button>",
        '<h2 id="chat-heading">Table talk</h2>',
    ):
        assert text in html


PROFILE = {
    "de": [
        "<title>Alice: Profil · ",
        '<h2 id="summary">Beendete Partien</h2>',
        "<dt>Gespielt</dt><dd>2</dd>",
        "<dt>Durchschnittliche Punktzahl</dt>",
        '<h2 id="max-scores">Höchstpunktzahlen</h2>',
        '<th scope="col">2 Spieler</th>',
        "Farbrausch² (bunt zählt als jede Farbe), 2 Gewitterplättchen <span",
        "(max. 30)",
        "0 von 1 gewonnen",
        '<h2 id="partners">Häufige Mitspieler</h2>',
        '<h2 id="last-games">Letzte Partien</h2>',
        "<td>verloren</td>",
        "<td>gewonnen</td>",
        "<td>keine Variante</td>",
        "Alle Partien, mit Filtern",
        "Mein Profil privat machen",
    ],
    "fr": [
        "<title>Alice : profil · ",
        '<h2 id="summary">Parties terminées</h2>',
        "<dt>Jouées</dt><dd>2</dd>",
        "<dt>Score moyen</dt>",
        '<h2 id="max-scores">Scores maximaux</h2>',
        '<th scope="col">2 joueurs</th>',
        "multicolore joker (compte pour toutes les couleurs), 2 jetons orage <span",
        "(max 30)",
        "victoires : 0 sur 1",
        '<h2 id="partners">Partenaires fréquents</h2>',
        '<h2 id="last-games">Dernières parties</h2>',
        "<td>perdue</td>",
        "<td>gagnée</td>",
        "<td>sans variante</td>",
        "Toutes les parties, avec des filtres",
        "Rendre mon profil privé",
    ],
}
HISTORY = {
    "de": ["<h1>Partien von Alice</h1>", "2 Partien", ">Filtern</button>", ">Variante</label>"],
    "fr": ["<h1>Parties de Alice</h1>", "2 parties", ">Filtrer</button>", ">Variante</label>"],
}


def finished_games(alice, bob) -> None:
    from tests.players.helpers import finished_game

    finished_game([alice, bob], score=25)
    finished_game([alice, bob], score=12, multicolour=3, fuses=2)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_profile_and_history_in_german_and_french(client, alice, bob, language):
    finished_games(alice, bob)
    client.force_login(speaking(alice, language))
    html = unescape(client.get(f"/players/{alice.pk}/").content.decode())
    assert main_lang(html) == language
    assert [text for text in PROFILE[language] if text not in html] == []
    for english in ("Finished games", "Max scores", "won of", "Last games", "wild multicolour"):
        assert english not in html
    html = unescape(client.get(f"/players/{alice.pk}/games/").content.decode())
    assert main_lang(html) == language
    assert [text for text in HISTORY[language] if text not in html] == []
    assert "Games of" not in html


def test_the_profile_stays_english_for_an_english_viewer(client, alice, bob):
    finished_games(alice, bob)
    client.force_login(alice)
    html = client.get(f"/players/{alice.pk}/").content.decode()
    assert main_lang(html) == "en"
    for text in (
        "<dt>Played</dt><dd>2</dd>",
        '<th scope="col">2 players</th>',
        "wild multicolour, 2 fuses <span",
        "0 won of 1",
        "<td>lost</td>",
        "<td>no variant</td>",
    ):
        assert text in html


ACCOUNT_PAGES = {
    "de": {
        "/accounts/login/": ["<h1>Anmelden</h1>", "Lass dir einen Anmeldecode mailen", "Neu hier?"],
        "/accounts/signup/": [
            "<h1>Registrieren</h1>",
            "Anzeigename",
            ">Mein Konto erstellen</button>",
        ],
        "/accounts/password/reset/": ["<h1>Passwort zurücksetzen</h1>", "Link zum Zurücksetzen"],
        "/accounts/login/code/": ["<h1>Mit einem Code anmelden</h1>", ">Code mailen</button>"],
    },
    "fr": {
        "/accounts/login/": [
            "<h1>Se connecter</h1>",
            "Reçois un code de connexion",
            "Nouveau ici ?",
        ],
        "/accounts/signup/": ["<h1>S'inscrire</h1>", "Nom affiché", ">Créer mon compte</button>"],
        "/accounts/password/reset/": [
            "<h1>Réinitialiser ton mot de passe</h1>",
            "M'envoyer un lien de réinitialisation",
        ],
        "/accounts/login/code/": [
            "<h1>Se connecter avec un code</h1>",
            ">M'envoyer un code</button>",
        ],
    },
}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_account_pages_in_german_and_french(client, language):
    for url, expected in ACCOUNT_PAGES[language].items():
        response = client.get(url, headers={"accept-language": language})
        assert response.status_code == 200, url
        html = unescape(response.content.decode())
        assert main_lang(html) == language, url
        assert [text for text in expected if text not in html] == [], url


@pytest.mark.parametrize(
    "language, expected",
    [
        ("de", ["<h1>Deine E-Mail-Adresse</h1>", "Du meldest dich mit <strong>alice@"]),
        ("fr", ["<h1>Ton adresse e-mail</h1>", "Tu te connectes avec <strong>alice@"]),
    ],
)
def test_the_email_change_page_in_german_and_french(client, alice, language, expected):
    client.force_login(speaking(alice, language))
    html = unescape(client.get("/accounts/email/").content.decode())
    assert main_lang(html) == language
    assert [text for text in expected if text not in html] == []


def test_a_refused_sign_up_says_error_in_the_viewers_language(client):
    html = unescape(
        client.post(
            "/accounts/signup/",
            {"email": "not an address", "display_name": "Dora"},
            headers={"accept-language": "de"},
        ).content.decode()
    )
    assert "<strong>Fehler: " in html and "Error:" not in html


@pytest.mark.parametrize(
    "language, expected, saved",
    [
        (
            "de",
            [
                "<h1>Dein Profil</h1>",
                "Spiel-E-Mails",
                "Eine E-Mail am Tag",
                "Zeitzone",
                ">Speichern<",
            ],
            "Dein Profil ist gespeichert.",
        ),
        (
            "fr",
            ["<h1>Ton profil</h1>", "E-mails de partie", "Un e-mail par jour", "Fuseau horaire"],
            "Ton profil est enregistré.",
        ),
    ],
)
def test_the_account_profile_in_german_and_french(client, alice, language, expected, saved):
    client.force_login(speaking(alice, language))
    html = unescape(client.get("/accounts/profile/").content.decode())
    assert main_lang(html) == language
    assert [text for text in expected if text not in html] == []
    assert "Game emails" not in html and "Time zone" not in html
    form = {
        "display_name": "Alice",
        "notify": "daily_digest",
        "time_zone": "Europe/Paris",
        "language": language,
    }
    response = client.post("/accounts/profile/", form, follow=True)
    assert saved in unescape(response.content.decode())
