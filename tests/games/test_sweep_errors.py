"""The deadline sweep (games/tasks.py sweep_deadlines) when timing out one game fails: the
error is logged, the other overdue games are timed out all the same, the failing game is
left as it was (its transaction rolled back) and the next sweep times it out."""

import logging
from datetime import timedelta

from django.utils import timezone

from games import tasks
from games.models import Game, MadeBy, Seat
from games.services import clock
from tests.deadlines.conftest import make_overdue, moves_of, timed_game


def test_a_timeout_that_fails_is_logged_and_retried_and_the_others_go_ahead(
    alice, bob, carol, mallory, monkeypatch, caplog
):
    failing = timed_game(alice, bob)
    others = [timed_game(alice, carol, seed=5), timed_game(bob, mallory, seed=6)]
    # The failing game is the most overdue: the sweep meets it first.
    make_overdue(failing, by=timedelta(minutes=3))
    for minutes, game in enumerate(others, start=1):
        make_overdue(game, by=timedelta(minutes=minutes))
    assert [game_id for game_id, _ in clock.overdue_games(timezone.now())] == [
        failing.pk,
        *(game.pk for game in reversed(others)),
    ]

    real_apply_action = clock.apply_action

    def apply_action(game, *args, **kwargs):
        # Fails after time_out has counted the timeout on the seat: that must roll back too.
        if game.pk == failing.pk:
            raise RuntimeError("the engine choked")
        return real_apply_action(game, *args, **kwargs)

    monkeypatch.setattr(clock, "apply_action", apply_action)
    failing_before = Game.objects.filter(pk=failing.pk).values().get()
    with caplog.at_level(logging.ERROR, logger="games.tasks"):
        assert tasks.sweep_deadlines() == 2

    (record,) = [r for r in caplog.records if r.name == "games.tasks"]
    assert record.levelno == logging.ERROR
    assert record.getMessage() == (
        f"timeout of game {failing.pk} turn 0 failed; the next sweep retries"
    )
    assert isinstance(record.exc_info[1], RuntimeError)
    assert "the engine choked" in caplog.text  # with its traceback

    for game in others:
        assert moves_of(game) == [(0, MadeBy.TIMEOUT)]
        game.refresh_from_db()
        assert game.turn == 1 and game.turn_deadline > timezone.now()
    assert moves_of(failing) == []
    assert Game.objects.filter(pk=failing.pk).values().get() == failing_before
    assert not Seat.objects.filter(game=failing, timeouts_in_a_row__gt=0).exists()
    assert clock.overdue_games(timezone.now()) == [(failing.pk, 0)]

    # Fixed (or the trouble passed): the next sweep times it out, and only it.
    monkeypatch.setattr(clock, "apply_action", real_apply_action)
    caplog.clear()
    assert tasks.sweep_deadlines() == 1
    assert moves_of(failing) == [(0, MadeBy.TIMEOUT)]
    assert Seat.objects.get(game=failing, position=failing.current_seat).timeouts_in_a_row == 1
    for game in others:
        assert moves_of(game) == [(0, MadeBy.TIMEOUT)]
    assert not [r for r in caplog.records if r.name == "games.tasks"]
    assert clock.overdue_games(timezone.now()) == []
