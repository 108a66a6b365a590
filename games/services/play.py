"""What a move does: a player's, a bot's, or one made for a player whose time ran out.

The game is locked, the state rebuilt from its moves, the engine asked whether the action is
legal; then one Move is appended (unique per game and turn), the summary on Game updated,
and the next turn announced (games/services/announce.py).

Issue 15: a move reads the game (locked) and its seats once each, and its moves' actions
once unless the cache holds the state after the last move (games/services/snapshots.py); the
summary and the game's new version are one UPDATE, and the outbox rows one INSERT (six
statements in all, five with the state from the cache; tests/games/test_move_queries.py).
"""

import logging
from datetime import timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import signals
from games.bots import choose_action, hat, hgroup
from games.engine import (
    Action,
    GameState,
    IllegalAction,
    action_from_dict,
    action_to_dict,
    takes_turn,
    view_for,
)
from games.errors import GameError, IllegalMove, NotAllowed, StaleMove
from games.models import BotKind, Game, MadeBy, Move, Seat
from games.services import announce, snapshots, versions
from lib.cache_failures import failing_cache_is_no_cache

log = logging.getLogger(__name__)


def submit_action(game_id: int, user: User, action: dict, expected_turn: int) -> Move:
    """Take one action for the user's seat; exactly one move is accepted per turn."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        seats = seats_of(game)
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
        if seat is None:
            raise NotAllowed("You are not playing in this game.")
        if not game.is_playing():
            raise GameError("This game is not being played: no move can be made.")
        if expected_turn != game.turn:
            raise StaleMove(
                "The game moved on since your page was loaded, so that move was not made. "
                "Here is the table as it is now."
            )
        if game.current_seat != seat.position:
            raise GameError("It is not your turn.")
        if seat.is_bot:
            raise GameError("A bot plays this seat now.")
        if seat.timeouts_in_a_row:
            seat.timeouts_in_a_row = 0
            seat.save(update_fields=["timeouts_in_a_row"])
        return apply_action(game, seat, action, MadeBy.PLAYER, seats=seats)


def bot_move(game_id: int, expected_turn: int) -> Move | None:
    """A bot seat's move, if it is still that bot's turn (safe to run twice)."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if not game.is_playing() or game.turn != expected_turn:
            return None
        seats = seats_of(game)
        seat = next(seat for seat in seats if seat.position == game.current_seat)
        if not seat.is_bot:
            return None
        state = snapshots.state_of(game)
        action, safe = bot_choice(game, seat, state, seats)
        return apply_action(
            game, seat, action, MadeBy.BOT, seats=seats, state=state, safe_reading=safe
        )


def seats_of(game: Game) -> list[Seat]:
    """A locked game's seats, with their users, in one query: a move reads them once and
    hands them to whatever needs them (the checks, the summary, announce)."""
    return list(game.seats.select_related("user").order_by("position"))


def bot_action(
    game: Game, seat: Seat, state: GameState | None = None, seats: list[Seat] | None = None
) -> Action:
    return bot_choice(game, seat, state, seats)[0]


def bot_choice(
    game: Game, seat: Seat, state: GameState | None = None, seats: list[Seat] | None = None
) -> tuple[Action, dict | None]:
    """The bot's action, and where an H-Group bot took the safe reading of a card of its own
    (games/bots/hgroup/safe.py, as Move.safe_reading keeps it; None for every other move)."""
    # The policy sees only the seat's own view (and which seats are bots, as the page shows
    # everyone): never a hidden card.
    if state is None:
        state = game.load_state()
    view = view_for(state, seat.position)
    if state.rearrangements:
        # The bots replay the history one turn per entry and ignore the hands' order (they
        # name cards by id): the free rearrangements of hands (an option) are left out.
        view["history"] = [entry for entry in view["history"] if entry["type"] != "rearrange"]
    if seat.user_id is None and seat.bot_kind == BotKind.EXPERT:
        return hat.choose_action(view), None
    if seat.user_id is None and seat.bot_kind == BotKind.HGROUP:
        decision = hgroup.decide(view, level=seat.bot_level)
        return decision.action, decision.safe.as_dict() if decision.safe else None
    return choose_action(view, house_bot_seats(game if seats is None else seats)), None


def house_bot_seats(seats_or_game: "Game | list[Seat]") -> list[int]:
    """The seats the house bot has played from the first move: its clues can be read by its
    conventions from the start (games/bots/README.md). Not a seat it took over from a person
    whose time ran out (they played before it), nor an expert bot's."""
    seats = seats_or_game if isinstance(seats_or_game, list) else seats_of(seats_or_game)
    return [
        seat.position
        for seat in seats
        if seat.is_bot and seat.user_id is None and seat.bot_kind == BotKind.HOUSE
    ]


def apply_action(
    game: Game,
    seat: Seat,
    action: dict | Action,
    made_by: str,
    *,
    seats: list[Seat] | None = None,
    state: GameState | None = None,
    safe_reading: dict | None = None,
) -> Move:
    """Apply one action to a locked game whose turn it is for `seat`, and record it.

    `seats` (the game's seats) and `state` (its state before the action) when the caller
    has read them already under the lock: they are not read again. `safe_reading`: where
    the H-Group bot making the move took the safe reading of its own card (bot_choice)."""
    if state is None:
        state = snapshots.state_of(game)
    try:
        if isinstance(action, dict):
            action = action_from_dict(action)
        if not takes_turn(action):
            # A rearrangement is no move (it takes no turn): games/services/rearrange.py.
            raise IllegalAction("rearranging one's hand is not a turn's move")
        state.apply(action)
    except IllegalAction as error:
        raise IllegalMove(f"That move is not allowed: {error.reason}.") from None
    move = Move.objects.create(
        game=game,
        turn=game.turn,
        seat=seat.position,
        action=action_to_dict(action),
        made_by=made_by,
        safe_reading=safe_reading,
    )
    store_summary(game, state)
    save_summary_and_bump(game)
    if game.is_finished():
        signals.game_finished.send(sender=Game, game=game, state=state, seats=seats)
    snapshots.keep_after_commit(game, state)
    announce.turn_changed(game, state, seats)
    return move


SUMMARY_FIELDS = [
    "turn",
    "current_seat",
    "score",
    "end",
    "status",
    "finished_at",
    "turn_started_at",
    "turn_deadline",
]


def store_summary(game: Game, state: GameState) -> None:
    """Copy what list pages and the sweep need from the engine's state onto the game."""
    now = timezone.now()
    game.turn = state.turn
    game.current_seat = state.current_seat
    game.score = state.score
    game.max_score = state.max_score
    game.turn_started_at = now
    game.turn_deadline = game.deadline_from(now)
    if state.is_over:
        game.end = str(state.end)
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.turn_deadline = None


def save_summary_and_bump(game: Game) -> int:
    """`game.save(update_fields=SUMMARY_FIELDS)` and `versions.bump(game)` in one statement:
    UPDATE … SET the summary, version = version + 1. Afterwards exactly as bump(): the new
    version is set on `game` and returned, and after the commit the cache and the open pages
    learn it (`versions.changed`)."""
    summary = {name: getattr(game, name) for name in SUMMARY_FIELDS}
    if not Game.objects.filter(pk=game.pk).update(**summary, version=F("version") + 1):
        raise Game.DoesNotExist(f"no game {game.pk}")
    # No need to read the new version back (bump() does): `game` was read under the row
    # lock that its move holds to the end (apply_action), and nothing in a move's
    # transaction raises the version before this, so it is the one read plus one.
    game.version += 1
    game_id, new_version = game.pk, game.version
    transaction.on_commit(lambda: versions.changed(game_id, new_version))
    return new_version


def reclaim_seat(game_id: int, user: User) -> Seat:
    """A player whose seat a bot took over (after timeouts) takes it back."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed("You are not playing in this game.")
        if not seat.is_bot:
            raise GameError("Nobody else plays your seat.")
        if not game.is_playing():
            raise GameError("This game is not being played.")
        seat.is_bot = False
        seat.timeouts_in_a_row = 0
        seat.save(update_fields=["is_bot", "timeouts_in_a_row"])
        versions.bump(game)
        if game.current_seat == seat.position:
            # The bot's move was scheduled; now the player is told instead.
            announce.your_turn(game)
    return seat


def set_muted(game_id: int, user: User, muted: bool) -> Seat:
    """Mute (or unmute) the emails of one game for one player."""
    with transaction.atomic():
        Game.objects.locked(game_id)  # after a move that holds the game, as every change
        seat = Seat.objects.filter(game_id=game_id, user=user).first()
        if seat is None:
            raise NotAllowed("You are not playing in this game.")
        seat.muted = muted
        seat.save(update_fields=["muted"])
        versions.bump(game_id)  # the player's own pages show the choice
    return seat


# A poll every few seconds would otherwise write every few seconds.
PRESENCE_WRITE_EVERY = timedelta(seconds=20)


def record_presence(game_id: int, user_id: int) -> None:
    """The player's game page is open (it polled): their turn emails can wait.

    Written to the database at most every PRESENCE_WRITE_EVERY per seat: the cache remembers
    the last write (so most polls write nothing, and query nothing); without a cache, the
    database's own condition keeps the rows from being rewritten each time."""
    key = f"game:{game_id}:presence:{user_id}"
    written_lately = False
    # Asked by every poll, so a cache that is down is not worth a warning each time: the
    # database's condition below keeps the write rare without it.
    with failing_cache_is_no_cache(
        log, "could not mark a presence in the cache", level=logging.DEBUG
    ):
        written_lately = not cache.add(key, True, PRESENCE_WRITE_EVERY.total_seconds())
    if written_lately:
        return
    now = timezone.now()
    Seat.objects.filter(game_id=game_id, user_id=user_id).exclude(
        last_seen_at__gt=now - PRESENCE_WRITE_EVERY
    ).update(last_seen_at=now)
