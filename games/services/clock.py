"""Deadlines: the sweep's timeouts, pauses voted by the players, and more time.

A turn's deadline is an indexed column on Game (`turn_deadline`); no task waits in the
broker for it. The beat sweep (games/tasks.py) finds overdue games and applies their
timeout policy here, under the same lock as a move: a timeout and a move for the same turn
can never both land.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import signals
from games.errors import GameError, NotAllowed
from games.models import Game, MadeBy, TimeoutPolicy
from games.permissions import may_extend
from games.services import announce, snapshots, versions
from games.services.play import SUMMARY_FIELDS, apply_action, bot_action, seats_of

MAX_EXTENSION_HOURS = 24 * 7


def overdue_games(now: datetime, limit: int = 1000) -> list[tuple[int, int]]:
    """(game id, turn) of games whose turn deadline has passed: an index range scan."""
    return list(
        Game.objects.filter(status=Game.Status.PLAYING, turn_deadline__lte=now)
        .order_by("turn_deadline")
        .values_list("pk", "turn")[:limit]
    )


def time_out(game_id: int, expected_turn: int) -> bool:
    """Apply the game's timeout policy to a turn whose deadline has passed.

    Whichever of a move and a timeout comes second finds the turn over (or the deadline not
    passed) and does nothing. True if the policy was applied.
    """
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        now = timezone.now()
        if (
            not game.is_playing()
            or game.turn != expected_turn
            or game.turn_deadline is None
            or game.turn_deadline > now
        ):
            return False
        if game.timeout_policy == TimeoutPolicy.END_GAME:
            _end_timed_out(game)
            return True
        seats = seats_of(game)
        seat = next(seat for seat in seats if seat.position == game.current_seat)
        seat.timeouts_in_a_row += 1
        seat.is_bot = seat.is_bot or seat.timeouts_in_a_row >= settings.TIMEOUTS_BEFORE_BOT
        seat.save(update_fields=["timeouts_in_a_row", "is_bot"])
        state = snapshots.state_of(game)
        action = bot_action(game, seat, state, seats)
        apply_action(game, seat, action, MadeBy.TIMEOUT, seats=seats, state=state)
        return True


def _end_timed_out(game: Game) -> None:
    """End a game outside the rules: it scores 0, as on hanab.live."""
    game.status = Game.Status.FINISHED
    game.end = Game.TIMED_OUT
    game.score = 0
    game.finished_at = timezone.now()
    game.turn_deadline = None
    game.save(update_fields=SUMMARY_FIELDS)
    signals.game_finished.send(sender=Game, game=game, state=snapshots.state_of(game), seats=None)
    versions.bump(game)
    announce.game_over(game)


def vote_pause(game_id: int, user: User, wants_pause: bool = True) -> Game:
    """A player asks for a pause (or withdraws the request); when every player still at the
    table has asked, the game is paused: no deadline runs until someone resumes it."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        seat = game.seats.filter(user=user, is_bot=False).first()
        if seat is None:
            raise NotAllowed("Only a player at this table can ask for a pause.")
        if not game.is_playing():
            raise GameError("Only a game in play can be paused.")
        if not game.turn_time_limit:
            raise GameError("This game has no time limit: there is no clock to pause.")
        if game.is_paused():
            raise GameError("The game is already paused.")
        seat.wants_pause = wants_pause
        seat.save(update_fields=["wants_pause"])
        versions.bump(game)
        humans = game.seats.filter(is_bot=False, user__isnull=False)
        if not humans.filter(wants_pause=False).exists():
            pause_clock(game)
    return game


def pause_clock(game: Game) -> None:
    """Stop the clock of a locked game in play."""
    if not game.is_playing() or game.is_paused():
        raise GameError("Only a game in play, not paused, can be paused.")
    game.paused_at = timezone.now()
    game.turn_deadline = None
    game.save(update_fields=["paused_at", "turn_deadline"])
    versions.bump(game)


def resume(game_id: int, user: User) -> Game:
    """Any player resumes a paused game; the turn gets a fresh deadline."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if not game.seats.filter(user=user, is_bot=False).exists():
            raise NotAllowed("Only a player at this table can resume the game.")
        resume_clock(game)
    return game


def resume_clock(game: Game) -> None:
    """Restart the clock of a locked, paused game: the turn gets a fresh deadline."""
    if not game.is_paused():
        raise GameError("The game is not paused.")
    game.paused_at = None
    game.turn_started_at = timezone.now()
    game.turn_deadline = game.deadline_from(game.turn_started_at)
    game.save(update_fields=["paused_at", "turn_started_at", "turn_deadline"])
    game.seats.update(wants_pause=False)
    versions.bump(game)
    announce.reminder(game)


def extend_deadline(game_id: int, user: User, hours: int) -> Game:
    """The creator gives the current turn more time."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if not may_extend(user, game):
            if game.creator_id != user.pk:
                raise NotAllowed("Only the game's creator can give a turn more time.")
            raise GameError("This turn has no deadline to extend.")
        add_time(game, hours)
    return game


def add_time(game: Game, hours: int) -> None:
    """Move a locked game's deadline `hours` later, and its reminder with it."""
    if not 1 <= hours <= MAX_EXTENSION_HOURS:
        raise GameError("A deadline can be extended by 1 hour to 7 days.")
    if game.turn_deadline is None:
        raise GameError("This turn has no deadline to extend.")
    game.turn_deadline += timedelta(hours=hours)
    game.save(update_fields=["turn_deadline"])
    versions.bump(game)
    announce.reminder(game)
