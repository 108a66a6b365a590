"""The shareable invitation link, /games/<id>/join/<code>/: it shows the table and a button
to take a seat, to the right code only, and only while the game is gathering players."""

import re

from games.engine import GameOptions
from games.models import Game
from games.services import lobby
from tests.games.conftest import start_game


def invite_only_game(creator, players: int = 3, bots: int = 0) -> Game:
    return lobby.create_game(
        creator, GameOptions(players=players), Game.Visibility.INVITE, bots=bots
    )


def link(game: Game, code: str | None = None) -> str:
    return f"/games/{game.pk}/join/{game.invite_code if code is None else code}/"


def test_the_link_shows_the_table_and_a_button_to_take_a_seat(client, alice, bob, carol):
    game = invite_only_game(alice, players=4, bots=1)
    lobby.join_game(game.pk, bob, game.invite_code)
    client.force_login(carol)
    response = client.get(link(game))
    assert response.status_code == 200
    page = response.content.decode()
    assert f"<h1>Join game {game.pk}</h1>" in page
    assert "Alice invites you to play: 4 players" in page
    assert "At the table so far: Alice, Bob, (empty), Bot 4." in page
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', page, re.S)
    assert form and form.group(1) == f"/games/{game.pk}/join/"
    assert f'<input type="hidden" name="code" value="{game.invite_code}">' in form.group(2)
    assert "Take a seat</button>" in form.group(2)
    assert not game.seats.filter(user=carol).exists()  # looking is not joining

    # The button on that page seats her.
    response = client.post(form.group(1), {"code": game.invite_code}, follow=True)
    assert response.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert [str(m) for m in response.context["messages"]] == ["You have a seat."]
    assert game.seats.get(position=2).user == carol


def test_a_wrong_code_is_not_found(client, alice, bob):
    game = invite_only_game(alice)
    other = invite_only_game(alice)
    client.force_login(bob)
    for url in (
        link(game, "not-the-code"),
        link(game, other.invite_code),  # another game's code opens no door here
        f"/games/999999/join/{game.invite_code}/",
    ):
        assert client.get(url).status_code == 404, url
    assert not game.seats.filter(user=bob).exists()


def test_a_player_already_seated_is_taken_to_the_game(client, alice, bob):
    game = invite_only_game(alice)
    lobby.join_game(game.pk, bob, game.invite_code)
    for user in (alice, bob):
        client.force_login(user)
        response = client.get(link(game))
        assert response.status_code == 302
        assert response.url == f"/games/{game.pk}/"
    # Once the game is under way too.
    started = start_game(alice, bob, seed=3)
    client.force_login(bob)
    response = client.get(link(started))
    assert (response.status_code, response.url) == (302, f"/games/{started.pk}/")


def test_a_started_game_sends_newcomers_home_with_a_message(client, alice, bob, carol):
    game = start_game(alice, bob)
    client.force_login(carol)
    response = client.get(link(game), follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert [str(m) for m in response.context["messages"]] == [
        "This game has already started; you can no longer join it."
    ]
    assert "This game has already started; you can no longer join it." in (
        response.content.decode()
    )
    assert not game.seats.filter(user=carol).exists()


def test_visitors_see_the_invitation_with_a_way_back_to_the_link(client, alice):
    """Not a bare login form: the invitation page (tests/games/test_invitation_page.py)."""
    game = invite_only_game(alice)
    response = client.get(link(game))
    assert response.status_code == 200
    assert f'href="/accounts/login/?next={link(game)}"' in response.content.decode()
    assert f'href="/accounts/signup/?next={link(game)}"' in response.content.decode()
