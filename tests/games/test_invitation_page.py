"""The invitation as a newcomer sees it (issue 27): someone without an account (or not logged
in) who follows /games/<id>/join/<code>/ gets a page, not a bare login form: who invites
them, the table, the options and the time limit in words, and "Sign up" and "Log in", each
coming back to the link to take the seat. Never an email address: the link is the game's
share link too."""

import re
from html import unescape

from django.core import mail

from accounts.models import User
from games.engine import GameOptions
from games.models import Game, TimeoutPolicy
from games.services import lobby
from tests.accounts.conftest import send_account_emails, signup_data, url_in
from tests.conftest import PASSWORD
from tests.games.conftest import start_game


def invite_link(game: Game) -> str:
    return f"/games/{game.pk}/join/{game.invite_code}/"


def gathering_table(alice, bob) -> Game:
    """Alice's invite-only table: Alice, Bob, an empty seat, a bot; timed, wild multicolour."""
    game = lobby.create_game(
        alice,
        GameOptions(players=4, multicolour=3, fuses=2),
        Game.Visibility.INVITE,
        turn_time_limit=48,
        timeout_policy=TimeoutPolicy.END_GAME,
        bots=1,
    )
    lobby.join_game(game.pk, bob, game.invite_code)
    return game


def text_of(response) -> str:
    """The page's main content as a reader sees it: tags dropped, spaces squeezed."""
    (main,) = re.findall(r'<main id="main"[^>]*>(.*)</main>', response.content.decode(), re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", main)).split())


def test_a_visitor_sees_who_invites_them_to_what(client, alice, bob):
    game = gathering_table(alice, bob)
    lobby.invite_by_email(game.pk, alice, "dora@example.org")
    response = client.get(invite_link(game))
    assert response.status_code == 200
    text = text_of(response)
    assert "Alice invites you to play Hanabi" in text
    assert f"Game {game.pk}:" in text
    assert "Players: 4" in text
    assert "Variant: wild multicolour, 2 fuses" in text
    assert "Fuses: 2 " in text
    assert (
        "Time limit: 48 hours per turn; when time runs out, the game ends, timed out (score 0)"
        in text
    )
    assert "At the table so far Alice (invites you) Bob empty seat Bot Take a seat" in text
    # Nobody's address, not the players', not the one the invitation was sent to.
    assert "@" not in response.content.decode()
    assert not game.seats.filter(user__email="dora@example.org").exists()


def test_sign_up_and_log_in_both_come_back_to_the_link(client, alice, bob):
    game = gathering_table(alice, bob)
    page = client.get(invite_link(game)).content.decode()
    links = dict(
        (name, href)
        for href, name in re.findall(r'<a class="button[^"]*" href="([^"]+)">([^<]+)</a>', page)
    )
    next_query = f"next={invite_link(game)}"
    assert links == {
        "Sign up": f"/accounts/signup/?{next_query}",
        "Log in": f"/accounts/login/?{next_query}",
    }


def test_an_untimed_game_says_so(client, alice, bob):
    game = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.INVITE)
    text = text_of(client.get(invite_link(game)))
    assert "Variant: no variant" in text
    assert "Fuses: 3 " in text
    assert "Time limit: none" in text
    assert "At the table so far Alice (invites you) empty seat" in text


def test_a_newcomer_signs_up_confirms_and_lands_on_the_join_page(client, alice, bob):
    game = gathering_table(alice, bob)
    client.post(f"/accounts/signup/?next={invite_link(game)}", signup_data())
    (message,) = [m for m in send_account_emails() if m.to == ["dora@example.org"]]
    confirm = url_in(message).removeprefix("http://127.0.0.1:8000")
    response = client.post(confirm)
    assert (response.status_code, response.url) == (302, invite_link(game))

    # Logged in now: the join page, with its button, and the button seats her.
    response = client.get(response.url)
    page = response.content.decode()
    assert f"<h1>Join game {game.pk}</h1>" in page
    assert "Take a seat</button>" in page
    client.post(f"/games/{game.pk}/join/", {"code": game.invite_code})
    dora = User.objects.get(email="dora@example.org")
    assert game.seats.get(position=2).user == dora


def test_a_member_logs_in_and_comes_back_to_the_link(client, alice, bob, carol):
    game = gathering_table(alice, bob)
    response = client.post(
        f"/accounts/login/?next={invite_link(game)}",
        {"login": carol.email, "password": PASSWORD},
    )
    assert (response.status_code, response.url) == (302, invite_link(game))


def test_a_wrong_code_is_still_not_found(client, alice, bob):
    game = gathering_table(alice, bob)
    assert client.get(f"/games/{game.pk}/join/not-the-code/").status_code == 404
    assert mail.outbox == []


def test_a_started_game_says_it_is_too_late(client, alice, bob):
    game = start_game(alice, bob)
    response = client.get(invite_link(game), follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert "This game has already started; you can no longer join it." in (
        response.content.decode()
    )
