"""Invitations by email, chat messages and reports are limited per person (games/limits.py):
one over the limit is answered with HTTP 429 and changes nothing; others are not affected;
the limit lifts when the period has passed."""

from datetime import timedelta

import pytest

from games import limits
from games.errors import TooMany
from games.models import ChatMessage, ChatPolicy, Game, Invitation
from games.services import chat, lobby
from moderation import services as moderation
from moderation.models import Report
from tests.games.conftest import start_game


def age(rows, by: timedelta) -> None:
    for row in rows:
        type(row).objects.filter(pk=row.pk).update(created_at=row.created_at - by)


@pytest.mark.django_db
def test_the_twenty_first_invitation_in_a_day_is_refused_with_429(client, alice, bob):
    from games.engine import GameOptions

    game = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.INVITE)
    assert limits.INVITATIONS.most == 20
    client.force_login(alice)
    for n in range(20):
        response = client.post(f"/games/{game.pk}/invite/", {"email": f"friend{n}@example.org"})
        assert response.status_code == 302
    response = client.post(f"/games/{game.pk}/invite/", {"email": "one-more@example.org"})
    assert response.status_code == 429
    assert "You have sent 20 invitations by email in the last day" in response.content.decode()
    assert Invitation.objects.count() == 20
    assert not Invitation.objects.filter(email="one-more@example.org").exists()

    # Another player's invitations are their own to count.
    lobby.join_game(game.pk, bob, game.invite_code)
    lobby.invite_by_email(game.pk, bob, "bobs-friend@example.org")
    # A day later, Alice may invite again.
    age(Invitation.objects.filter(invited_by=alice), timedelta(days=1, seconds=1))
    lobby.invite_by_email(game.pk, alice, "one-more@example.org")


@pytest.mark.django_db
def test_the_eleventh_message_in_a_minute_is_refused_with_429(client, alice, bob):
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(chat_policy=ChatPolicy.DURING)
    client.force_login(bob)
    for n in range(10):
        assert client.post(f"/games/{game.pk}/chat/", {"text": f"hi {n}"}).status_code == 302
    response = client.post(f"/games/{game.pk}/chat/", {"text": "and again"})
    assert response.status_code == 429
    assert "10 messages in the last minute" in response.content.decode()
    assert ChatMessage.objects.count() == 10
    chat.post_message(game.pk, alice, "Alice still may")
    age(ChatMessage.objects.filter(author=bob), timedelta(minutes=1, seconds=1))
    chat.post_message(game.pk, bob, "and Bob again, a minute later")


@pytest.mark.django_db
def test_the_eleventh_report_in_a_day_is_refused_with_429(client, alice, bob):
    game = start_game(alice, bob)
    for n in range(10):
        moderation.report(game.pk, alice, f"odd thing {n}")
    with pytest.raises(TooMany):
        moderation.report(game.pk, alice, "one more")
    client.force_login(alice)
    response = client.post(f"/games/{game.pk}/report/", {"reason": "one more"})
    assert response.status_code == 429
    assert "10 reports in the last day" in response.content.decode()
    assert Report.objects.count() == 10
    moderation.report(game.pk, bob, "Bob's own report")
