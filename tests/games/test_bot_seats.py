import pytest

from games.engine import GameOptions
from games.errors import GameError, NotAllowed
from games.models import Game, Seat
from games.services import lobby
from outbox import delivery
from outbox.models import Outbox


def test_the_creator_seats_bots_and_starts_with_them(client, alice, bob):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.PUBLIC)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Seat 2: add a bot" in page
    response = client.post(f"/games/{game.pk}/bot/", {"position": 1, "bot": "yes"}, follow=True)
    assert "A bot takes the seat." in response.content.decode()
    lobby.join_game(game.pk, bob)  # a person takes the seat left free, not the bot's
    assert Seat.objects.get(game=game, user=bob).position == 2
    lobby.start_game(game.pk, alice)
    game.refresh_from_db()
    seats = list(game.seats.order_by("position"))
    assert sum(seat.is_bot for seat in seats) == 1
    assert {seat.user for seat in seats if not seat.is_bot} == {alice, bob}


def test_only_the_creator_seats_bots_and_only_in_empty_seats_before_the_start(alice, bob):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.PUBLIC)
    lobby.join_game(game.pk, bob)
    with pytest.raises(NotAllowed):
        lobby.set_bot(game.pk, bob, 2, True)
    with pytest.raises(GameError, match="taken by a player"):
        lobby.set_bot(game.pk, alice, 1, True)
    lobby.set_bot(game.pk, alice, 2, True)
    with pytest.raises(GameError, match="already"):
        lobby.set_bot(game.pk, alice, 2, True)
    lobby.set_bot(game.pk, alice, 2, False)
    assert not Seat.objects.filter(game=game, is_bot=True).exists()


def test_a_game_with_bots_plays_itself_through_their_turns(alice, settings):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    lobby.set_bot(game.pk, alice, 1, True)
    lobby.set_bot(game.pk, alice, 2, True)
    lobby.start_game(game.pk, alice)
    # Run each bot's scheduled move, as the worker would, until it is alice's turn.
    for _ in range(3):
        game.refresh_from_db()
        if game.seats.get(position=game.current_seat).user == alice:
            break
        Outbox.objects.filter(kind="bot_move").update(due_at=game.created_at)
        for row_id in Outbox.objects.filter(kind="bot_move", done_at=None).values_list(
            "pk", flat=True
        ):
            delivery.run(row_id)
    game.refresh_from_db()
    assert game.seats.get(position=game.current_seat).user == alice
    assert game.moves.filter(made_by="bot").count() == game.turn


def test_the_how_the_bots_play_page_explains_the_conventions(client):
    page = client.get("/bots/").content.decode()
    assert "How the bots play" in page
    for idea in ("chop", "play clue", "save clue", "focus"):
        assert idea in page


def test_bots_can_be_chosen_when_the_game_is_created(client, alice):
    client.force_login(alice)
    form = {
        "players": 4,
        "bots": 2,
        "multicolour": 0,
        "fuses": 3,
        "turn_time_limit": "",
        "timeout_policy": "auto_move",
        "visibility": "invite",
    }
    response = client.post("/games/new/", form, follow=True)
    game = Game.objects.get(creator=alice)
    assert [s.is_bot for s in game.seats.order_by("position")] == [False, False, True, True]
    response = client.post("/games/new/", {**form, "bots": 4})
    assert response.status_code == 200
    assert "Leave at least one seat for a person" in response.content.decode()
    assert Game.objects.count() == 1


def test_the_waiting_room_poll_with_a_bot_seated_reloads_only_on_a_change(
    client, alice, bob, django_capture_on_commit_callbacks
):
    """With a bot seated, an unchanged waiting room is not reloaded every five seconds, and a
    bot seated or removed shows to the others."""
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.PUBLIC, bots=1)
    lobby.join_game(game.pk, bob)
    client.force_login(bob)
    version = Game.objects.get(pk=game.pk).version
    assert f"status=open&amp;v={version}" in client.get(f"/games/{game.pk}/").content.decode()
    htmx = {"HTTP_HX_REQUEST": "true"}
    poll = f"/games/{game.pk}/poll/?status=open&v={version}"
    assert client.get(poll, **htmx).status_code == 204

    with django_capture_on_commit_callbacks(execute=True):  # the cache hears of the change
        lobby.set_bot(game.pk, alice, 2, bot=False)
    response = client.get(poll, **htmx)
    assert response.status_code == 200 and response["HX-Refresh"] == "true"
