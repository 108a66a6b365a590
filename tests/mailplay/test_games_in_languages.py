"""Whole games played by email in German and in French (issue 29): each turn email in the
reader's language, suggesting commands in it; each reply one of those commands, made and
answered in that language; the game-over email too. And the refusals and help in it."""

import re

import pytest

from accounts.models import User
from games.models import Game
from games.text_commands import VOCABULARIES
from mailplay.models import InboundMessage
from tests.games.conftest import current_user, start_game
from tests.mail import html_body, run_due
from tests.mailplay.conftest import send_reply

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once", "translated")]

# What each language's emails say, and English words none of them may hold.
WORDING = {
    "de": {
        "turn_subject": "Du bist am Zug in Hanabi-Partie {game}",
        "reply_with": "Antworte auf diese E-Mail mit einem Befehl:",
        "moved_subject": "Hanabi-Partie {game}: dein Zug ist gemacht",
        "done": "Erledigt: ",
        "own_hand": "Deine Hand (",
        "figures": "Hinweisplättchen ",
        "over_subject": "Hanabi-Partie {game} ist vorbei",
        "help": "hilfe",
        "help_answer": "Antworte mit einem Befehl in der ersten Zeile deiner Antwort:",
        "no_slot": "Es gibt keinen Platz 9: deine Hand hat die Plätze 1 bis 5. "
        "Es wurde nichts gespielt.",
        "html_lang": '<html lang="de">',
        "no_discard": "„wirf Platz 1 ab“: Dieser Zug ist nicht erlaubt: alle 8 Hinweisplättchen "
        "sind verfügbar, also darf niemand abwerfen. Es wurde nichts gespielt.",
    },
    "fr": {
        "turn_subject": "À toi de jouer dans la partie de Hanabi {game}",
        "reply_with": "Réponds à cet e-mail avec une commande :",
        "moved_subject": "Partie de Hanabi {game} : ton coup est joué",
        "done": "C'est fait : ",
        "own_hand": "Ta main (",
        "figures": "Jetons indice ",
        "over_subject": "La partie de Hanabi {game} est terminée",
        "help": "aide",
        "help_answer": "Réponds avec une commande sur la première ligne de ta réponse :",
        "no_slot": "Il n'y a pas de position 9 : ta main a les positions 1 à 5. Rien n'a été joué.",
        "html_lang": '<html lang="fr">',
        "no_discard": "« défausse la position 1 » : Ce coup n'est pas permis : les 8 jetons indice "
        "sont disponibles, donc personne ne peut défausser. Rien n'a été joué.",
    },
}
ENGLISH = (
    "Reply to this email",
    "Your hand",
    "Clue tokens",
    "Discards:",
    "Open the game",
    "Email preferences",
    "Hands (slot 1",
    "no clues",
    "can be ",
    "any card",
    "Done:",
)


def speaking(language: str, *users: User) -> None:
    for user in users:
        user.language = language
        user.save(update_fields=["language"])


def turn_email(mailoutbox, game: Game, user: User):
    run_due("your_turn")
    (message,) = [m for m in mailoutbox if m.to == [user.email] and "Reply-To" in m.extra_headers]
    mailoutbox.clear()
    return message


def suggested(message, language: str) -> list[str]:
    """The commands the turn email suggests, from its text part."""
    lines = message.body.splitlines()
    start = lines.index(WORDING[language]["reply_with"]) + 1
    found = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        found.append(line.strip())
    return found


def assert_in_language(message, language: str, *, phone_width: bool = False) -> None:
    """No English words of the emails; with ``phone_width``, text lines of 72 characters at
    most (as the English turn emails: tests/notifications/test_turn_emails.py)."""
    html = html_body(message)
    assert WORDING[language]["html_lang"] in html
    for english in ENGLISH:
        assert english not in message.body, english
        assert english not in html, english
    for line in message.body.splitlines() if phone_width else []:
        assert len(line) <= 72 or "http" in line, line


def pick(examples: list[str], words, *, play: bool) -> str:
    by_verb = {example.split()[0]: example for example in reversed(examples)}
    order = (words.play, words.discard, words.clue) if play else (words.discard, words.clue)
    return next((by_verb[verb] for verb in order if verb in by_verb), examples[0])


@pytest.mark.slow
@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_whole_game_by_email_in_the_players_language(alice, bob, mailoutbox, language):
    speaking(language, alice, bob)
    game = start_game(alice, bob)
    words = VOCABULARIES[language]
    verbs = {words.play, words.discard, words.clue}
    wording = {key: text.format(game=game.pk) for key, text in WORDING[language].items()}
    kinds = set()
    for turn in range(200):
        game.refresh_from_db()
        if not game.is_playing():
            break
        mover = current_user(game)
        message = turn_email(mailoutbox, game, mover)
        assert message.subject == wording["turn_subject"]
        assert wording["own_hand"] in message.body and wording["figures"] in message.body
        assert_in_language(message, language, phone_width=True)
        examples = suggested(message, language)
        assert examples and all(example.split()[0] in verbs for example in examples)
        # One of the email's commands: mostly discards and clues, so that the deck runs
        # out before the fuses do, and now and then a play.
        command = pick(examples, words, play=turn % 9 == 4)
        kinds.add(command.split()[0])
        reply = send_reply(game, mover, command)
        assert reply.status == InboundMessage.Status.MOVED, reply.outcome
        assert reply.outcome.startswith(wording["done"])
        (answer,) = [m for m in mailoutbox if m.to == [mover.email]]
        assert answer.subject == wording["moved_subject"]
        assert answer.body.startswith(wording["done"])
        assert_in_language(answer, language)
        mailoutbox.clear()
    else:
        raise AssertionError("the game did not end")
    assert kinds == verbs  # plays, discards and clues, all in the language
    assert turn > 20  # a game of many turns, not three misplays
    run_due("game_over")
    over = [m for m in mailoutbox if m.subject.startswith(wording["over_subject"])]
    assert sorted(m.to[0] for m in over) == sorted([alice.email, bob.email])
    for message in over:
        assert WORDING[language]["html_lang"] in html_body(message)
        assert "Watch the replay" not in message.body and "Final score" not in message.body


@pytest.mark.parametrize("language", ["de", "fr"])
def test_help_and_a_refusal_in_the_players_language(alice, bob, mailoutbox, language):
    speaking(language, alice, bob)
    game = start_game(alice, bob)
    mover = current_user(game)
    words = VOCABULARIES[language]
    wording = WORDING[language]

    message = send_reply(game, mover, wording["help"])
    assert message.status == InboundMessage.Status.ANSWERED
    (answer,) = [m for m in mailoutbox if m.to == [mover.email]]
    assert wording["help_answer"] in answer.body
    assert f"  {words.play} N " in answer.body and f"  {words.discard} N " in answer.body
    assert f"\n  {wording['help']} " in answer.body  # "hilfe", "aide": the help's own word
    assert_in_language(answer, language)

    mailoutbox.clear()
    message = send_reply(game, mover, f"{words.play} 9")
    assert message.status == InboundMessage.Status.ANSWERED
    assert message.outcome == wording["no_slot"]
    (answer,) = [m for m in mailoutbox if m.to == [mover.email]]
    assert answer.body.startswith(wording["no_slot"])

    # A move the rules refuse (a discard with every clue token available): the reason too.
    mailoutbox.clear()
    message = send_reply(game, mover, f"{words.discard} 1")
    assert message.status == InboundMessage.Status.ANSWERED
    assert message.outcome == wording["no_discard"]


def test_an_english_reader_still_gets_english(alice, bob, mailoutbox):
    game = start_game(alice, bob)
    mover = current_user(game)
    message = turn_email(mailoutbox, game, mover)
    assert message.subject == f"Your turn in Hanabi game {game.pk}"
    assert "Reply to this email with one command:" in message.body
    assert '<html lang="en">' in html_body(message)
    assert re.search(r"^  (play|discard|clue) ", message.body, re.MULTILINE)
