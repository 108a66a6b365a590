"""Turn deadlines: stored on the game, shown to the players, and enforced by the sweep."""

import zoneinfo
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import dateformat, timezone

from games import tasks
from games.bots import choose_action
from games.engine import GameOptions, action_to_dict, new_deck, view_for
from games.errors import GameError
from games.models import Game, MadeBy, Move, Seat, TimeoutPolicy
from games.services import clock, lobby, play
from outbox import delivery
from outbox.models import Outbox
from tests.deadlines.conftest import (
    make_overdue,
    moves_of,
    outbox_rows,
    real_move,
    timed_game,
)
from tests.games.conftest import current_user, play_to_the_end, start_game

KOLKATA = zoneinfo.ZoneInfo("Asia/Kolkata")  # UTC+5:30: never the same clock time as UTC
UTC = zoneinfo.ZoneInfo("UTC")
SHOWN = "D j M, H:i"  # how the turn page and the lobby print a deadline


def shown(moment, zone) -> str:
    return dateformat.format(timezone.localtime(moment, zone), SHOWN)


def other_user(game: Game):
    game.refresh_from_db()
    return game.seats.exclude(position=game.current_seat).get().user


# -- the deadline is stored ----------------------------------------------------------------


def test_a_timed_game_gets_its_deadline_at_the_start_and_after_every_move(alice, bob):
    before = timezone.now()
    game = timed_game(alice, bob, hours=48)
    assert game.turn_started_at >= before
    assert game.turn_deadline == game.turn_started_at + timedelta(hours=48)
    starts = [game.turn_started_at]
    for turn in range(1, 6):
        real_move(game)
        assert game.turn == turn
        assert game.turn_deadline == game.turn_started_at + timedelta(hours=48)
        starts.append(game.turn_started_at)
    assert starts == sorted(starts) and starts[-1] > starts[0]  # each turn starts afresh


def test_the_deadline_is_set_by_the_start_not_by_the_creation(alice, bob):
    game = lobby.create_game(
        alice, GameOptions(players=2), Game.Visibility.INVITE, turn_time_limit=12
    )
    assert game.turn_deadline is None
    lobby.join_game(game.pk, bob, game.invite_code)
    lobby.start_game(game.pk, alice)
    game.refresh_from_db()
    assert game.turn_deadline == game.turn_started_at + timedelta(hours=12)


def test_a_game_without_a_limit_has_no_deadline(alice, bob):
    game = start_game(alice, bob)
    assert game.turn_time_limit is None
    assert game.turn_deadline is None
    real_move(game)
    assert game.turn_deadline is None
    assert clock.overdue_games(timezone.now() + timedelta(days=365)) == []


def test_the_end_of_the_game_clears_the_deadline(alice, bob):
    game = play_to_the_end(timed_game(alice, bob))
    assert game.is_finished()
    assert game.turn_deadline is None


def test_the_new_game_form_sets_the_limit_and_the_policy(client, alice):
    client.force_login(alice)
    form = {
        "players": "3",
        "multicolour": "0",
        "fuses": "3",
        "turn_time_limit": "168",
        "timeout_policy": TimeoutPolicy.END_GAME,
        "visibility": Game.Visibility.INVITE,
    }
    client.post("/games/new/", form)
    client.post("/games/new/", {**form, "turn_time_limit": ""})
    timed, untimed = Game.objects.filter(creator=alice).order_by("pk")
    assert (timed.turn_time_limit, timed.timeout_policy) == (168, TimeoutPolicy.END_GAME)
    assert untimed.turn_time_limit is None


# -- the deadline is shown -----------------------------------------------------------------


def test_the_turn_page_and_the_lobby_show_the_deadline_in_the_viewers_time_zone(client, alice, bob):
    game = timed_game(alice, bob)
    mover, waiting = current_user(game), other_user(game)
    mover.time_zone = "Asia/Kolkata"
    mover.save(update_fields=["time_zone"])
    in_kolkata, in_utc = shown(game.turn_deadline, KOLKATA), shown(game.turn_deadline, UTC)
    assert in_kolkata != in_utc

    client.force_login(mover)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "until <time datetime=" in page
    assert in_kolkata in page and in_utc not in page
    assert timezone.localtime(game.turn_deadline, KOLKATA).isoformat() in page
    lobby = client.get("/").content.decode()
    assert f"until {in_kolkata}" in lobby and in_utc not in lobby

    client.force_login(waiting)  # time zone left at UTC
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert in_utc in page and in_kolkata not in page


def test_a_page_without_a_limit_shows_no_deadline(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(current_user(game))
    assert "Time to move" not in client.get(f"/games/{game.pk}/").content.decode()
    assert "until" not in client.get("/").content.decode()


# -- finding overdue games -----------------------------------------------------------------


def test_overdue_games_lists_only_playing_games_past_their_deadline(alice, bob, carol, mallory):
    now = timezone.now()

    def with_deadline(game: Game, deadline) -> Game:
        Game.objects.filter(pk=game.pk).update(turn_deadline=deadline)
        return game

    late = with_deadline(timed_game(alice, bob), now - timedelta(hours=2))
    later = with_deadline(timed_game(alice, carol), now - timedelta(hours=5))
    on_the_dot = with_deadline(timed_game(bob, carol), now)
    real_move(on_the_dot)
    with_deadline(on_the_dot, now)  # at turn 1: the pair says which turn timed out
    with_deadline(timed_game(alice, mallory), now + timedelta(seconds=1))  # not yet
    start_game(bob, mallory)  # no limit
    finished = with_deadline(timed_game(carol, mallory), now - timedelta(hours=1))
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    gathering = lobby.create_game(
        alice, GameOptions(players=2), Game.Visibility.PUBLIC, turn_time_limit=24
    )
    with_deadline(gathering, now - timedelta(hours=1))
    paused = timed_game(mallory, alice)
    for user in (mallory, alice):
        clock.vote_pause(paused.pk, user)

    assert clock.overdue_games(now) == [(later.pk, 0), (late.pk, 0), (on_the_dot.pk, 1)]
    assert clock.overdue_games(now, limit=1) == [(later.pk, 0)]


# -- the sweep: the bot's move ---------------------------------------------------------------


def test_the_sweep_makes_the_bots_move_for_the_absent_player(client, alice, bob):
    game = timed_game(alice, bob)
    absent, present = current_user(game), other_user(game)
    seat = game.current_seat
    expected = choose_action(view_for(game.load_state(), seat))
    make_overdue(game)

    assert tasks.sweep_deadlines() == 1

    assert moves_of(game) == [(0, MadeBy.TIMEOUT)]
    move = Move.objects.get(game=game)
    assert (move.seat, move.action) == (seat, action_to_dict(expected))
    game.refresh_from_db()
    assert game.turn == 1 and game.current_seat != seat
    assert game.turn_deadline == game.turn_started_at + timedelta(hours=24)
    assert game.turn_deadline > timezone.now()
    assert Seat.objects.get(game=game, user=absent).timeouts_in_a_row == 1
    assert not Seat.objects.get(game=game, user=absent).is_bot
    assert outbox_rows(game, "your_turn", turn=1).count() == 1  # the next player

    for viewer in (absent, present):
        client.force_login(viewer)
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert "time ran out, so a bot made this move" in page


def test_the_history_says_nothing_of_time_for_a_real_move(client, alice, bob):
    game = timed_game(alice, bob)
    real_move(game)
    client.force_login(alice)
    assert "time ran out" not in client.get(f"/games/{game.pk}/").content.decode()


def test_timeouts_in_a_row_are_counted_and_a_real_move_resets_them(alice, bob):
    game = timed_game(alice, bob)
    absent = current_user(game)
    seat = Seat.objects.get(game=game, user=absent)

    def time_out_then_other_moves() -> None:
        make_overdue(game)
        tasks.sweep_deadlines()
        real_move(game)  # the other player, in time

    time_out_then_other_moves()
    time_out_then_other_moves()
    seat.refresh_from_db()
    assert seat.timeouts_in_a_row == 2
    assert current_user(game) == absent

    real_move(game)  # the absent player is back
    seat.refresh_from_db()
    assert seat.timeouts_in_a_row == 0

    real_move(game)  # the other player
    time_out_then_other_moves()
    seat.refresh_from_db()
    assert (seat.timeouts_in_a_row, seat.is_bot) == (1, False)
    assert [made_by for _, made_by in moves_of(game)] == [
        MadeBy.TIMEOUT,
        MadeBy.PLAYER,
        MadeBy.TIMEOUT,
        MadeBy.PLAYER,
        MadeBy.PLAYER,
        MadeBy.PLAYER,
        MadeBy.TIMEOUT,
        MadeBy.PLAYER,
    ]


def test_timing_out_too_often_in_a_row_hands_the_seat_to_a_bot(client, alice, bob):
    game = timed_game(alice, bob)
    absent = current_user(game)
    seat = Seat.objects.get(game=game, user=absent)
    for count in range(1, settings.TIMEOUTS_BEFORE_BOT + 1):
        make_overdue(game)
        tasks.sweep_deadlines()
        seat.refresh_from_db()
        assert seat.timeouts_in_a_row == count
        assert seat.is_bot == (count == settings.TIMEOUTS_BEFORE_BOT)
        real_move(game)  # the other player
    assert [made_by for _, made_by in moves_of(game)][-2:] == [MadeBy.TIMEOUT, MadeBy.PLAYER]

    # The bot's turn: a bot move is scheduled instead of an email, and the player is out.
    bot_turn = game.turn
    assert game.current_seat == seat.position
    assert outbox_rows(game, "your_turn", turn=bot_turn).count() == 0
    row = outbox_rows(game, "bot_move", turn=bot_turn).get()
    try:
        play.submit_action(game.pk, absent, {"type": "play", "card_id": 0}, bot_turn)
    except GameError as error:
        assert "bot plays this seat" in str(error)
    else:
        raise AssertionError("a player replaced by a bot could still move")

    expected = choose_action(view_for(game.load_state(), seat.position))
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())  # its short delay is over
    assert delivery.run(row.pk) is True
    move = Move.objects.get(game=game, turn=bot_turn)
    assert (move.made_by, move.seat, move.action) == (
        MadeBy.BOT,
        seat.position,
        action_to_dict(expected),
    )
    game.refresh_from_db()
    assert game.turn == bot_turn + 1

    # Run twice (a redelivered task), or the service called again: nothing more happens.
    assert delivery.run(row.pk) is False
    assert play.bot_move(game.pk, bot_turn) is None
    assert Move.objects.filter(game=game).count() == bot_turn + 1

    client.force_login(absent)  # still at the table, watching the bot play
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "a bot&#x27;s move" in page or "a bot's move" in page
    assert f"{absent.display_name} (bot)" in page


def _a_bots_turn(game: Game):
    """Time the current player out until a bot takes their seat, then let the other player
    move: the bot's turn, its move scheduled but not yet made. The replaced player."""
    absent = current_user(game)
    for _ in range(settings.TIMEOUTS_BEFORE_BOT):
        make_overdue(game)
        tasks.sweep_deadlines()
        real_move(game)
    assert current_user(game) == absent
    assert Seat.objects.get(game=game, user=absent).is_bot
    return absent


def test_a_player_replaced_by_a_bot_is_not_told_it_is_their_turn(client, alice, bob):
    game = timed_game(alice, bob)
    replaced = _a_bots_turn(game)
    client.force_login(replaced)
    lobby = client.get("/").content.decode()
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Your turn" not in lobby
    assert "It is your turn" not in page and "(Your turn)" not in page
    assert 'name="kind"' not in page  # no move form


# -- the sweep: the game ends --------------------------------------------------------------


def _seed_where_the_first_player_holds_a_one() -> int:
    options = GameOptions(players=2)
    for seed in range(1, 1000):
        if any(card.rank == 1 for card in new_deck(options, seed)[:5]):
            return seed
    raise AssertionError("no such seed")


def test_the_end_game_policy_ends_the_game_timed_out_with_score_zero(client, alice, bob):
    seed = _seed_where_the_first_player_holds_a_one()
    game = timed_game(alice, bob, policy=TimeoutPolicy.END_GAME, seed=seed)
    state = game.load_state()
    one = next(cid for cid in state.hand(0) if state.card(cid).rank == 1)
    play.submit_action(game.pk, current_user(game), {"type": "play", "card_id": one}, 0)
    game.refresh_from_db()
    assert game.score == 1
    make_overdue(game)

    assert tasks.sweep_deadlines() == 1

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end == Game.TIMED_OUT == "timed_out"
    assert game.score == 0
    assert game.finished_at is not None and game.turn_deadline is None
    assert moves_of(game) == [(0, MadeBy.PLAYER)]  # no move for the turn that timed out
    over = Outbox.objects.filter(kind="game_over", payload__game=game.pk)
    assert sorted(over.values_list("payload__user", flat=True)) == sorted([alice.pk, bob.pk])

    client.force_login(bob)
    response = client.get(f"/games/{game.pk}/", follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/replay/1/"
    page = response.content.decode()
    assert "Final score: 0 / 25" in page
    assert "Time ran out on a turn, and the game ended: it scores 0." in page


# -- what the sweep leaves alone -----------------------------------------------------------


def test_a_game_that_is_not_overdue_is_untouched(alice, bob, carol):
    games = [
        timed_game(alice, bob),
        timed_game(alice, carol, policy=TimeoutPolicy.END_GAME),
    ]
    for game in games:  # a minute left
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() + timedelta(minutes=1))
    before = [Game.objects.filter(pk=game.pk).values().get() for game in games]

    assert tasks.sweep_deadlines() == 0
    for game in games:
        assert clock.time_out(game.pk, 0) is False

    assert [Game.objects.filter(pk=game.pk).values().get() for game in games] == before
    assert not Move.objects.filter(game__in=games).exists()
    assert not Seat.objects.filter(game__in=games, timeouts_in_a_row__gt=0).exists()
    assert not Outbox.objects.filter(kind="game_over").exists()


def test_a_move_that_beats_the_sweep_wins_and_the_sweep_then_does_nothing(alice, bob):
    game = timed_game(alice, bob)
    make_overdue(game)
    overdue = clock.overdue_games(timezone.now())
    assert overdue == [(game.pk, 0)]
    real_move(game)  # late, but before the sweep got to it
    make_overdue(game)  # and even if the new turn were overdue too

    for game_id, turn in overdue:  # what a sweep that read the list earlier would do
        assert clock.time_out(game_id, turn) is False
    assert moves_of(game) == [(0, MadeBy.PLAYER)]


def test_sweeping_twice_applies_the_policy_once(alice, bob, carol):
    moving = timed_game(alice, bob)
    ending = timed_game(alice, carol, policy=TimeoutPolicy.END_GAME)
    make_overdue(moving)
    make_overdue(ending)

    assert tasks.sweep_deadlines() == 2
    assert tasks.sweep_deadlines() == 0
    for game_id, turn in [(moving.pk, 0), (ending.pk, 0)]:  # a sweep that overlapped
        assert clock.time_out(game_id, turn) is False

    assert moves_of(moving) == [(0, MadeBy.TIMEOUT)]
    assert sum(Seat.objects.filter(game=moving).values_list("timeouts_in_a_row", flat=True)) == 1
    moving.refresh_from_db()
    assert moving.turn == 1
    assert outbox_rows(moving, "your_turn", turn=1).count() == 1
    ending.refresh_from_db()
    assert (ending.status, ending.end) == (Game.Status.FINISHED, Game.TIMED_OUT)
    assert outbox_rows(ending, "game_over").count() == 2
    assert not Move.objects.filter(game=ending).exists()


def test_a_replaced_player_takes_the_seat_back_and_is_told_it_is_their_turn(client, alice, bob):
    game = timed_game(alice, bob)
    replaced = _a_bots_turn(game)
    client.force_login(replaced)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "A bot plays your seat now" in page
    response = client.post(f"/games/{game.pk}/reclaim/", follow=True)
    assert "Your seat is yours again" in response.content.decode()
    assert "It is your turn" in response.content.decode()
    seat = Seat.objects.get(game=game, user=replaced)
    assert not seat.is_bot and seat.timeouts_in_a_row == 0
    assert Outbox.objects.filter(kind="your_turn", payload__turn=game.turn, done_at=None).exists()
    # The bot's scheduled move no longer applies.
    bot_row = Outbox.objects.filter(kind="bot_move", done_at=None).first()
    if bot_row:
        delivery.run(bot_row.pk)
    game.refresh_from_db()
    assert current_user(game) == replaced


def test_a_game_without_a_time_limit_cannot_be_paused(alice, bob):
    game = start_game(alice, bob)
    with pytest.raises(GameError, match="no time limit"):
        clock.vote_pause(game.pk, alice)
