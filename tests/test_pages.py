"""The pages a person lands on first: each shows what it is for (its heading, its form, the
links that lead on), not only a 200."""

import re

import pytest

from games.engine import GameOptions
from games.models import Game
from games.services import lobby


def assert_served_htmx_locally(html: str) -> None:
    # htmx is served by us, never from a CDN
    assert '<script src="/static/django_htmx/htmx' in html
    assert "https://unpkg.com" not in html


@pytest.mark.django_db
def test_the_home_page_invites_a_visitor_to_log_in_and_lists_open_games(client, alice):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.PUBLIC)
    lobby.create_game(alice, GameOptions(players=2), Game.Visibility.INVITE)
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Lobby · Hanabi by post</title>" in html
    assert "<h1>Hanabi for people who play over days</h1>" in html
    assert '<a class="button" href="/login/">Log in to play</a>' in html
    assert '<a href="/accounts/signup/">Sign up</a>' in html
    assert '<h2 id="open-games">Open games</h2>' in html
    # The public open game is listed with its creator; the invitation-only one is not.
    assert re.findall(r'<a href="/games/(\d+)/">Game \d+</a>', html) == [str(game.pk)]
    assert "created by Alice" in html
    assert '<h2 id="finished-games">Recently finished</h2>' in html
    assert "No finished game yet." in html
    # A visitor has no lobby of their own.
    assert "My games" not in html and "/games/new/" not in html
    assert_served_htmx_locally(html)


@pytest.mark.django_db
def test_the_home_page_gives_a_member_their_lobby(client, alice):
    client.force_login(alice)
    html = client.get("/").content.decode()
    assert "<h1>Lobby</h1>" in html
    assert '<a class="button" href="/games/new/">New game</a>' in html
    assert 'href="/games/import/">Import a hanab.live game</a>' in html
    assert '<a href="/bots/">How the bots play</a>' in html
    assert '<h2 id="my-games">My games</h2>' in html
    assert "You are in no game yet." in html
    assert "No open game is waiting for players right now." in html
    # Who is logged in, and the way out.
    assert '<a class="who" href="/accounts/profile/">Alice</a>' in html
    assert re.search(
        r'<form method="post" action="/accounts/logout/"[^>]*>\s*<input type="hidden"', html
    )
    assert "Log in to play" not in html
    assert_served_htmx_locally(html)


@pytest.mark.django_db
def test_the_login_page_has_the_form_and_the_other_ways_in(client):
    response = client.get("/login/?next=/games/new/", follow=True)
    assert response.redirect_chain == [("/accounts/login/?next=/games/new/", 302)]
    html = response.content.decode()
    assert "<h1>Log in</h1>" in html
    assert '<form method="post" action="/accounts/login/"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert '<label for="id_login">Email address:</label>' in html
    assert re.search(r'<input type="email" name="login"[^>]*autocomplete="email"', html)
    assert '<label for="id_password">Password:</label>' in html
    assert re.search(r'<input type="password" name="password"[^>]*required', html)
    assert '<button type="submit">Log in</button>' in html
    # Where the person was going is kept, through the form and the other ways in.
    assert '<input type="hidden" name="next" value="/games/new/">' in html
    assert (
        '<a href="/accounts/login/code/?next=%2Fgames%2Fnew%2F">Email me a login code</a>' in html
    )
    assert '<a href="/accounts/password/reset/">Forgot your password?</a>' in html
    assert '<a href="/accounts/signup/?next=%2Fgames%2Fnew%2F">Sign up</a>' in html


@pytest.mark.django_db
def test_the_admin_login_page_asks_for_the_email_address(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Log in | Django site admin</title>" in html
    assert '<form action="/admin/login/" method="post" id="login-form">' in html
    assert '<label for="id_username" class="required">Email address:</label>' in html
    assert 'name="password"' in html
    assert '<input type="hidden" name="next" value="/admin/">' in html


@pytest.mark.django_db
def test_the_admin_lists_users_for_staff_and_finds_them_by_email(client, django_user_model):
    admin = django_user_model.objects.create_superuser("alice@example.com", "pw-alice-123")
    bob = django_user_model.objects.create_user("bob@example.com", "pw", display_name="Bob")
    client.force_login(admin)
    response = client.get("/admin/accounts/user/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Select user to change</h1>" in html
    assert '<a href="/admin/accounts/user/add/" class="addlink">' in html
    assert 'id="searchbar"' in html
    assert f'<a href="/admin/accounts/user/{bob.pk}/change/">bob@example.com</a>' in html
    assert f'<a href="/admin/accounts/user/{admin.pk}/change/">alice@example.com</a>' in html
    assert re.search(r'<p class="paginator">\s*2 users\s*</p>', html)

    found = client.get("/admin/accounts/user/?q=bob").content.decode()
    assert "bob@example.com" in found and "alice@example.com</a>" not in found
    assert re.search(r"1 result\s*\(<a [^>]*>2 total</a>\)", found)

    # Someone who is not staff is sent to the admin's login, not shown the list.
    client.force_login(bob)
    response = client.get("/admin/accounts/user/")
    assert response.status_code == 302
    assert response.url == "/admin/login/?next=/admin/accounts/user/"
