"""What a game refuses, and why: every refusal of the lobby, the seat, the chat and reports
says what is wrong in words for the player and changes nothing in the database.

Personas (tests/conftest.py): alice creates the games, bob and carol play with her, mallory
plays in none of them.
"""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.utils.html import escape

from games.engine import GameOptions
from games.errors import GameError, NotAllowed
from games.models import ChatMessage, ChatPolicy, Game, Invitation, Move, Seat
from games.services import chat, lobby, play
from moderation import services as moderation
from moderation.models import ModeratorAction, Report
from outbox.models import Outbox
from tests.conftest import make_moderator
from tests.games.conftest import play_to_the_end, start_game


def database() -> dict[str, list[dict]]:
    """Every row a refused request could have touched. (A seat's last_seen_at is left out:
    opening a page may note that the player is looking, and that is not a change.)"""
    seat_fields = [f.attname for f in Seat._meta.concrete_fields if f.name != "last_seen_at"]
    return {
        "games": list(Game.objects.order_by("pk").values()),
        "seats": list(Seat.objects.order_by("pk").values(*seat_fields)),
        "moves": list(Move.objects.order_by("pk").values()),
        "chat": list(ChatMessage.objects.order_by("pk").values()),
        "reports": list(Report.objects.order_by("pk").values()),
        "invitations": list(Invitation.objects.order_by("pk").values()),
        "moderator_actions": list(ModeratorAction.objects.order_by("pk").values()),
        "outbox": list(Outbox.objects.order_by("pk").values()),
    }


@contextmanager
def refused(error: type[GameError], message: str | None) -> Iterator[None]:
    """The block raises exactly `error` with exactly `message` (None: any message), and the
    database is as it was."""
    before = database()
    with pytest.raises(GameError) as caught:
        yield
    assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
    if message is not None:
        assert str(caught.value) == message
    assert database() == before


def messages_shown(response) -> list[str]:
    """The messages (the success and error notes) on the page a redirect led to."""
    return [str(message) for message in response.context["messages"]]


def open_game(creator, players: int = 3, visibility: str = Game.Visibility.PUBLIC, **kwargs):
    return lobby.create_game(creator, GameOptions(players=players), visibility, **kwargs)


# -- cancelling a game before its start ----------------------------------------------------


def test_the_creator_cancels_an_open_game(alice, bob):
    game = open_game(alice)
    lobby.join_game(game.pk, bob)
    lobby.abort_game(game.pk, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.finished_at is not None and game.started_at is None
    # Nobody joins, leaves, starts or cancels a cancelled game, and the message says why.
    with refused(GameError, "This game was cancelled; you can no longer join it."):
        lobby.join_game(game.pk, alice)
    with refused(GameError, "This game was cancelled: you can no longer leave it."):
        lobby.leave_game(game.pk, bob)
    with refused(GameError, "This game was cancelled."):
        lobby.start_game(game.pk, alice)
    with refused(GameError, "Only a game that has not started can be cancelled."):
        lobby.abort_game(game.pk, alice)


def test_only_the_creator_cancels(alice, bob, mallory):
    game = open_game(alice)
    lobby.join_game(game.pk, bob)
    for user in (bob, mallory):
        with refused(NotAllowed, "Only the person who created the game can cancel it."):
            lobby.abort_game(game.pk, user)
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN


def test_a_started_game_is_not_cancelled(alice, bob):
    game = start_game(alice, bob)
    with refused(GameError, "Only a game that has not started can be cancelled."):
        lobby.abort_game(game.pk, alice)
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_the_cancel_button_cancels_and_goes_home(client, alice, bob):
    game = open_game(alice)
    lobby.join_game(game.pk, bob)
    client.force_login(alice)
    assert f'action="/games/{game.pk}/cancel/"' in client.get(f"/games/{game.pk}/").content.decode()

    response = client.post(f"/games/{game.pk}/cancel/", follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert messages_shown(response) == ["The game is cancelled."]
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    page = response.content.decode()
    assert f'href="/games/{game.pk}/"' not in page  # neither in my games nor in open games
    client.force_login(bob)
    assert "This game was cancelled." in client.get(f"/games/{game.pk}/").content.decode()


def test_the_cancel_view_refuses_others_and_started_games(client, alice, bob):
    game = open_game(alice)
    lobby.join_game(game.pk, bob)
    client.force_login(bob)
    before = database()
    response = client.post(f"/games/{game.pk}/cancel/", follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert messages_shown(response) == ["Only the person who created the game can cancel it."]
    assert database() == before

    started = start_game(alice, bob, seed=7)
    client.force_login(alice)
    before = database()
    response = client.post(f"/games/{started.pk}/cancel/", follow=True)
    assert messages_shown(response) == ["Only a game that has not started can be cancelled."]
    assert database() == before
    assert client.get(f"/games/{game.pk}/cancel/").status_code == 405  # a link never cancels


# -- joining --------------------------------------------------------------------------------


def test_a_started_game_cannot_be_joined_even_with_the_code(alice, bob, carol):
    game = start_game(alice, bob)
    with refused(GameError, "This game has already started; you can no longer join it."):
        lobby.join_game(game.pk, carol, game.invite_code)


@pytest.mark.parametrize("code", ["", "not-the-code"])
def test_an_invitation_only_game_needs_its_code(alice, bob, code):
    game = open_game(alice, visibility=Game.Visibility.INVITE)
    assert code != game.invite_code
    with refused(NotAllowed, "This game is by invitation only; ask for the invitation link."):
        lobby.join_game(game.pk, bob, code)


def test_nobody_takes_two_seats(alice, bob):
    game = open_game(alice)
    lobby.join_game(game.pk, bob)
    for user in (alice, bob):
        with refused(GameError, "You already have a seat at this table."):
            lobby.join_game(game.pk, user)


def test_a_full_table_refuses_another_player(alice, bob, carol, mallory):
    game = open_game(alice, players=2)
    lobby.join_game(game.pk, bob)
    with refused(GameError, "Every seat at this table is taken."):
        lobby.join_game(game.pk, carol)
    # A seat a bot sits in is taken too.
    with_bot = open_game(alice, players=3, bots=1)
    lobby.join_game(with_bot.pk, carol)
    with refused(GameError, "Every seat at this table is taken."):
        lobby.join_game(with_bot.pk, mallory)


def test_the_join_button_says_why_it_refused(client, alice, bob):
    game = open_game(alice, visibility=Game.Visibility.INVITE)
    client.force_login(bob)
    before = database()
    response = client.post(f"/games/{game.pk}/join/", {"code": "guess"}, follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert messages_shown(response) == [
        "This game is by invitation only; ask for the invitation link."
    ]
    assert database() == before

    lobby.join_game(game.pk, bob, game.invite_code)
    before = database()
    response = client.post(f"/games/{game.pk}/join/", {"code": game.invite_code}, follow=True)
    assert response.redirect_chain == [(f"/games/{game.pk}/", 302)]  # a player stays at the table
    assert messages_shown(response) == ["You already have a seat at this table."]
    assert database() == before


# -- leaving --------------------------------------------------------------------------------


def test_nobody_leaves_a_started_game(alice, bob):
    game = start_game(alice, bob)
    with refused(GameError, "This game has already started: you can no longer leave it."):
        lobby.leave_game(game.pk, bob)


def test_the_creator_cancels_rather_than_leaves(alice, bob):
    game = open_game(alice)
    lobby.join_game(game.pk, bob)
    with refused(GameError, "You created this game: cancel it instead of leaving."):
        lobby.leave_game(game.pk, alice)


def test_only_a_seated_player_leaves(alice, mallory):
    game = open_game(alice)
    with refused(GameError, "You have no seat at this table."):
        lobby.leave_game(game.pk, mallory)


def test_the_leave_button_says_why_it_refused(client, alice, bob):
    game = open_game(alice)
    lobby.join_game(game.pk, bob)
    client.force_login(alice)
    before = database()
    response = client.post(f"/games/{game.pk}/leave/", follow=True)
    assert response.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert messages_shown(response) == ["You created this game: cancel it instead of leaving."]
    assert database() == before


# -- starting -------------------------------------------------------------------------------


def test_only_the_creator_starts(alice, bob):
    game = open_game(alice, players=2)
    lobby.join_game(game.pk, bob)
    with refused(NotAllowed, "Only the person who created the game can start it."):
        lobby.start_game(game.pk, bob)


def test_a_game_starts_once(alice, bob):
    game = start_game(alice, bob)
    with refused(GameError, "This game has already started."):
        lobby.start_game(game.pk, alice)


def test_a_game_with_free_seats_does_not_start(alice, bob):
    game = open_game(alice, players=3, bots=1)
    with refused(GameError, "Every seat must be taken before the game can start."):
        lobby.start_game(game.pk, alice)
    lobby.join_game(game.pk, bob)
    lobby.start_game(game.pk, alice)  # the bot's seat counts as taken
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_a_table_of_bots_alone_does_not_start(alice):
    game = open_game(alice, players=2, bots=1)
    # A moderator gave the creator's own seat to a bot: nobody is left to play.
    moderation.replace_seat(game.pk, make_moderator(), "the creator asked", 0)
    assert all(seat.is_bot for seat in game.seats.all())
    with refused(GameError, "At least one person must play."):
        lobby.start_game(game.pk, alice)


def test_the_start_button_says_why_it_refused(client, alice):
    game = open_game(alice)
    client.force_login(alice)
    before = database()
    response = client.post(f"/games/{game.pk}/start/", follow=True)
    assert response.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert messages_shown(response) == ["Every seat must be taken before the game can start."]
    assert database() == before


# -- taking a seat back from the bot ---------------------------------------------------------


def test_only_a_player_reclaims_a_seat(alice, bob, mallory):
    game = start_game(alice, bob)
    with refused(NotAllowed, "You are not playing in this game."):
        play.reclaim_seat(game.pk, mallory)


def test_a_seat_nobody_took_over_is_not_reclaimed(alice, bob):
    game = start_game(alice, bob)
    with refused(GameError, "Nobody else plays your seat."):
        play.reclaim_seat(game.pk, bob)


def test_a_seat_is_reclaimed_only_while_the_game_is_played(alice, bob):
    game = start_game(alice, bob)
    # Bob timed out too often and a bot took his seat; then the game was aborted.
    Seat.objects.filter(game=game, user=bob).update(is_bot=True, timeouts_in_a_row=3)
    moderation.abort(game.pk, make_moderator(), "abandoned")
    with refused(GameError, "This game is not being played."):
        play.reclaim_seat(game.pk, bob)


def test_the_reclaim_button_says_why_it_refused(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(bob)
    before = database()
    response = client.post(f"/games/{game.pk}/reclaim/", follow=True)
    assert response.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert escape("Nobody else plays your seat.") in response.content.decode()
    assert messages_shown(response) == ["Nobody else plays your seat."]
    assert database() == before


# -- the chat ---------------------------------------------------------------------------------


@pytest.fixture
def chatty_game(alice, bob) -> Game:
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(chat_policy=ChatPolicy.DURING)
    return game


@pytest.mark.parametrize("text", ["", "   ", " \n\t "])
def test_an_empty_message_is_refused(chatty_game, bob, text):
    with refused(GameError, "Write something first."):
        chat.post_message(chatty_game.pk, bob, text)


def test_a_message_has_at_most_500_characters(chatty_game, bob):
    with refused(GameError, "A message has at most 500 characters."):
        chat.post_message(chatty_game.pk, bob, "x" * 501)
    # The limit itself is allowed, and counted after the spaces are squeezed.
    chat.post_message(chatty_game.pk, bob, "x" * 500)
    chat.post_message(chatty_game.pk, bob, "   ".join(["y" * 249, "z" * 250]))
    assert [len(text) for text in ChatMessage.objects.values_list("text", flat=True)] == [500, 500]


def test_only_the_players_write_in_the_chat(chatty_game, mallory):
    with refused(NotAllowed, "Only the players of a game can write in its chat."):
        chat.post_message(chatty_game.pk, mallory, "let me in")
    with refused(NotAllowed, "Only the players of a game can write in its chat."):
        chat.post_message(999_999, mallory, "is anyone there?")


def test_a_quiet_table_keeps_its_chat_closed_during_play(alice, bob):
    game = start_game(alice, bob)
    assert game.chat_policy == ChatPolicy.AFTER
    quiet = "This table keeps quiet during play: the chat opens when the game ends."
    for user in (alice, bob):
        with refused(GameError, quiet):
            chat.post_message(game.pk, user, "play your red card!")


def test_the_chat_form_says_why_it_refused(client, alice, bob, mallory):
    game = start_game(alice, bob)
    client.force_login(bob)
    before = database()
    response = client.post(f"/games/{game.pk}/chat/", {"text": "psst"}, follow=True)
    assert response.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert messages_shown(response) == [
        "This table keeps quiet during play: the chat opens when the game ends."
    ]
    response = client.post(f"/games/{game.pk}/chat/", {"text": ""}, follow=True)
    assert messages_shown(response) == ["A message has 1 to 500 characters."]
    client.force_login(mallory)
    response = client.post(f"/games/{game.pk}/chat/", {"text": "hi"}, follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert messages_shown(response) == ["Only the players of a game can write in its chat."]
    assert database() == before


# -- reports ----------------------------------------------------------------------------------


@pytest.fixture
def finished_game(alice, bob) -> Game:
    """A finished game of alice and bob, in which bob said something."""
    game = play_to_the_end(start_game(alice, bob))
    chat.post_message(game.pk, bob, "rude words")
    return game


@pytest.mark.parametrize("reason", ["", "  \n "])
def test_a_report_says_what_is_wrong(finished_game, alice, reason):
    with refused(GameError, "Say what is wrong, so that a moderator can act on it."):
        moderation.report(finished_game.pk, alice, reason)


def test_only_the_players_report(finished_game, bob, mallory):
    with refused(NotAllowed, "Only the players of a game can report something in it."):
        moderation.report(finished_game.pk, mallory, "they were mean", reported_user_id=bob.pk)
    with refused(NotAllowed, "Only the players of a game can report something in it."):
        moderation.report(999_999, mallory, "no such game")


def test_a_reported_message_belongs_to_the_game(finished_game, alice, bob, carol):
    elsewhere = play_to_the_end(start_game(bob, carol, seed=5))
    other_message = chat.post_message(elsewhere.pk, carol, "said elsewhere")
    for message_id in (other_message.pk, 999_999):
        with refused(GameError, "There is no such message in this game."):
            moderation.report(finished_game.pk, alice, "rude", message_id=message_id)


def test_nobody_reports_themselves(finished_game, alice, bob):
    with refused(GameError, "You cannot report yourself."):
        moderation.report(finished_game.pk, alice, "I was rude", reported_user_id=alice.pk)
    (own,) = ChatMessage.objects.filter(game=finished_game, author=bob)
    with refused(GameError, "You cannot report yourself."):
        moderation.report(finished_game.pk, bob, "I regret it", message_id=own.pk)


def test_the_reported_player_sits_at_the_table(finished_game, alice, mallory):
    with refused(GameError, "That person does not play in this game."):
        moderation.report(finished_game.pk, alice, "who?", reported_user_id=mallory.pk)
    with refused(GameError, "That person does not play in this game."):
        moderation.report(finished_game.pk, alice, "nobody", reported_user_id=999_999)


def test_the_report_form_says_why_it_refused(client, finished_game, alice, mallory):
    client.force_login(mallory)
    before = database()
    response = client.post(f"/games/{finished_game.pk}/report/", {"reason": "x"}, follow=True)
    assert messages_shown(response) == ["Only the players of a game can report something in it."]
    client.force_login(alice)
    response = client.post(f"/games/{finished_game.pk}/report/", {"reason": ""}, follow=True)
    assert messages_shown(response) == ["Say what is wrong, in at most 1,000 characters."]
    assert database() == before
