"""The account pages around game emails, and allauth's emails, in German and French (issue
29): the unsubscribe pages speak the language of the emails they stop, the page of a broken
or expired game link the reader's, with <main lang> saying so; a German or French account
gets its password reset, login code and address confirmation in its language."""

import re
from html import unescape

import pytest
from django.conf import settings

from accounts.models import User
from accounts.unsubscribe import unsubscribe_url
from games.emails import game_link
from tests.accounts.conftest import send_account_emails, signup_data
from tests.games.conftest import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]


def main_lang(html: str) -> str:
    (lang,) = re.findall(r'<main id="main" lang="([^"]*)">', html)
    return lang


def speaking(user: User, language: str) -> User:
    user.language = language
    user.save(update_fields=["language"])
    return user


def page(response) -> str:
    return unescape(response.content.decode())


UNSUBSCRIBE = {
    "de": [
        "Spiel-E-Mails für alice@example.org abbestellen?",
        "Du bekommst keine E-Mails mehr zu deinen Partien",
        ">Spiel-E-Mails abbestellen</button>",
        "Wähl in deinen Einstellungen eine tägliche Übersicht</a>",
    ],
    "fr": [
        "Arrêter les e-mails de partie pour alice@example.org ?",
        "Tu ne recevras plus d'e-mails sur tes parties",
        ">Arrêter les e-mails de partie</button>",
        "Choisis un récapitulatif quotidien dans tes préférences</a>",
    ],
}
UNSUBSCRIBED = {
    "de": ["<h1>Spiel-E-Mails sind aus</h1>", "Wir schreiben alice@example.org keine E-Mails"],
    "fr": ["<h1>Les e-mails de partie sont désactivés</h1>", "Nous n'écrirons plus à alice"],
}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_unsubscribe_pages_speak_the_language_of_the_emails(client, alice, language):
    speaking(alice, language)
    path = unsubscribe_url(alice).removeprefix(settings.SITE_URL)
    # An English browser (a mail provider's, say): the page is still the account's language.
    response = client.get(path, headers={"accept-language": "en"})
    assert response["Content-Language"] == language
    html = page(response)
    assert main_lang(html) == language
    assert [text for text in UNSUBSCRIBE[language] if text not in html] == []
    assert "Stop game emails" not in html
    html = page(client.post(path))
    assert main_lang(html) == language
    assert [text for text in UNSUBSCRIBED[language] if text not in html] == []
    alice.refresh_from_db()
    assert alice.notify == User.Notify.NONE


@pytest.mark.parametrize(
    "language, expected",
    [
        (
            "de",
            [
                "Partie {game} für alice@example.org stummschalten?",
                "Alle Spiel-E-Mails abbestellen",
            ],
        ),
        ("fr", ["Couper la partie {game} pour", "Arrêter tous les e-mails de partie"]),
    ],
)
def test_a_game_unsubscribe_link_in_german_and_french(client, alice, bob, language, expected):
    game = start_game(alice, bob)
    speaking(alice, language)
    html = page(client.get(unsubscribe_url(alice, game.pk).removeprefix(settings.SITE_URL)))
    assert main_lang(html) == language
    assert [t for t in expected if t.format(game=game.pk) not in html] == []


def test_the_unsubscribe_page_stays_english_for_an_english_account(client, alice):
    html = page(client.get(unsubscribe_url(alice).removeprefix(settings.SITE_URL)))
    assert main_lang(html) == "en"
    assert "<h1>Stop game emails for alice@example.org?</h1>" in html


@pytest.mark.parametrize(
    "accept, language, expected",
    [
        ("de-DE,de;q=0.9", "de", ["<h1>Dieser Link funktioniert nicht</h1>", ">Anmelden</a>"]),
        ("fr-FR,fr;q=0.9", "fr", ["<h1>Ce lien ne fonctionne pas</h1>", ">Se connecter</a>"]),
    ],
)
def test_a_broken_game_link_says_so_in_the_readers_language(
    client, alice, bob, accept, language, expected
):
    game = start_game(alice, bob)
    path = game_link(alice, game).removeprefix(settings.SITE_URL)[:-12]
    html = page(client.get(path, headers={"accept-language": accept}, follow=True))
    assert main_lang(html) == language
    assert [text for text in expected if text not in html] == []


@pytest.mark.parametrize(
    "accept, language, expected",
    [
        ("de-DE,de;q=0.9", "de", ["Dieser Abmeldelink ist kaputt", "„Keine Spiel-E-Mails“"]),
        ("fr-FR,fr;q=0.9", "fr", ["Ce lien de désinscription est cassé", "« Aucun e-mail"]),
    ],
)
def test_a_broken_unsubscribe_link_in_the_readers_language(client, accept, language, expected):
    response = client.get("/accounts/unsubscribe/broken/", headers={"accept-language": accept})
    assert response.status_code == 400
    html = page(response)
    assert main_lang(html) == language
    assert [text for text in expected if text not in html] == []


RESET = {
    "de": (
        "Hanabi: ein neues Passwort setzen",
        ["Hallo,", "Jemand, wahrscheinlich du, möchte ein neues Passwort", "Hanabi per Post"],
    ),
    "fr": (
        "Hanabi: choisir un nouveau mot de passe",
        ["Bonjour,", "Quelqu'un, probablement toi, a demandé un nouveau mot de passe"],
    ),
}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_password_reset_email_is_in_the_accounts_language(client, alice, language):
    speaking(alice, language)
    # Asked logged out, from a browser that names no language: the account's decides.
    client.post("/accounts/password/reset/", {"email": alice.email})
    (message,) = send_account_emails()
    subject, expected = RESET[language]
    assert message.subject == subject
    assert [text for text in expected if text not in message.body] == []
    assert "Someone, probably you" not in message.body


@pytest.mark.parametrize(
    "language, subject, expected",
    [
        ("de", "Hanabi: dein Anmeldecode", "Hier ist dein Code für die Anmeldung"),
        ("fr", "Hanabi: ton code de connexion", "Voici ton code pour te connecter"),
    ],
)
def test_a_login_code_email_is_in_the_accounts_language(client, alice, language, subject, expected):
    speaking(alice, language)
    client.post("/accounts/login/code/", {"email": alice.email})
    (message,) = send_account_emails()
    assert message.subject == subject
    assert expected in message.body


@pytest.mark.parametrize(
    "accept, subject, expected",
    [
        ("de-DE,de;q=0.9", "Hanabi: bestätige deine E-Mail-Adresse", "Dora hat diese Adresse"),
        ("fr-FR,fr;q=0.9", "Hanabi: confirme ton adresse e-mail", "Dora a donné cette adresse"),
    ],
)
def test_the_sign_up_confirmation_is_in_the_browsers_language(client, accept, subject, expected):
    client.post("/accounts/signup/", signup_data(), headers={"accept-language": accept})
    (message,) = send_account_emails()
    assert message.subject == subject
    assert expected in message.body


def test_an_english_accounts_reset_email_is_unchanged(client, alice):
    client.post("/accounts/password/reset/", {"email": alice.email})
    (message,) = send_account_emails()
    assert message.subject == "Hanabi: set a new password"
    assert message.body.startswith(
        "Hello,\n\nSomeone, probably you, asked to set a new password for your Hanabi by post\n"
        "account. Open this link to choose it:\n"
    )
