"""The game pass does one thing (issue 25): the link in a game email opens that game's pages
to read them, the poll and the push stream, a move, and muting that game's emails. Every
other action on the game asks for a real login, returning to the same page, and changes
nothing: a forwarded email's reader cannot chat, write notes, report, vote a pause, leave,
invite, cancel, reclaim or extend as the player.

The allow-list is the `allow_with_pass` marks in games/urls.py; every URL of the game is
classified here, and a new one that is in neither list fails the first test."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from games import urls as game_urls
from games.emails import game_link
from games.engine import action_to_dict
from games.models import ChatMessage, ChatPolicy, Game, Invitation, Move, Seat
from moderation.models import ModeratorAction, Report
from outbox.models import Outbox
from tests.games.conftest import current_user, start_game

LOGIN = "/accounts/login/"

# What the pass allows, by URL name of games/urls.py, and with which methods.
ALLOWED = {
    "detail": {"GET"},
    "poll": {"GET"},
    "events": {"GET"},
    "look_back": {"GET"},
    "replay": {"GET"},
    "analysis": {"GET"},
    "review": {"GET"},  # the H-Group bot's review of a finished game (refused during play)
    "export": {"GET"},
    "move": {"POST"},
    "rearrange": {"POST"},  # a player's free move of their own cards (issue 27): part of play
    "mute": {"POST"},
}
# The game's other URLs: a real login only. (moderation's report is under the game too.)
REFUSED = {
    "invite": {"code": "abc"},
    "join": {"game_id": None},
    "leave": {"game_id": None},
    "cancel": {"game_id": None},
    "start": {"game_id": None},
    "bot": {"seat": "1", "bot": "cautious"},
    "invite_email": {"email": "mallory@example.org"},
    "note": {"card": "0", "note": "r3"},
    "pause": {"wants_pause": "yes"},
    "resume": {},
    "extend": {"hours": "24"},
    "reclaim": {},
    "chat": {"text": "Hello from a forwarded email"},
    "watch": {},  # the spectator view: a player never gets it, with a pass or a login
    "moderation:report": {"reason": "Filed by whoever holds the email"},
}
# Not under a game's address: the pass does not cover them at all (tests/accounts/
# test_scoped_links.py checks that they ask for a login).
OUTSIDE_THE_GAME = {"new", "bots", "by_email", "import", "imported"}


# Every table a refused action could have written to.
WATCHED = (Game, Seat, Move, ChatMessage, Report, Invitation, ModeratorAction, Outbox)


def database() -> dict[str, list[dict]]:
    """Every row of the watched tables (a seat's last_seen_at aside: looking at the page
    notes it, and that is not a change)."""
    return {
        model.__name__: [
            {k: v for k, v in row.items() if k != "last_seen_at"}
            for row in model.objects.order_by("pk").values()
        ]
        for model in WATCHED
    }


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def url_of(name: str, game: Game) -> str:
    full = name if ":" in name else f"games:{name}"
    if name == "invite":
        return reverse(full, args=[game.pk, "abc"])
    if name in ("look_back", "replay"):
        return reverse(full, args=[game.pk, 0])
    return reverse(full, args=[game.pk])


def asks_for_login(response, next_path: str) -> bool:
    if response.status_code != 302:
        return False
    parts = urlsplit(response.url)
    return parts.path == LOGIN and parse_qs(parts.query).get("next") == [next_path]


@pytest.fixture
def game(alice, bob) -> Game:
    # Chat open during play and a deadline, so that chat, pause and extend would all work
    # for a logged-in player: a refusal is the pass's, not the game's.
    return start_game(alice, bob, turn_time_limit=24, chat_policy=ChatPolicy.DURING)


@pytest.fixture
def mover(game):
    return current_user(game)


@pytest.fixture
def pass_client(game, mover) -> Client:
    """A browser that followed the turn email's link, logged in to nothing."""
    client = Client()
    client.get(path_of(game_link(mover, game)), follow=True)
    assert client.session.get("_auth_user_id") is None
    return client


def test_every_url_of_the_games_is_either_allowed_or_refused_with_the_pass():
    names = {p.name for p in game_urls.urlpatterns if isinstance(p, URLPattern)}
    classified = set(ALLOWED) | {n for n in REFUSED if ":" not in n} | OUTSIDE_THE_GAME
    assert names == classified, f"classify: {sorted(names ^ classified)}"
    # The marks in games/urls.py are exactly the allow-list above.
    marked = {
        p.name: set(getattr(p.callback, "scoped_pass_methods", ())) - {"HEAD"}
        for p in game_urls.urlpatterns
    }
    assert {name: methods for name, methods in marked.items() if methods} == ALLOWED


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_with_only_the_pass_every_other_post_asks_for_a_login_and_changes_nothing(
    game, pass_client, name
):
    data = {k: v for k, v in REFUSED[name].items() if v is not None}
    before = database()
    response = pass_client.post(url_of(name, game), data)
    assert asks_for_login(response, f"/games/{game.pk}/"), (response.status_code, response)
    assert database() == before


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_htmx_post_is_sent_to_log_in_back_to_the_page_it_came_from(game, pass_client, name):
    page = f"/games/{game.pk}/replay/0/"
    before = database()
    response = pass_client.post(
        url_of(name, game),
        {},
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=f"http://testserver{page}",
    )
    assert response.status_code == 200
    target = urlsplit(response["HX-Redirect"])
    assert target.path == LOGIN and parse_qs(target.query)["next"] == [page]
    assert database() == before


def test_a_page_that_is_not_the_game_is_never_the_way_back(game, pass_client):
    response = pass_client.post(
        url_of("chat", game), {"text": "hi"}, HTTP_REFERER="https://evil.example/games/1/"
    )
    assert asks_for_login(response, f"/games/{game.pk}/")


@pytest.mark.parametrize("name", ["leave", "chat", "note"])
def test_a_get_of_a_refused_address_asks_for_a_login_too(game, pass_client, name):
    url = url_of(name, game)
    assert asks_for_login(pass_client.get(url), url)


@pytest.mark.parametrize("name", ["detail", "poll", "look_back", "replay", "events"])
def test_with_the_pass_the_games_pages_are_read(game, mover, pass_client, name):
    url = url_of(name, game) + (f"?status=playing&v={game.version}" if name == "poll" else "")
    headers = {"HTTP_HX_REQUEST": "true"} if name == "poll" else {}
    response = pass_client.get(url, **headers)
    # The view's own answer for the player (a replay opens when the game is over: 404).
    assert response.status_code in ((404,) if name == "replay" else (200, 204)), response
    # (An unchanged poll is answered from the cache before any user is loaded.)
    assert getattr(response.wsgi_request, "user", mover) == mover


def first_clue_form(game: Game) -> dict:
    state = game.load_state()
    clue = action_to_dict(next(a for a in state.legal_actions() if type(a).__name__ == "Clue"))
    value = {"colour": clue["colour"]} if "colour" in clue else {"rank": clue["rank"]}
    return {"turn": game.turn, "kind": "clue", "target": clue["target"], **value}


def test_with_the_pass_the_player_moves_and_mutes_that_game(game, mover, pass_client):
    response = pass_client.post(url_of("mute", game), {"muted": "yes"})
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert game.seats.get(user=mover).muted
    response = pass_client.post(url_of("move", game), first_clue_form(game))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.turn == 1 and game.moves.get(turn=0).seat == game.seats.get(user=mover).position


def test_a_logged_in_player_chats_votes_and_notes_as_before(game, mover):
    client = Client()
    client.force_login(mover)
    client.post(url_of("chat", game), {"text": "Good luck"})
    client.post(url_of("pause", game), {"wants_pause": "yes"})
    client.post(url_of("note", game), {"card": "0", "note": "r3"})
    assert ChatMessage.objects.filter(game=game, author=mover).count() == 1
    seat = game.seats.get(user=mover)
    assert seat.wants_pause and seat.notes


def test_the_table_offers_a_login_instead_of_the_forms_the_pass_cannot_use(game, pass_client):
    page = pass_client.get(f"/games/{game.pk}/").content.decode()
    login = f"{LOGIN}?next=/games/{game.pk}/"
    assert login in page
    for action in ("chat", "note", "pause", "extend"):
        assert f'action="{url_of(action, game)}"' not in page
    assert f'action="{url_of("moderation:report", game)}"' not in page
    assert f'action="{url_of("mute", game)}"' in page
    assert f'action="{url_of("move", game)}"' in page


def test_a_logged_in_player_sees_every_form(game, mover):
    client = Client()
    client.force_login(mover)
    page = client.get(f"/games/{game.pk}/").content.decode()
    for action in ("chat", "note", "pause", "mute", "move"):
        assert f'action="{url_of(action, game)}"' in page


def test_a_seat_taken_by_a_bot_offers_the_pass_a_login_not_the_reclaim_button(game, mover):
    Seat.objects.filter(game=game, user=mover).update(is_bot=True, timeouts_in_a_row=3)
    holder = Client()
    holder.get(path_of(game_link(mover, game)), follow=True)
    page = holder.get(f"/games/{game.pk}/").content.decode()
    assert f'action="{url_of("reclaim", game)}"' not in page
    assert "to take your seat back" in page
    client = Client()
    client.force_login(mover)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'action="{url_of("reclaim", game)}"' in page
