"""Each game email in its recipient's language, whoever's action sent it (issue 29): the
game over, the digest, the reminder, an invitation (the invitee's language if they have an
account, else the inviter's), a rematch invitation, a suspension; English by default."""

import re

import pytest
from django.utils import timezone

from accounts.models import User
from games import tasks
from games.engine import GameOptions
from games.models import Game
from games.services import lobby
from outbox.models import Outbox
from rematches import services as rematches
from tests.conftest import make_moderator
from tests.games.conftest import current_user, play_to_the_end, start_game
from tests.mail import html_body, run_due

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once", "translated")]


def speaking(language: str, *users: User) -> None:
    for user in users:
        user.language = language
        user.save(update_fields=["language"])


def to(mailoutbox, user_or_address) -> list:
    address = getattr(user_or_address, "email", user_or_address)
    return [m for m in mailoutbox if m.to == [address]]


def test_the_game_over_email_is_in_each_players_language(alice, bob, mailoutbox):
    speaking("de", alice)
    speaking("fr", bob)
    game = play_to_the_end(start_game(alice, bob))
    run_due("game_over")
    (german,) = to(mailoutbox, alice)
    (french,) = to(mailoutbox, bob)
    assert german.subject.startswith(f"Hanabi-Partie {game.pk} ist vorbei: ")
    assert "Endstand:" in german.body and "Wiederholung" in german.body
    assert '<html lang="de">' in html_body(german)
    assert french.subject.startswith(f"La partie de Hanabi {game.pk} est terminée : ")
    assert "Score final :" in french.body and "rediffusion" in french.body
    # How it ended and the rating, in words of the language, not the engine's English.
    for message in (german, french):
        assert "short of perfect" not in message.body + message.subject
        assert "The last" not in message.body and "No remaining card" not in message.body


def test_the_digest_in_the_readers_language_with_its_plural(alice, bob, mailoutbox):
    User.objects.filter(pk__in=[alice.pk, bob.pk]).update(notify=User.Notify.DAILY_DIGEST)
    speaking("fr", alice, bob)
    game = start_game(alice, bob)
    assert tasks.daily_digest() == 2
    run_due("digest")
    (digest,) = mailoutbox
    assert digest.to == [current_user(game).email]
    assert digest.subject == "1 partie de Hanabi t'attend"
    assert "1 partie attend ton coup" in digest.body
    assert f"Partie {game.pk} (2 joueurs)" in digest.body


def test_the_reminder_in_the_readers_language(alice, bob, mailoutbox):
    speaking("de", alice, bob)
    game = start_game(alice, bob, turn_time_limit=24)
    Outbox.objects.filter(kind="reminder").update(due_at=timezone.now())
    run_due("reminder")
    (message,) = mailoutbox
    assert message.subject == f"Erinnerung: dein Zug in Hanabi-Partie {game.pk} läuft bald ab"
    assert "immer noch am Zug" in message.body and "Ziehst du bis dahin nicht" in message.body


def test_an_invitation_is_in_the_invitees_language_or_else_the_inviters(alice, bob, mailoutbox):
    speaking("fr", alice)  # the inviter
    speaking("de", bob)  # a member invited by address
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    lobby.invite_by_email(game.pk, alice, bob.email)
    lobby.invite_by_email(game.pk, alice, "stranger@example.org")
    run_due("invitation")
    (to_bob,) = to(mailoutbox, bob)
    assert to_bob.subject == f"Alice lädt dich zu einer Partie Hanabi ein (Partie {game.pk})"
    assert "3 Spieler" in to_bob.body and "E-Mail-Einstellungen" in to_bob.body
    (to_stranger,) = to(mailoutbox, "stranger@example.org")
    assert to_stranger.subject == f"Alice t'invite à une partie de Hanabi (partie {game.pk})"
    assert "3 joueurs" in to_stranger.body and "Sans compte" in to_stranger.body


def test_a_rematch_invitation_is_in_each_invitees_language(alice, bob, carol, mailoutbox):
    game = play_to_the_end(start_game(alice, bob, carol))
    speaking("de", bob)
    speaking("fr", carol)
    rematches.propose(game.pk, alice)
    run_due("rematch_invitation")
    (german,) = to(mailoutbox, bob)
    (french,) = to(mailoutbox, carol)
    assert german.subject == f"Alice möchte noch einmal spielen (Partie {game.pk})"
    assert "neu gemischt" in german.body and "3 Spieler" in german.body
    assert french.subject == f"Alice te propose de rejouer (partie {game.pk})"
    assert "nouvelle donne" in french.body and "3 joueurs" in french.body


def test_a_suspension_is_told_in_the_suspended_persons_language(mallory, mailoutbox):
    from moderation.services import suspend_user

    speaking("fr", mallory)
    suspend_user(mallory.pk, make_moderator(), "spam", 3)
    run_due("suspended")
    (message,) = to(mailoutbox, mallory)
    assert message.subject.startswith("Ton compte Hanabi est suspendu jusqu'au ")
    assert "La raison : spam" in message.body


def test_english_readers_get_the_emails_as_before(alice, bob, mailoutbox):
    game = play_to_the_end(start_game(alice, bob))
    run_due("game_over")
    message = to(mailoutbox, alice)[0]
    assert message.subject.startswith(f"Hanabi game {game.pk} is over: ")
    assert "Final score:" in message.body and '<html lang="en">' in html_body(message)


def test_an_invitation_in_the_inviters_language_links_to_the_table_in_the_others(
    alice, client, mailoutbox
):
    """The invitee's language is unknown without an account: the email, in the inviter's
    German, offers the table's page in English and in French, and the page keeps it."""
    speaking("de", alice)
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    lobby.invite_by_email(game.pk, alice, "stranger@example.org")
    run_due("invitation")
    (email,) = to(mailoutbox, "stranger@example.org")
    links = dict(re.findall(r"^(In English|En français): (\S+)$", email.body, re.M))
    assert sorted(links) == ["En français", "In English"]
    assert "Auf Deutsch" not in email.body
    assert 'lang="fr" hreflang="fr">En français</a>' in html_body(email)
    french = client.get(links["En français"])
    assert french.status_code == 200
    assert french.headers["Content-Language"] == "fr"
    assert '<html lang="fr">' in french.content.decode()
    assert french.cookies["django_language"].value == "fr"
    # The next page, without the link's parameter, is French too.
    assert client.get("/").headers["Content-Language"] == "fr"


def test_a_link_naming_no_language_of_the_site_changes_nothing(client, db):
    response = client.get("/?lang=xx", HTTP_ACCEPT_LANGUAGE="de")
    assert response.headers["Content-Language"] == "de"
    assert "django_language" not in response.cookies
