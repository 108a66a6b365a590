"""Which outbox rows each change to a game writes, and with what delay: the one place that
says which email (or bot move, or analysis) goes out when. The rows are written in the
caller's transaction and carried out after it commits (outbox/delivery.py); what each row
does is in games/emails.py, games/tasks.py and games/hindsight.py."""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games import outbox_kinds
from games.engine import GameState
from games.models import Game, Invitation, Seat
from outbox.delivery import batched, schedule


def notify_delay() -> timedelta:
    """How long a your-turn email waits, so that a player looking at the game gets none."""
    return timedelta(seconds=settings.NOTIFY_DELAY_SECONDS)


def bot_delay() -> timedelta:
    """A short pause before a bot moves, so that people see its move arrive, not a jump."""
    return timedelta(seconds=settings.BOT_MOVE_DELAY_SECONDS)


def turn_changed(game: Game, state: GameState, seats: list[Seat] | None = None) -> None:
    """A new turn (or the end): the next player's email and reminder, or the bot's move,
    written in one INSERT. `seats`: the game's seats, when the caller has them already (a
    move read them under the lock), so that they are not read again."""
    with batched():
        if game.is_finished():
            game_over(game, seats)
            return
        if seats is None:
            seat = game.seats.get(position=game.current_seat)
        else:
            seat = next(seat for seat in seats if seat.position == game.current_seat)
        if seat.is_bot:
            bot_to_move(game, delay=bot_delay())
            return
        your_turn(game)
        reminder(game)


def your_turn(game: Game, delay: timedelta | None = None) -> None:
    """The your-turn email to the player of the current seat (by default after notify_delay:
    none is sent while their page is open)."""
    payload = {"game": game.pk, "turn": game.turn}
    schedule(outbox_kinds.YOUR_TURN, payload, delay=notify_delay() if delay is None else delay)


def bot_to_move(game: Game, delay: timedelta = timedelta(0)) -> None:
    schedule(outbox_kinds.BOT_MOVE, {"game": game.pk, "turn": game.turn}, delay=delay)


def reminder(game: Game) -> None:
    """A reminder before the turn's deadline: a quarter of the time limit before it, at most
    12 hours. A row whose deadline has moved since (paused, extended) sends nothing."""
    if game.turn_deadline is None:
        return
    lead = min(timedelta(hours=game.turn_time_limit) / 4, timedelta(hours=12))
    payload = {"game": game.pk, "turn": game.turn, "deadline": game.turn_deadline.isoformat()}
    delay = max(game.turn_deadline - lead - timezone.now(), timedelta(0))
    schedule(outbox_kinds.REMINDER, payload, delay=delay)


def game_over(game: Game, seats: list[Seat] | None = None) -> None:
    """The deal's hindsight analysis, and a game-over email to each person who played (the
    rows in one INSERT; `seats` as in turn_changed)."""
    if seats is None:
        people = game.seats.filter(user__isnull=False, is_bot=False)
    else:
        people = [seat for seat in seats if seat.user_id is not None and not seat.is_bot]
    with batched():
        schedule(outbox_kinds.ANALYSIS, {"game": game.pk}, dedupe_key=str(game.pk))
        for seat in people:
            schedule(
                outbox_kinds.GAME_OVER,
                {"game": game.pk, "user": seat.user_id},
                dedupe_key=f"{game.pk}:{seat.user_id}",
            )


def invitation(invitation: Invitation) -> None:
    schedule(outbox_kinds.INVITATION, {"invitation": invitation.pk})


def daily_digest(user_id: int, day: str) -> bool:
    """One digest a day at most for each person; False if today's was already written."""
    row = schedule(outbox_kinds.DIGEST, {"user": user_id}, dedupe_key=f"{user_id}:{day}")
    return row is not None
