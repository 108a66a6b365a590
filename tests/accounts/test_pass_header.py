"""A pass is not a login (issue 27): the header of a page opened by a game email's link
says whose game it shows and that nobody is logged in, with a real "Log in" coming back to
the page, and never a "Log out" or the profile link."""

import re
from urllib.parse import urlsplit

from games.emails import game_link
from tests.games.conftest import start_game


def header_of(response) -> str:
    page = response.content.decode()
    (nav,) = re.findall(r'<nav aria-label="Account">(.*?)</nav>', page, re.S)
    return " ".join(nav.split())


def open_link(client, url: str):
    parts = urlsplit(url)
    return client.get(parts.path, follow=True)


def test_a_pass_shows_whose_game_it_is_and_offers_a_real_login(client, alice, carol):
    game = start_game(alice, carol)
    response = open_link(client, game_link(carol, game))
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert response.wsgi_request.user == carol  # the pass shows her cards to her
    header = header_of(response)
    assert f"viewing game {game.pk} as Carol (not logged in)" in header
    assert f'<a href="/accounts/login/?next=/games/{game.pk}/">Log in</a>' in header
    assert "Log out" not in header
    assert "/accounts/profile/" not in header  # the profile asks for a login anyway

    # Deeper in the game too, and "Log in" comes back to that page, query and all.
    response = client.get(f"/games/{game.pk}/as-seen/0/?from=email")
    assert response.status_code == 200
    header = header_of(response)
    assert f"viewing game {game.pk} as Carol (not logged in)" in header
    assert f"/accounts/login/?next=/games/{game.pk}/as-seen/0/%3Ffrom%3Demail" in header
    assert "Log out" not in header


def test_a_real_login_keeps_its_header(client, alice, carol):
    game = start_game(alice, carol)
    client.force_login(carol)
    header = header_of(client.get(f"/games/{game.pk}/"))
    assert '<a class="who" href="/accounts/profile/">Carol</a>' in header
    assert "Log out</button>" in header
    assert "not logged in" not in header


def test_the_lobby_is_anonymous_while_holding_a_pass(client, alice, carol):
    game = start_game(alice, carol)
    open_link(client, game_link(carol, game))
    response = client.get("/")
    assert not response.wsgi_request.user.is_authenticated
    header = header_of(response)
    assert "Carol" not in header
    assert "not logged in" not in header
    assert '<a href="/accounts/login/">Log in</a>' in header
    assert "Sign up" in header


def test_stop_viewing_ends_the_pass_on_a_shared_screen(client, alice, carol):
    game = start_game(alice, carol)
    header = header_of(open_link(client, game_link(carol, game)))
    assert 'action="/accounts/logout/"' in header and "Stop viewing</button>" in header
    response = client.post("/accounts/logout/", follow=True)
    assert not response.wsgi_request.user.is_authenticated
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
