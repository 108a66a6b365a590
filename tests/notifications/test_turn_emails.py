"""Turn, reminder, game-over and digest emails: sent through the outbox, at most once,
only when still relevant, and never showing the recipient's own cards."""

import re
from datetime import timedelta
from urllib.parse import urlparse

import pytest
from django.utils import timezone

from accounts.models import User
from games import tasks
from games.engine import GameOptions, action_to_dict
from games.models import Game
from games.services import lobby, play
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import current_user, play_to_the_end, start_game, user_at
from tests.mail import html_body


@pytest.fixture(autouse=True)
def _send_at_once(settings):
    settings.NOTIFY_DELAY_SECONDS = 0


def run_due(kind: str) -> int:
    """Run every due row of one kind, as the worker would; how many did their work."""
    rows = Outbox.objects.filter(kind=kind, done_at=None, due_at__lte=timezone.now())
    return sum(delivery.run(pk) for pk in rows.values_list("pk", flat=True))


def first_clue(game: Game) -> dict:
    state = game.load_state()
    return action_to_dict(next(a for a in state.legal_actions() if type(a).__name__ == "Clue"))


def test_the_player_to_move_gets_one_email_with_the_table_and_a_link_to_the_game(
    client, alice, bob, mailoutbox
):
    game = start_game(alice, bob)
    mover = current_user(game)
    assert run_due(Outbox.Kind.YOUR_TURN) == 1
    assert run_due(Outbox.Kind.YOUR_TURN) == 0  # done rows are never run again
    (message,) = mailoutbox
    assert message.to == [mover.email]
    assert message.subject == f"Your turn in Hanabi game {game.pk}"
    html = html_body(message)
    assert "Fireworks:" in message.body and "Your hand: 5 cards" in message.body
    assert "Fireworks:" in html and "5 cards" in html and "Open the game" in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["List-Unsubscribe"].startswith("<http")

    # The other player's cards are listed; the recipient's own are not.
    state = game.load_state()
    seat = game.seats.get(user=mover).position
    others = [state.card(cid).code for cid in state.hand(1 - seat)]
    assert " ".join(others) in re.sub(r"\*", "", message.body)
    own_line = next(line for line in message.body.splitlines() if line.startswith("Your hand"))
    assert not re.search(r"\b[RYGBWM][1-5]\b", own_line)

    link = re.search(r"(http://\S+/accounts/open/\S+)", message.body).group(1)
    assert f'href="{link}"' in html
    assert "for a week" in message.body and "does not log you in" in html
    response = client.get(link.replace("http://127.0.0.1:8000", ""), follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert "It is your turn" in response.content.decode()
    assert_opens_only_the_game(client, mover)


def assert_opens_only_the_game(client, user: User) -> None:
    """The link left a pass for the game, not a login: the account is out of reach."""
    assert "_auth_user_id" not in client.session
    for path in ("/accounts/profile/", "/accounts/password/change/"):
        response = client.get(path)
        assert response.status_code == 302 and response.url.startswith("/accounts/login/"), path


def test_the_email_tells_what_happened_since_my_last_turn(alice, bob, mailoutbox):
    game = start_game(alice, bob)
    first, second = current_user(game), user_at(game, 1 - game.current_seat)
    play.submit_action(game.pk, first, first_clue(game), 0)
    run_due(Outbox.Kind.YOUR_TURN)
    to_second = next(m for m in mailoutbox if m.to == [second.email])
    assert f"{first.display_name} clues {second.display_name}" in to_second.body
    assert "Since your last turn:" in to_second.body


def test_no_email_once_the_turn_is_played_or_for_muted_or_unsubscribed_players(
    alice, bob, mailoutbox
):
    game = start_game(alice, bob)
    play.submit_action(game.pk, current_user(game), first_clue(game), 0)
    # The first player's row is stale now; only the second player's email goes out.
    assert run_due(Outbox.Kind.YOUR_TURN) == 2
    assert [m.to for m in mailoutbox] == [[current_user(game).email]]

    mailoutbox.clear()
    waiting = current_user(game)
    game.seats.filter(user=waiting).update(muted=True)
    play.submit_action(game.pk, waiting, first_clue(game), 1)
    User.objects.filter(pk=current_user(game).pk).update(notify=User.Notify.NONE)
    play.submit_action(game.pk, current_user(game), first_clue(game), 2)
    run_due(Outbox.Kind.YOUR_TURN)
    assert mailoutbox == []


def test_a_player_looking_at_the_game_gets_no_email_until_they_leave(
    client, alice, bob, mailoutbox, settings
):
    settings.NOTIFY_DELAY_SECONDS = 60
    game = start_game(alice, bob)
    mover = current_user(game)
    client.force_login(mover)
    client.get(f"/games/{game.pk}/poll/?status=playing&turn=0", HTTP_HX_REQUEST="true")
    Outbox.objects.filter(kind=Outbox.Kind.YOUR_TURN).update(due_at=timezone.now())
    assert run_due(Outbox.Kind.YOUR_TURN) == 0  # retried later: the page is open
    assert mailoutbox == []
    row = Outbox.objects.get(kind=Outbox.Kind.YOUR_TURN)
    assert row.done_at is None and row.due_at > timezone.now() + timedelta(seconds=50)

    # The page was closed: the player stops polling; when the row is due again, it sends.
    game.seats.filter(user=mover).update(last_seen_at=timezone.now() - timedelta(minutes=5))
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())
    assert run_due(Outbox.Kind.YOUR_TURN) == 1
    assert [m.to for m in mailoutbox] == [[mover.email]]


def test_a_reminder_goes_out_before_the_deadline_unless_the_turn_was_played(alice, bob, mailoutbox):
    game = start_game(alice, bob, turn_time_limit=24)
    row = Outbox.objects.get(kind=Outbox.Kind.REMINDER)
    game.refresh_from_db()
    assert row.due_at == pytest.approx(
        game.turn_deadline - timedelta(hours=6), abs=timedelta(seconds=5)
    )
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())
    assert run_due(Outbox.Kind.REMINDER) == 1
    (message,) = mailoutbox
    assert "ends soon" in message.subject and "time runs out at" in message.body

    mailoutbox.clear()
    play.submit_action(game.pk, current_user(game), first_clue(game), 0)
    Outbox.objects.filter(kind=Outbox.Kind.REMINDER).update(due_at=timezone.now())
    run_due(Outbox.Kind.REMINDER)
    assert all(
        "ends soon" not in m.subject or m.to == [current_user(game).email] for m in mailoutbox
    )
    assert sum("ends soon" in m.subject for m in mailoutbox) == 1


def test_everyone_gets_the_game_over_email_once_with_score_and_replay_link(
    client, alice, bob, mailoutbox
):
    game = play_to_the_end(start_game(alice, bob))
    run_due(Outbox.Kind.GAME_OVER)
    run_due(Outbox.Kind.GAME_OVER)
    over = [m for m in mailoutbox if "is over" in m.subject]
    assert sorted(m.to[0] for m in over) == [alice.email, bob.email]
    message = over[0]
    assert f"{game.score} / 25" in message.subject
    assert "Final score:" in message.body
    link = re.search(r"(http://\S+/accounts/open/\S+)", message.body).group(1)
    response = client.get(urlparse(link).path, follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/replay/{game.turn}/"
    assert response.status_code == 200
    assert_opens_only_the_game(client, User.objects.get(email=message.to[0]))


def test_the_daily_digest_lists_the_games_waiting_on_me_once_a_day(
    client, alice, bob, carol, mailoutbox
):
    User.objects.filter(pk__in=[alice.pk, bob.pk, carol.pk]).update(notify=User.Notify.DAILY_DIGEST)
    game = start_game(alice, bob)
    run_due(Outbox.Kind.YOUR_TURN)
    assert mailoutbox == []  # digest users get no per-turn email
    assert tasks.daily_digest() == 3
    assert tasks.daily_digest() == 0  # one a day, however often beat runs it
    run_due(Outbox.Kind.DIGEST)
    (digest,) = mailoutbox  # carol has no game waiting: no email
    assert digest.to == [current_user(game).email]
    assert f"Game {game.pk}" in digest.body
    link = re.search(r"(http://\S+/accounts/open/\S+)", digest.body).group(1)
    response = client.get(urlparse(link).path, follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert_opens_only_the_game(client, current_user(game))


def test_the_reminder_links_to_the_game_only(client, alice, bob, mailoutbox):
    game = start_game(alice, bob, turn_time_limit=24)
    Outbox.objects.filter(kind=Outbox.Kind.REMINDER).update(due_at=timezone.now())
    run_due(Outbox.Kind.REMINDER)
    (message,) = mailoutbox
    link = re.search(r"(http://\S+/accounts/open/\S+)", message.body).group(1)
    assert f'href="{link}"' in html_body(message)
    response = client.get(urlparse(link).path, follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert_opens_only_the_game(client, current_user(game))


def test_an_invitation_to_a_member_carries_the_unsubscribe_headers(alice, bob, mailoutbox):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    lobby.invite_by_email(game.pk, alice, bob.email.upper())
    lobby.invite_by_email(game.pk, alice, "stranger@example.org")
    run_due(Outbox.Kind.INVITATION)
    to_bob = next(m for m in mailoutbox if m.to == [bob.email])
    assert "List-Unsubscribe" in to_bob.extra_headers and "Email preferences" in to_bob.body
    to_stranger = next(m for m in mailoutbox if m.to == ["stranger@example.org"])
    assert "List-Unsubscribe" not in to_stranger.extra_headers
    assert "Without an account" in to_stranger.body
    assert f"/games/{game.pk}/join/{game.invite_code}/" in to_stranger.body


def test_no_game_email_goes_to_an_address_its_owner_has_not_confirmed(alice, mailoutbox):
    """Someone who signs up with another person's address (never confirmed) must not fill
    that inbox: no turn email, and an invitation to the address reads as to a stranger."""
    from allauth.account.models import EmailAddress

    from tests.conftest import make_user

    unconfirmed = make_user("dora", verified=False)
    game = start_game(alice, unconfirmed)

    def move_until_it_is(user) -> None:
        while current_user(game) != user:
            play.submit_action(game.pk, current_user(game), first_clue(game), game.turn)

    move_until_it_is(unconfirmed)
    run_due(Outbox.Kind.YOUR_TURN)
    assert unconfirmed.email not in [to for m in mailoutbox for to in m.to]

    EmailAddress.objects.filter(user=unconfirmed).update(verified=True)
    play.submit_action(game.pk, unconfirmed, first_clue(game), game.turn)
    move_until_it_is(unconfirmed)
    run_due(Outbox.Kind.YOUR_TURN)
    assert [m.to for m in mailoutbox].count([unconfirmed.email]) == 1
