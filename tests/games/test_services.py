import pytest

from games.engine import GameOptions, seating_order
from games.errors import GameError, IllegalMove, NotAllowed, StaleMove
from games.models import Game, Move
from games.services import lobby, play
from tests.games.conftest import current_user, play_to_the_end, start_game, user_at
from tests.mail import html_body


def test_create_seats_the_creator_and_leaves_the_other_seats_empty(alice):
    game = lobby.create_game(alice, GameOptions(players=4), Game.Visibility.PUBLIC)
    assert game.status == Game.Status.OPEN
    assert [seat.user for seat in game.seats.order_by("position")] == [alice, None, None, None]


def test_invitation_only_games_need_the_code(alice, bob):
    game = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.INVITE)
    with pytest.raises(NotAllowed):
        lobby.join_game(game.pk, bob, "wrong-code")
    lobby.join_game(game.pk, bob, game.invite_code)
    assert game.seats.filter(user=bob).exists()


def test_a_full_table_refuses_more_players(alice, bob, carol):
    game = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.PUBLIC)
    lobby.join_game(game.pk, bob)
    with pytest.raises(GameError, match="Every seat"):
        lobby.join_game(game.pk, carol)


def test_a_player_can_leave_before_the_start(alice, bob):
    game = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.PUBLIC)
    lobby.join_game(game.pk, bob)
    lobby.leave_game(game.pk, bob)
    assert not game.seats.filter(user=bob).exists()


def test_only_the_creator_starts_and_only_a_full_table(alice, bob, carol):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.PUBLIC)
    lobby.join_game(game.pk, bob)
    with pytest.raises(GameError, match="Every seat"):
        lobby.start_game(game.pk, alice)
    lobby.join_game(game.pk, carol)
    with pytest.raises(NotAllowed):
        lobby.start_game(game.pk, bob)
    lobby.start_game(game.pk, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.turn == 0 and game.current_seat == 0


def test_the_start_shuffles_the_seating_from_the_seed(alice, bob, carol):
    game = start_game(alice, bob, carol, seed=99)
    joined = [alice, bob, carol]
    expected = [joined[source] for source in seating_order(99, 3)]
    assert [user_at(game, position) for position in range(3)] == expected


def test_a_legal_move_is_recorded_and_the_turn_passes(alice, bob):
    game = start_game(alice, bob)
    mover = current_user(game)
    other = 1 - game.current_seat
    state = game.load_state()
    colour = state.card(state.hand(other)[0]).suit_name
    play.submit_action(game.pk, mover, {"type": "clue", "target": other, "colour": colour}, 0)
    game.refresh_from_db()
    assert game.turn == 1 and game.current_seat == other
    assert Move.objects.get(game=game, turn=0).action["colour"] == colour


def test_a_stale_move_changes_nothing(alice, bob):
    game = start_game(alice, bob)
    mover = current_user(game)
    hand = game.load_state().hand(game.current_seat)
    with pytest.raises(StaleMove):
        play.submit_action(game.pk, mover, {"type": "play", "card_id": hand[0]}, 5)
    assert game.moves.count() == 0


def test_a_move_out_of_turn_changes_nothing(alice, bob):
    game = start_game(alice, bob)
    waiting = user_at(game, 1 - game.current_seat)
    hand = game.load_state().hand(1 - game.current_seat)
    with pytest.raises(GameError, match="not your turn"):
        play.submit_action(game.pk, waiting, {"type": "play", "card_id": hand[0]}, 0)
    assert game.moves.count() == 0


def test_an_illegal_move_says_why_and_changes_nothing(alice, bob):
    game = start_game(alice, bob)
    hand = game.load_state().hand(game.current_seat)
    with pytest.raises(IllegalMove, match="clue tokens are available"):
        play.submit_action(game.pk, current_user(game), {"type": "discard", "card_id": hand[0]}, 0)
    with pytest.raises(IllegalMove, match="not in your hand"):
        play.submit_action(game.pk, current_user(game), {"type": "play", "card_id": 49}, 0)
    assert game.moves.count() == 0
    game.refresh_from_db()
    assert game.turn == 0


def test_an_outsider_cannot_move(alice, bob, mallory):
    game = start_game(alice, bob)
    with pytest.raises(NotAllowed):
        play.submit_action(game.pk, mallory, {"type": "play", "card_id": 0}, 0)


def test_a_game_played_to_the_end_is_finished_with_its_score(alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None
    state = game.load_state()
    assert state.is_over and game.score == state.score and game.end == str(state.end)
    with pytest.raises(GameError):
        play.submit_action(game.pk, alice, {"type": "play", "card_id": 0}, game.turn)


def test_inviting_by_email_writes_an_outbox_row_and_the_email_goes_out(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks, settings
):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.invite_by_email(game.pk, alice, "friend@example.org")
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["friend@example.org"]
    assert "Alice invites you" in message.subject
    assert f"/games/{game.pk}/join/{game.invite_code}/" in message.body
    html = html_body(message)
    assert f"/games/{game.pk}/join/{game.invite_code}/" in html
    with pytest.raises(GameError, match="already been invited"):
        lobby.invite_by_email(game.pk, alice, "friend@example.org")
    with pytest.raises(NotAllowed):
        lobby.invite_by_email(game.pk, bob, "x@example.org")
