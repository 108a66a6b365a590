"""The turn page's table is rendered once per (game version, viewer) and kept in the cache
(games/views/table.py). A cached table is never another viewer's, never of another version,
and never differs from a freshly rendered one but for the per-request parts (the CSRF token)."""

import re

import pytest
from django.middleware.csrf import CSRF_TOKEN_LENGTH

from games.models import Game
from tests.cache_helpers import cache_keys, clear_cache
from tests.games.changes import CASES
from tests.games.conftest import start_game, user_at
from tests.games.leak_probe import (
    assert_pages_do_not_depend_on_own_cards,
    assert_pages_name_no_hidden_card,
)

HTMX = {"HTTP_HX_REQUEST": "true"}
# The CSRF token, and the push stream's pass (signed at each render: games/push_token.py).
TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": |data-events=)"[^"]*"')


def without_tokens(page: str) -> str:
    return TOKEN.sub(r'\1"…"', page)


def page_of(client, game: Game, **headers) -> str:
    response = client.get(f"/games/{game.pk}/", **headers)
    assert response.status_code == 200
    return response.content.decode()


def fresh_page_of(client, game: Game, **headers) -> str:
    clear_cache()  # also the sessions' cache, if they are kept there: log in again
    return page_of(client, game, **headers)


def table_keys() -> list[str]:
    return [key for key in cache_keys(":game:") if ":table:" in key]


def test_the_second_page_is_served_from_the_cache_and_equals_a_fresh_one(client, alice, bob):
    game = start_game(alice, bob, turn_time_limit=24)
    client.force_login(alice)
    first = page_of(client, game)
    assert len(table_keys()) == 1
    second = page_of(client, game)
    assert without_tokens(second) == without_tokens(first)
    client.force_login(alice)
    assert without_tokens(fresh_page_of(client, game)) == without_tokens(first)


def test_every_form_gets_this_requests_csrf_token(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(user_at(game, game.current_seat))
    page_of(client, game)
    page = page_of(client, game)  # from the cache
    tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', page)
    assert len(tokens) > 5
    assert all(len(token) == CSRF_TOKEN_LENGTH for token in tokens)
    assert "<!--" not in page  # no slot left unfilled
    # A move posted with a token from the cached page is accepted by the CSRF check.
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user_at(game, game.current_seat))
    page = page_of(strict, game)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]*)"', page).group(1)
    response = strict.post(
        f"/games/{game.pk}/move/",
        {"csrfmiddlewaretoken": token, "turn": 0, "kind": "discard", "card": 0},
    )
    assert response.status_code != 403


def test_a_seat_never_gets_another_seats_table(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    alice_page = page_of(client, game)
    client.force_login(bob)
    bob_page = page_of(client, game)
    assert len(table_keys()) == 2
    assert without_tokens(bob_page) != without_tokens(alice_page)
    client.force_login(bob)
    assert without_tokens(fresh_page_of(client, game)) == without_tokens(bob_page)


def test_the_htmx_table_and_the_full_page_share_the_cached_table(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    full = page_of(client, game)
    table = page_of(client, game, **HTMX)
    assert len(table_keys()) == 1
    assert table.lstrip().startswith('<div id="table"') and "<title>" in table
    body = table[: table.index("<title>")].strip()
    assert without_tokens(body) in without_tokens(full)


def test_a_message_is_shown_once_and_never_cached(client, alice, bob):
    game = start_game(alice, bob)
    player = user_at(game, game.current_seat)
    client.force_login(player)
    page_of(client, game, **HTMX)
    response = client.post(
        f"/games/{game.pk}/move/", {"turn": 99, "kind": "discard", "card": 0}, **HTMX
    )
    assert "messages" in response.content.decode()
    again = page_of(client, game, **HTMX)
    assert 'class="messages"' not in again


def test_the_time_left_is_worked_out_per_request(client, alice, bob, settings):
    game = start_game(alice, bob, turn_time_limit=24)
    client.force_login(alice)
    page_of(client, game)
    Game.objects.filter(pk=game.pk).update(turn_deadline=game.turn_deadline.replace(year=2099))
    # The deadline itself comes with a version; the time left changes without one.
    page = page_of(client, game)
    assert re.search(r"\(2\d\xa0hours?|\(\d+\xa0years?", page), page


@pytest.mark.parametrize(("name", "set_up", "change"), CASES, ids=[c[0] for c in CASES])
def test_after_each_kind_of_change_each_players_page_is_the_fresh_one(
    name,
    set_up,
    change,
    client,
    people,
    django_capture_on_commit_callbacks,
):
    game = set_up(people)
    viewers = [s.user for s in game.seats.exclude(user=None)]
    for viewer in viewers:  # warm the cache with the pages before the change
        client.force_login(viewer)
        page_of(client, game)
        page_of(client, game, **HTMX)
    with django_capture_on_commit_callbacks(execute=True):
        change(Game.objects.get(pk=game.pk), people)
    for viewer in [s.user for s in Game.objects.get(pk=game.pk).seats.exclude(user=None)]:
        viewer.refresh_from_db()
        if viewer.is_suspended():
            continue
        for headers in ({}, HTMX):
            client.force_login(viewer)
            cached = client.get(f"/games/{game.pk}/", **headers)
            client.force_login(viewer)
            clear_cache()
            client.force_login(viewer)
            fresh = client.get(f"/games/{game.pk}/", **headers)
            assert cached.status_code == fresh.status_code, name
            assert without_tokens(cached.content.decode()) == without_tokens(
                fresh.content.decode()
            ), (name, viewer)


@pytest.fixture
def warm_cache(monkeypatch):
    """Every turn page asked twice, the second from the cache (and it must match)."""
    from django.test import Client

    original = Client.get

    def twice(self, path, *args, **kwargs):
        first = original(self, path, *args, **kwargs)
        if not re.fullmatch(r"/games/\d+/", path) or first.status_code != 200:
            return first
        second = original(self, path, *args, **kwargs)
        assert without_tokens(second.content.decode()) == without_tokens(first.content.decode())
        return second

    monkeypatch.setattr(Client, "get", twice)


def test_hidden_information_on_cached_pages_own_cards(client, db, warm_cache):
    assert_pages_do_not_depend_on_own_cards(client)


def test_hidden_information_on_cached_pages_names_no_hidden_card(client, db, warm_cache):
    assert_pages_name_no_hidden_card(client)
