"""Spectators (issue 26): who may watch a game, what the spectator view shows, and that a
spectator never takes a seat.

Personas (tests/conftest.py): alice creates the games, bob and carol play with her, mallory
plays in none of them and watches; maud is a moderator.
"""

from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils.html import escape

from games import urls as game_urls
from games.emails import game_link
from games.engine import GameOptions
from games.errors import GameError, NotAllowed
from games.models import ChatMessage, ChatPolicy, Game, Spectator, SpectatorPolicy
from games.services import chat, lobby, notes, play
from games.spectators import PLAYS_HERE, WATCHED
from moderation import services as moderation
from outbox.models import Outbox
from tests.conftest import make_moderator
from tests.games.conftest import current_user, play_to_the_end, start_game, user_at
from tests.games.helpers import card_item, deck
from tests.games.test_refusals import refused

HTMX = {"HTTP_HX_REQUEST": "true"}


def watched_game(*players, spectators: str = SpectatorPolicy.DURING, **kwargs) -> Game:
    """A game being played by `players`, with this spectators option."""
    game = start_game(*players, deck=deck(), **kwargs)
    Game.objects.filter(pk=game.pk).update(spectators=spectators)
    game.refresh_from_db()
    return game


def watch_url(game: Game) -> str:
    return reverse("games:watch", args=[game.pk])


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# Every address this feature adds: the hidden-information tests below try each of them.
SPECTATOR_URL_NAMES = sorted(
    p.name
    for p in game_urls.urlpatterns
    if isinstance(p, URLPattern) and p.callback.__module__ == "games.views.spectate"
)


def test_the_spectator_urls_are_found():
    assert SPECTATOR_URL_NAMES == ["watch"]


# -- what a spectator sees -----------------------------------------------------------------


def test_a_spectator_sees_every_hand_face_up(alice, bob, mallory):
    game = watched_game(alice, bob)
    state = game.load_state()
    page = as_user(mallory).get(watch_url(game)).content.decode()
    for seat in range(2):
        for card_id in state.hand(seat):
            card = state.card(card_id)
            assert f'<span class="visually-hidden">{card.name}</span>' in card_item(page, card_id)
    # The seats' names, not "Your hand": the spectator holds none.
    assert "Your hand" not in page
    for position, name in enumerate(game.seat_names()):
        assert f'id="hand-{position}"' in page and name in page
    # ... and the players themselves see their own cards as backs (the comparison can fail).
    own_page = as_user(user_at(game, 0)).get(f"/games/{game.pk}/").content.decode()
    assert "Your hand" in own_page
    assert 'class="visually-hidden">red 1</span>' not in card_item(own_page, 0)


def test_a_spectator_sees_the_board_the_history_and_the_chat_but_writes_nothing(
    alice, bob, mallory
):
    game = watched_game(alice, bob, chat_policy=ChatPolicy.DURING)
    play.submit_action(game.pk, user_at(game, 0), {"type": "clue", "target": 1, "colour": "red"}, 0)
    chat.post_message(game.pk, user_at(game, 1), "Thanks for the red clue")
    notes.write_note(game.pk, user_at(game, 1), 5, "r5 save")
    page = as_user(mallory).get(watch_url(game)).content.decode()
    assert "Thanks for the red clue" in page  # the chat, read
    assert "Last move:" in page and "red" in page  # the history
    assert 'aria-label="The table"' in page  # the board
    # Nothing to write or report with, no move, and a player's private note stays private.
    for name in ("chat", "move", "note"):
        assert f'action="{reverse(f"games:{name}", args=[game.pk])}"' not in page
    assert reverse("moderation:report", args=[game.pk]) not in page
    assert "r5 save" not in page


def test_watching_is_recorded_once_and_tells_the_players_nothing(alice, bob, mallory):
    game = watched_game(alice, bob)
    version, outbox = game.version, Outbox.objects.count()
    client = as_user(mallory)
    for _ in range(2):
        assert client.get(watch_url(game)).status_code == 200
        assert client.get(watch_url(game), **HTMX).status_code == 200
    record = Spectator.objects.get()
    assert (record.game, record.user) == (game, mallory) and record.first_seen_at
    game.refresh_from_db()
    assert game.version == version and Outbox.objects.count() == outbox


def test_the_page_keeps_live_and_answers_an_unchanged_game_with_204(alice, bob, mallory):
    game = watched_game(alice, bob)
    client = as_user(mallory)
    page = client.get(watch_url(game)).content.decode()
    poll = f"{watch_url(game)}?v={game.version}"
    assert f'hx-get="{poll}"' in page and "every 5s" in page
    assert client.get(poll, **HTMX).status_code == 204
    play.submit_action(game.pk, current_user(game), {"type": "clue", "target": 1, "rank": 5}, 0)
    response = client.get(poll, **HTMX)
    assert response.status_code == 200 and "Last move:" in response.content.decode()
    assert "<html" not in response.content.decode()  # the partial alone
    # At the end the spectator is sent on to the replay.
    game = play_to_the_end(game)
    response = client.get(poll, **HTMX)
    assert response["HX-Redirect"] == reverse("games:replay", args=[game.pk, game.turn])
    response = client.get(watch_url(game))
    assert response.status_code == 302
    assert response.url == reverse("games:replay", args=[game.pk, game.turn])


def test_before_the_start_the_page_waits_and_records_nobody(alice, bob, mallory):
    game = lobby.create_game(
        alice, GameOptions(players=2), Game.Visibility.PUBLIC, spectators=SpectatorPolicy.DURING
    )
    response = as_user(mallory).get(watch_url(game))
    assert response.status_code == 200
    assert "has not started yet" in response.content.decode()
    assert not Spectator.objects.exists()
    # So mallory, who saw no card, may still join it.
    lobby.join_game(game.pk, mallory)


def test_a_visitor_who_is_not_logged_in_is_asked_to_log_in(alice, bob):
    game = watched_game(alice, bob)
    response = Client().get(watch_url(game))
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_no_such_game_is_404(mallory):
    assert as_user(mallory).get("/games/999999/watch/").status_code == 404


# -- who may not watch ---------------------------------------------------------------------


def refused_everywhere(client: Client, game: Game, message: str) -> None:
    """Every address of the spectator view refuses, plainly (403 and why) or to htmx (a
    refresh, which brings the refusal), shows none of the hands, and records nothing."""
    state = game.load_state()
    cards = {state.card(cid).name for hand in state.hands for cid in hand}
    for name in SPECTATOR_URL_NAMES:
        url = reverse(f"games:{name}", args=[game.pk])
        for query, headers in (("", {}), (f"?v={game.version}", HTMX), ("?v=0", HTMX)):
            response = client.get(url + query, **headers)
            body = response.content.decode()
            if headers:
                assert response.status_code == 200 and response["HX-Refresh"] == "true"
                assert body == ""
            else:
                assert response.status_code == 403
                assert message in body
            assert "data-card-id" not in body
            for card in cards:
                assert f">{card}<" not in body
    assert not Spectator.objects.filter(game=game).exists()


def test_no_player_of_the_game_ever_gets_the_spectator_view(alice, bob, carol):
    game = watched_game(alice, bob, carol)
    for player in (alice, bob, carol):
        refused_everywhere(as_user(player), game, "You play in this game")


def test_a_former_player_and_the_creator_get_no_spectator_view(alice, bob, carol, mallory):
    game = watched_game(alice, bob)
    maud = make_moderator("maud")
    bobs_seat = game.seats.get(user=bob).position
    moderation.replace_seat(game.pk, maud, "bob is away", bobs_seat, carol.email)
    refused_everywhere(as_user(bob), game, "You play in this game")
    # A creator who holds no seat (theirs given away) is refused as the creator too.
    Game.objects.filter(pk=game.pk).update(creator=mallory)
    refused_everywhere(as_user(mallory), game, "You play in this game")
    # A moderator who plays is refused like any player (their own cards are on the page).
    refused_everywhere(as_user(carol), game, "You play in this game")


@pytest.mark.parametrize("policy", [SpectatorPolicy.NOBODY, SpectatorPolicy.AFTER])
def test_a_game_closed_to_spectators_is_not_watched_while_played(alice, bob, mallory, policy):
    game = watched_game(alice, bob, spectators=policy)
    refused_everywhere(as_user(mallory), game, "not open to spectators")


def test_a_cancelled_game_shows_nothing(alice, mallory):
    game = lobby.create_game(
        alice, GameOptions(players=2), Game.Visibility.PUBLIC, spectators=SpectatorPolicy.DURING
    )
    lobby.abort_game(game.pk, alice)
    response = as_user(mallory).get(watch_url(game))
    assert response.status_code == 403 and "cancelled" in response.content.decode()


def test_the_refusal_links_a_player_to_their_game_and_anyone_else_to_the_lobby(alice, bob, mallory):
    game = watched_game(alice, bob, spectators=SpectatorPolicy.AFTER)
    mine = as_user(alice).get(watch_url(game)).content.decode()
    assert f'href="/games/{game.pk}/"' in mine and str(PLAYS_HERE) in mine
    other = as_user(mallory).get(watch_url(game)).content.decode()
    assert f'href="/games/{game.pk}/"' not in other


# -- a spectator never takes a seat --------------------------------------------------------


def test_a_spectator_cannot_join_the_game(alice, mallory):
    game = lobby.create_game(
        alice, GameOptions(players=3), Game.Visibility.PUBLIC, spectators=SpectatorPolicy.DURING
    )
    # Only a game being played records its spectators; a record on an open table stands for
    # one made another way (a deal shared between tables, deals/).
    Spectator.objects.create(game=game, user=mallory)
    with refused(NotAllowed, WATCHED):
        lobby.join_game(game.pk, mallory)


def test_a_moderator_cannot_give_a_spectator_a_seat(alice, bob, mallory):
    game = watched_game(alice, bob)
    assert as_user(mallory).get(watch_url(game)).status_code == 200
    maud = make_moderator("maud")
    seat = game.seats.get(user=bob).position
    with refused(GameError, "Mallory watched this game: they cannot play it."):
        moderation.replace_seat(game.pk, maud, "bob is away", seat, mallory.email)


def test_a_new_player_by_replacement_is_no_spectator_and_is_refused_the_view(alice, bob, carol):
    """The other order: carol is seated first, and then cannot watch."""
    game = watched_game(alice, bob)
    maud = make_moderator("maud")
    moderation.replace_seat(
        game.pk, maud, "bob is away", game.seats.get(user=bob).position, carol.email
    )
    refused_everywhere(as_user(carol), game, "You play in this game")


# -- after the end -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("visibility", "policy", "stranger_sees_it"),
    [
        (Game.Visibility.PUBLIC, SpectatorPolicy.AFTER, True),  # as before the option
        (Game.Visibility.INVITE, SpectatorPolicy.AFTER, False),  # as before the option
        (Game.Visibility.PUBLIC, SpectatorPolicy.NOBODY, False),
        (Game.Visibility.INVITE, SpectatorPolicy.NOBODY, False),
        (Game.Visibility.INVITE, SpectatorPolicy.DURING, True),
    ],
)
def test_who_sees_a_finished_game(alice, bob, mallory, visibility, policy, stranger_sees_it):
    game = watched_game(alice, bob, spectators=policy)
    Game.objects.filter(pk=game.pk).update(visibility=visibility)
    game = play_to_the_end(game)
    stranger, player = as_user(mallory), as_user(bob)
    replay = reverse("games:replay", args=[game.pk, game.turn])
    # The spectator view of a finished game is its replay, for everyone.
    for client in (stranger, player):
        response = client.get(watch_url(game))
        assert response.status_code == 302 and response.url == replay
    assert player.get(replay).status_code == 200
    for url in (replay, reverse("games:export", args=[game.pk])):
        assert stranger.get(url).status_code == (200 if stranger_sees_it else 404)
    # The lobby's finished games: those a stranger may open; none is among the games to watch.
    lobby_page = stranger.get("/").content.decode()
    assert (f'href="/games/{game.pk}/"' in lobby_page) == stranger_sees_it
    assert watch_url(game) not in lobby_page


# -- the lobby and the new game's form -----------------------------------------------------


def test_the_lobby_lists_the_games_one_may_watch(alice, bob, carol, mallory):
    during = watched_game(alice, bob)
    closed = watched_game(alice, bob, spectators=SpectatorPolicy.AFTER)
    link = f'href="{watch_url(during)}"'
    page = as_user(mallory).get("/").content.decode()
    assert "Games you can watch" in page and link in page
    assert f'href="{watch_url(closed)}"' not in page
    assert "Alice, Bob" in page or "Bob, Alice" in page
    # Not to its players, nor to one who played it before; to a visitor, with a login asked.
    for player in (alice, bob):
        assert link not in as_user(player).get("/").content.decode()
    maud = make_moderator("maud")
    moderation.replace_seat(
        during.pk, maud, "away", during.seats.get(user=bob).position, carol.email
    )
    assert link not in as_user(bob).get("/").content.decode()
    assert link in Client().get("/").content.decode()


@pytest.mark.parametrize(
    ("posted", "stored"),
    [
        ({}, SpectatorPolicy.AFTER),
        ({"spectators": "during"}, SpectatorPolicy.DURING),
        ({"spectators": "nobody"}, SpectatorPolicy.NOBODY),
    ],
)
def test_the_new_game_form_sets_the_option(alice, posted, stored):
    form = {"players": 2, "multicolour": 0, "fuses": 3, "visibility": "invite", **posted}
    response = as_user(alice).post(reverse("games:new"), {"timeout_policy": "auto_move", **form})
    assert response.status_code == 302
    assert Game.objects.get().spectators == stored


def test_the_new_game_form_offers_the_option_and_refuses_a_made_up_one(alice):
    client = as_user(alice)
    page = client.get(reverse("games:new")).content.decode()
    for policy in SpectatorPolicy:
        assert f'value="{policy.value}"' in page and escape(policy.label) in page
    form = {"players": 2, "multicolour": 0, "fuses": 3, "visibility": "invite"}
    response = client.post(
        reverse("games:new"), {**form, "timeout_policy": "auto_move", "spectators": "all"}
    )
    assert response.status_code == 200 and not Game.objects.exists()


def test_create_game_refuses_a_made_up_option(alice):
    with refused(GameError, "Choose who may watch the game."):
        lobby.create_game(alice, GameOptions(players=2), Game.Visibility.INVITE, spectators="all")


def test_a_chat_message_of_the_spectator_is_refused(alice, bob, mallory):
    """Read-only: the chat's own address takes nothing from someone without a seat."""
    game = watched_game(alice, bob, chat_policy=ChatPolicy.DURING)
    as_user(mallory).get(watch_url(game))
    response = as_user(mallory).post(reverse("games:chat", args=[game.pk]), {"text": "psst"})
    assert response.status_code == 302
    assert not ChatMessage.objects.exists()


def test_a_game_emails_link_never_opens_the_spectator_view(alice, bob):
    """The pass a game email leaves opens the player's own pages only: the spectator view asks
    for a real login (and a real login is refused, above)."""
    game = watched_game(alice, bob)
    link = urlsplit(game_link(bob, game))
    holder = Client()
    holder.get(link.path + (f"?{link.query}" if link.query else ""), follow=True)
    assert holder.get(f"/games/{game.pk}/").status_code == 200  # the pass works
    for name in SPECTATOR_URL_NAMES:
        url = reverse(f"games:{name}", args=[game.pk])
        response = holder.get(url)
        assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert not Spectator.objects.exists()


def test_the_players_are_told_when_spectators_may_watch(alice, bob):
    """The option, never who watches: the same for every game with this option."""
    told = "Open to spectators: anyone who does not play may watch"
    open_game = watched_game(alice, bob)
    closed_game = watched_game(alice, bob, spectators=SpectatorPolicy.AFTER)
    client = as_user(alice)
    assert told in client.get(f"/games/{open_game.pk}/").content.decode()
    assert told not in client.get(f"/games/{closed_game.pk}/").content.decode()
    waiting = lobby.create_game(
        alice, GameOptions(players=2), Game.Visibility.INVITE, spectators=SpectatorPolicy.DURING
    )
    page = client.get(f"/games/{waiting.pk}/").content.decode()
    assert "open to spectators during play" in page
