"""Defects found while playing (issue 16), each with the test that failed before its fix."""

import re

from django.core.files.uploadedfile import SimpleUploadedFile
from django.templatetags.static import static

from friends import services as friends
from games.engine import Clue, Discard, End, GameOptions, action_to_dict
from games.models import Game
from games.services import lobby, play
from tests.games.conftest import current_user, play_to_the_end, start_game
from tests.games.helpers import analysed

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_analysis_poll_does_not_change_the_address_and_its_url_is_a_page(client, alice, bob):
    """The replay around the waiting analysis pushes each turn's address (hx-push-url);
    the analysis' own poll must not, or the address bar ends on a bare fragment."""
    game = play_to_the_end(start_game(alice, bob))
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/replay/{game.turn}/").content.decode()
    (section,) = re.findall(r'<section id="analysis"[^>]*>', page)
    assert f'hx-get="/games/{game.pk}/analysis/"' in section
    assert 'hx-push-url="false"' in section
    # Reloading that address (or a bookmark of it) opens the whole page.
    response = client.get(f"/games/{game.pk}/analysis/")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/replay/{game.turn}/#analysis"
    fragment = client.get(f"/games/{game.pk}/analysis/", **HTMX)
    assert fragment.status_code == 200
    assert fragment.content.decode().lstrip().startswith('<section id="analysis"')


def test_the_game_has_started_is_not_left_above_the_table(client, alice, bob):
    """The turn page says the game is on; a message above the table stayed there for as long
    as the page was open (the poll swaps the table alone)."""
    game = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.INVITE)
    lobby.join_game(game.pk, bob, game.invite_code)
    client.force_login(alice)
    response = client.post(f"/games/{game.pk}/start/", follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert 'id="table"' in page
    assert "The game has started." not in page


def test_the_final_score_is_said_once(client, alice, bob):
    game = start_game(alice, bob)
    while game.is_playing():  # discards and clues until the deck runs out
        state = game.load_state()
        legal = state.legal_actions()
        action = next((a for a in legal if isinstance(a, Discard)), None)
        action = action or next(a for a in legal if isinstance(a, Clue))
        play.submit_action(game.pk, current_user(game), action_to_dict(action), game.turn)
        game.refresh_from_db()
    assert game.load_state().end is End.LAST_ROUND
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/replay/{game.turn}/").content.decode()
    (outcome,) = re.findall(r'<p class="outcome">(.*?)</p>', page, flags=re.S)
    assert f"Final score: {game.score} / 25" in outcome
    assert "points," not in outcome, outcome  # was "…: 0 points, horrible." after it


def test_the_analysis_says_your_table_to_its_players_only(client, alice, bob, carol):
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.PUBLIC)
    game = analysed(play_to_the_end(game))
    for user, words in ((alice, "Your table scored"), (carol, "This table scored")):
        client.force_login(user)
        page = client.get(f"/games/{game.pk}/replay/{game.turn}/").content.decode()
        assert f"{words} {game.score}." in page, user
        fragment = client.get(f"/games/{game.pk}/analysis/", **HTMX).content.decode()
        assert f"{words} {game.score}." in fragment, user
    assert "Your table scored" not in page


def test_the_waiting_room_lists_pending_invitations_to_its_players(client, alice, bob, carol):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.PUBLIC)
    lobby.invite_by_email(game.pk, alice, "friend@example.com")
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "<li>friend@example.com</li>" in page  # the inviter sees what they typed
    lobby.join_game(game.pk, bob, game.invite_code)
    # Another player is not shown the address someone else typed: only who invited.
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "friend@example.com" not in page and "<li>Someone invited by Alice</li>" in page
    # A stranger looking at the public table is not told whom the players invited.
    client.force_login(carol)
    stranger = client.get(f"/games/{game.pk}/")
    assert stranger.status_code == 200
    assert "friend@example.com" not in stranger.content.decode()
    assert "invited by" not in stranger.content.decode()


def test_an_address_typed_for_an_invitation_does_not_say_whether_it_has_an_account(
    client, alice, bob, carol
):
    """Typing an address must not reveal that it belongs to a member, nor their name."""
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.PUBLIC)
    lobby.invite_by_email(game.pk, alice, carol.email)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"<li>{carol.email}</li>" in page and "Carol" not in page
    # Once the invited person has a seat, the invitation is no longer pending.
    lobby.join_game(game.pk, carol, game.invite_code)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert carol.email not in page


def test_a_friend_invited_by_name_is_listed_by_name_never_by_address(client, alice, bob):
    finished = start_game(alice, bob)
    play_to_the_end(finished)
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    friends.invite_by_id(game.pk, alice, bob.pk)  # a partner of a finished game, by id
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "<li>Bob</li>" in page and bob.email not in page


def test_the_favicon_is_served(client, db):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    icon_url = static("favicon.ico")  # hashed in production: cached for ever
    assert response["Location"] == icon_url
    icon = client.get(icon_url)
    assert icon.status_code == 200
    assert b"".join(icon.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
    page = client.get("/").content.decode()
    assert f'<link rel="icon" href="{icon_url}"' in page


def test_the_import_error_looks_like_the_sites_other_errors(client, alice):
    client.force_login(alice)
    upload = SimpleUploadedFile("game.json", b"not json at all", content_type="application/json")
    response = client.post("/games/import/", {"file": upload})
    assert response.status_code == 400
    page = response.content.decode()
    (errors,) = re.findall(r'<div role="alert">\s*<ul class="messages">(.*?)</ul>', page, re.S)
    assert '<li class="error"' in errors and "not JSON" in errors


def test_a_message_is_shown_in_the_table_so_that_the_next_refresh_takes_it_away(client, alice, bob):
    """A message ("You asked for a pause.") used to sit above the table, which a refresh
    (poll or push) replaces: it stayed up for the rest of the game."""
    from games.models import Game
    from tests.games.conftest import start_game

    game = start_game(alice, bob, turn_time_limit=24)
    client.force_login(alice)
    page = client.post(f"/games/{game.pk}/pause/", follow=True).content.decode()
    assert page.count("You asked for a pause.") == 1
    assert page.index('id="table"') < page.index("You asked for a pause.")
    version = Game.objects.get(pk=game.pk).version
    refreshed = client.get(
        f"/games/{game.pk}/poll/?status=playing&v={version - 1}", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'id="table"' in refreshed and "You asked for a pause." not in refreshed
