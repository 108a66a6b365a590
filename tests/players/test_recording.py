"""The figures are kept as each game ends, in the transaction that ends it: a game played to
its end through the services counts for its people (not its bots), a game ended by its
timeout policy counts as lost, and an aborted game counts for nobody."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games.engine import GameOptions
from games.models import Game, TimeoutPolicy
from games.services import clock, lobby, play
from moderation.services import abort
from players.models import GameRecord, PartnerStats, PlayerProfile, VariantStats
from players.stats import record_finished_game
from tests.conftest import make_moderator
from tests.games.conftest import play_to_the_end, start_game
from tests.players.helpers import finished_game, recount_from_games


def stored(user) -> dict:
    cells = {
        (s.variant, s.player_count): (
            s.played,
            s.won,
            s.total_score,
            s.best_score,
            s.perfect,
            s.strikeouts,
        )
        for s in VariantStats.objects.filter(user=user)
    }
    partners = {
        s.partner_id: (s.played, s.won, s.total_score, s.best_score)
        for s in PartnerStats.objects.filter(user=user)
    }
    profile = PlayerProfile.objects.filter(user=user).first()
    streaks = (profile.current_streak, profile.best_streak) if profile else (0, 0)
    return {"cells": cells, "partners": partners, "streaks": streaks}


@pytest.mark.django_db
def test_a_game_played_to_its_end_counts_for_each_of_its_players(alice, bob, carol):
    game = play_to_the_end(start_game(alice, bob, carol))
    assert game.is_finished()
    for user in (alice, bob, carol):
        assert stored(user) == recount_from_games(user)
        (cell,) = stored(user)["cells"].values()
        assert cell[0] == 1 and cell[2] == game.score
        record = GameRecord.objects.get(user=user)
        assert (record.game_id, record.score, record.end) == (game.pk, game.score, game.end)
    assert set(stored(alice)["partners"]) == {bob.pk, carol.pk}


@pytest.mark.django_db
def test_bots_are_not_players(alice):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    lobby.set_bot(game.pk, alice, 1, True)
    lobby.set_bot(game.pk, alice, 2, True)
    lobby.start_game(game.pk, alice)
    game = play_to_the_end_with_bots(game)
    assert stored(alice) == recount_from_games(alice)
    assert stored(alice)["partners"] == {}
    assert GameRecord.objects.filter(game=game).count() == 1
    assert VariantStats.objects.get(user=alice).played == 1


def play_to_the_end_with_bots(game: Game) -> Game:
    """Alice moves on her turns (the first legal action), the bots on theirs."""
    from games.engine import Discard, action_to_dict

    for _ in range(500):
        game.refresh_from_db()
        if not game.is_playing():
            return game
        seat = game.seats.get(position=game.current_seat)
        if seat.is_bot:
            play.bot_move(game.pk, game.turn)
            continue
        legal = game.load_state().legal_actions()
        choice = next((a for a in legal if isinstance(a, Discard)), legal[0])
        play.submit_action(game.pk, seat.user, action_to_dict(choice), game.turn)
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_a_game_ended_by_its_timeout_policy_counts_as_lost(alice, bob):
    game = start_game(alice, bob, turn_time_limit=12, timeout_policy=TimeoutPolicy.END_GAME)
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(minutes=1))
    assert clock.time_out(game.pk, game.turn)
    game.refresh_from_db()
    assert game.end == Game.TIMED_OUT
    for user in (alice, bob):
        assert stored(user) == recount_from_games(user)
        record = GameRecord.objects.get(user=user, game=game)
        assert (record.score, record.won, record.result_word) == (0, False, "timed out")


@pytest.mark.django_db
def test_an_aborted_game_counts_for_nobody(alice, bob):
    game = start_game(alice, bob)
    abort(game.pk, make_moderator("maud"), "a test")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    with transaction.atomic():
        record_finished_game(game)  # even if asked to
    assert not VariantStats.objects.exists()
    assert not GameRecord.objects.exists()


@pytest.mark.django_db
def test_a_won_game_and_a_lost_one_move_the_streaks(alice, bob):
    start = timezone.now()
    for n, score in enumerate([25, 25, 10, 25]):
        finished_game([alice, bob], score=score, finished_at=start + timedelta(minutes=n))
    profile = PlayerProfile.objects.get(user=alice)
    assert (profile.current_streak, profile.best_streak) == (1, 2)
    assert stored(alice) == recount_from_games(alice)


@pytest.mark.django_db
def test_a_move_that_fails_after_the_figures_leaves_them_unchanged(alice, bob):
    """The figures are written in the move's transaction: rolled back with it."""
    with pytest.raises(RuntimeError), transaction.atomic():
        finished_game([alice, bob])
        raise RuntimeError("the move failed after its summary")
    assert not VariantStats.objects.exists()
    assert not PlayerProfile.objects.exists()


@pytest.mark.django_db
def test_a_person_whose_seat_a_bot_took_over_still_played_the_game(alice, bob):
    game = finished_game([alice, bob], score=20, record=False)
    game.seats.filter(user=bob).update(is_bot=True)  # bob timed out too often
    with transaction.atomic():
        record_finished_game(game)
    assert stored(bob) == recount_from_games(bob)
    assert GameRecord.objects.filter(game=game).count() == 2
