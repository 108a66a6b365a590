"""The only code that changes a game.

Each function runs in one transaction that locks the game row (`select_for_update`), so
that two requests about the same game (a double click, two tabs, a move racing the
deadline sweep) are applied one after the other and never both. Rules are asked of the
engine; nothing here re-implements one. Side effects go through the outbox.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import outbox
from games.bots import choose_action
from games.engine import (
    Action,
    GameOptions,
    GameState,
    IllegalAction,
    action_from_dict,
    action_to_dict,
    end_text,
    rating_word,
    replay,
    seating_order,
    view_for,
)
from games.models import (
    ChatMessage,
    ChatPolicy,
    Game,
    Invitation,
    MadeBy,
    ModeratorAction,
    Move,
    Outbox,
    Report,
    Seat,
    TimeoutPolicy,
)


class GameError(Exception):
    """A request the game cannot take; the message is for the player."""


class NotAllowed(GameError):
    """The user has no right to do this to this game."""


class StaleMove(GameError):
    """The page the move came from is out of date: the game has moved on."""


class IllegalMove(GameError):
    """The rules do not allow this action now."""


# -- reading --------------------------------------------------------------------------------


def load_state(game: Game, moves: list[Move] | None = None) -> GameState:
    """The engine's state of a started game, rebuilt from its options, deck and moves."""
    if moves is None:
        moves = list(game.moves.order_by("turn"))
    return replay(game.game_options, game.deck_source, [move.action for move in moves])


def seat_names(game: Game) -> list[str]:
    """Display names by seat position."""
    return [seat.name for seat in game.seats.select_related("user").order_by("position")]


def outcome(state: GameState, end: str = "") -> dict:
    """The final score, its rating word and how the game ended, in words. `end` is the
    game's recorded ending, which may be one the rules do not know (a timeout)."""
    if end == Game.TIMED_OUT:
        score, text = 0, "Time ran out on a turn, and the game ended: it scores 0."
    else:
        score, text = state.score, end_text(state)
    return {
        "score": score,
        "max_score": state.max_score,
        "rating": rating_word(score, state.options),
        "text": text,
    }


def games_waiting_on(user: User):
    """Games in play whose current turn is this user's."""
    return Game.objects.filter(
        status=Game.Status.PLAYING,
        seats__user=user,
        seats__is_bot=False,
        seats__position=F("current_seat"),
    ).order_by("turn_deadline", "pk")


def seat_of(game: Game, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


# -- before the start -----------------------------------------------------------------------


def _locked(game_id: int) -> Game:
    """The game, locked until the transaction ends. Callers run inside transaction.atomic."""
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameError("There is no such game.") from None


def create_game(
    creator: User,
    options: GameOptions,
    visibility: str,
    turn_time_limit: int | None = None,
    timeout_policy: str = TimeoutPolicy.AUTO_MOVE,
    bots: int = 0,
    chat_policy: str = ChatPolicy.AFTER,
) -> Game:
    """A new open game with the creator in the first seat, `bots` bots in the last seats,
    and the other seats empty."""
    if not 0 <= bots < options.players:
        raise GameError("Leave at least one seat for a person.")
    with transaction.atomic():
        game = Game.objects.create(
            options=options.to_dict(),
            visibility=visibility,
            creator=creator,
            max_score=options.max_score,
            turn_time_limit=turn_time_limit,
            timeout_policy=timeout_policy,
            chat_policy=chat_policy,
        )
        first_bot = options.players - bots
        Seat.objects.bulk_create(
            Seat(
                game=game,
                position=position,
                user=creator if position == 0 else None,
                is_bot=position >= first_bot,
            )
            for position in range(options.players)
        )
    return game


def join_game(game_id: int, user: User, invite_code: str = "") -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if not game.is_open():
            raise GameError("This game has already started; you can no longer join it.")
        if game.visibility == Game.Visibility.INVITE and invite_code != game.invite_code:
            raise NotAllowed("This game is by invitation only; ask for the invitation link.")
        if game.seats.filter(user=user).exists():
            raise GameError("You already have a seat at this table.")
        seat = game.seats.filter(user=None, is_bot=False).order_by("position").first()
        if seat is None:
            raise GameError("Every seat at this table is taken.")
        seat.user = user
        seat.save(update_fields=["user"])
    return game


def leave_game(game_id: int, user: User) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if not game.is_open():
            raise GameError("The game has started: you can no longer leave it.")
        if game.creator_id == user.pk:
            raise GameError("You created this game: cancel it instead of leaving.")
        updated = game.seats.filter(user=user).update(user=None)
        if not updated:
            raise GameError("You have no seat at this table.")
    return game


def set_bot(game_id: int, user: User, position: int, bot: bool) -> Game:
    """The creator puts a bot in an empty seat before the start, or takes it away."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.creator_id != user.pk:
            raise NotAllowed("Only the person who created the game can seat bots.")
        if not game.is_open():
            raise GameError("Bots can be seated only before the game starts.")
        seat = game.seats.filter(position=position, user=None).first()
        if seat is None:
            raise GameError("That seat is taken by a player.")
        if seat.is_bot == bot:
            raise GameError("A bot already sits there." if bot else "No bot sits there.")
        seat.is_bot = bot
        seat.save(update_fields=["is_bot"])
    return game


def abort_game(game_id: int, user: User) -> Game:
    """The creator cancels a game that has not started."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.creator_id != user.pk:
            raise NotAllowed("Only the person who created the game can cancel it.")
        if not game.is_open():
            raise GameError("Only a game that has not started can be cancelled.")
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
    return game


def start_game(game_id: int, user: User) -> Game:
    """Shuffle the players into their seats (from the game's seed) and start."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.creator_id != user.pk:
            raise NotAllowed("Only the person who created the game can start it.")
        if not game.is_open():
            raise GameError("This game has already started.")
        seats = list(game.seats.order_by("position"))
        if any(seat.user_id is None and not seat.is_bot for seat in seats):
            raise GameError("Every seat must be taken before the game can start.")
        if all(seat.is_bot for seat in seats):
            raise GameError("At least one person must play.")
        by_joining = [(seat.user_id, seat.is_bot) for seat in seats]
        order = seating_order(game.seed, len(seats))
        for seat, source in zip(seats, order, strict=True):
            seat.user_id, seat.is_bot = by_joining[source]
        # Clear the users first: the (game, user) constraint must hold after each update.
        Seat.objects.filter(game=game).update(user=None)
        Seat.objects.bulk_update(seats, ["user", "is_bot"])
        state = load_state(game, moves=[])
        game.status = Game.Status.PLAYING
        game.started_at = timezone.now()
        _store_summary(game, state)
        game.save()
        _notify_turn_change(game, state)
    return game


def invite_by_email(game_id: int, inviter: User, email: str) -> Invitation:
    email = User.objects.normalize_email(email).strip()
    with transaction.atomic():
        game = _locked(game_id)
        if not game.seats.filter(user=inviter).exists():
            raise NotAllowed("Only a player at this table can invite others.")
        if not game.is_open():
            raise GameError("This game has already started.")
        try:
            with transaction.atomic():
                invitation = Invitation.objects.create(game=game, email=email, invited_by=inviter)
        except IntegrityError:
            raise GameError(f"{email} has already been invited to this game.") from None
        outbox.schedule(Outbox.Kind.INVITATION, {"invitation": invitation.pk})
    return invitation


# -- playing --------------------------------------------------------------------------------


def submit_action(game_id: int, user: User, action: dict, expected_turn: int) -> Move:
    """Take one action for the user's seat; exactly one move is accepted per turn."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = game.seats.filter(user=user).first()
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
        return _apply(game, seat, action, MadeBy.PLAYER)


def _apply(game: Game, seat: Seat, action: dict | Action, made_by: str) -> Move:
    """Apply one action to a locked game whose turn it is for `seat`, and record it."""
    state = load_state(game)
    try:
        if isinstance(action, dict):
            action = action_from_dict(action)
        state.apply(action)
    except IllegalAction as error:
        raise IllegalMove(f"That move is not allowed: {error.reason}.") from None
    move = Move.objects.create(
        game=game,
        turn=game.turn,
        seat=seat.position,
        action=action_to_dict(action),
        made_by=made_by,
    )
    _store_summary(game, state)
    game.save(update_fields=SUMMARY_FIELDS)
    _notify_turn_change(game, state)
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


def _store_summary(game: Game, state: GameState) -> None:
    now = timezone.now()
    game.turn = state.turn
    game.current_seat = state.current_seat
    game.score = state.score
    game.max_score = state.max_score
    game.turn_started_at = now
    game.turn_deadline = _deadline(game, now)
    if state.is_over:
        game.end = str(state.end)
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.turn_deadline = None


def _deadline(game: Game, start: datetime) -> datetime | None:
    if not game.turn_time_limit or game.is_paused():
        return None
    return start + timedelta(hours=game.turn_time_limit)


def _finish(game: Game, end: str) -> None:
    """End a game outside the rules (a timeout): it scores 0, as on hanab.live."""
    game.status = Game.Status.FINISHED
    game.end = end
    game.score = 0
    game.finished_at = timezone.now()
    game.turn_deadline = None
    game.save(update_fields=SUMMARY_FIELDS)
    _notify_game_over(game)


# -- notifications --------------------------------------------------------------------------


def _notify_turn_change(game: Game, state: GameState) -> None:
    """Outbox rows for what the new turn needs: an email (or a bot's move), a reminder."""
    if game.is_finished():
        _notify_game_over(game)
        return
    seat = game.seats.get(position=game.current_seat)
    payload = {"game": game.pk, "turn": game.turn}
    if seat.is_bot:
        # A short pause, so that people see the bot's move arrive rather than a jump.
        bot_delay = timedelta(seconds=settings.BOT_MOVE_DELAY_SECONDS)
        outbox.schedule(Outbox.Kind.BOT_MOVE, payload, delay=bot_delay)
        return
    outbox.schedule(Outbox.Kind.YOUR_TURN, payload, delay=notify_delay())
    _schedule_reminder(game)


def _schedule_reminder(game: Game) -> None:
    if game.turn_deadline is None:
        return
    lead = min(timedelta(hours=game.turn_time_limit) / 4, timedelta(hours=12))
    payload = {"game": game.pk, "turn": game.turn, "deadline": game.turn_deadline.isoformat()}
    delay = max(game.turn_deadline - lead - timezone.now(), timedelta(0))
    outbox.schedule(Outbox.Kind.REMINDER, payload, delay=delay)


def _notify_game_over(game: Game) -> None:
    # The deal's hindsight analysis is a side effect of the ending like the emails.
    outbox.schedule(Outbox.Kind.ANALYSIS, {"game": game.pk}, dedupe_key=str(game.pk))
    for seat in game.seats.filter(user__isnull=False, is_bot=False):
        outbox.schedule(
            Outbox.Kind.GAME_OVER,
            {"game": game.pk, "user": seat.user_id},
            dedupe_key=f"{game.pk}:{seat.user_id}",
        )


def notify_delay() -> timedelta:
    """How long a your-turn email waits, so that a player looking at the game gets none."""
    return timedelta(seconds=settings.NOTIFY_DELAY_SECONDS)


def record_presence(game_id: int, user: User) -> None:
    """The player's game page is open (it polled): their turn emails can wait."""
    now = timezone.now()
    Seat.objects.filter(game_id=game_id, user=user).exclude(
        last_seen_at__gt=now - PRESENCE_WRITE_EVERY
    ).update(last_seen_at=now)


# A poll every few seconds would otherwise write every few seconds.
PRESENCE_WRITE_EVERY = timedelta(seconds=20)


# -- deadlines, pauses, bots ----------------------------------------------------------------


def overdue_games(now: datetime, limit: int = 1000) -> list[tuple[int, int]]:
    """(game id, turn) of games whose turn deadline has passed: an index range scan."""
    return list(
        Game.objects.filter(status=Game.Status.PLAYING, turn_deadline__lte=now)
        .order_by("turn_deadline")
        .values_list("pk", "turn")[:limit]
    )


def time_out(game_id: int, expected_turn: int) -> bool:
    """Apply the game's timeout policy to a turn whose deadline has passed.

    Locks the game like a move does, so a move and a timeout for the same turn can never
    both land: whichever comes second finds the turn over (or the deadline not passed) and
    does nothing. True if the policy was applied.
    """
    with transaction.atomic():
        game = _locked(game_id)
        now = timezone.now()
        if (
            not game.is_playing()
            or game.turn != expected_turn
            or game.turn_deadline is None
            or game.turn_deadline > now
        ):
            return False
        if game.timeout_policy == TimeoutPolicy.END_GAME:
            _finish(game, Game.TIMED_OUT)
            return True
        seat = game.seats.get(position=game.current_seat)
        seat.timeouts_in_a_row += 1
        seat.is_bot = seat.is_bot or seat.timeouts_in_a_row >= settings.TIMEOUTS_BEFORE_BOT
        seat.save(update_fields=["timeouts_in_a_row", "is_bot"])
        _apply(game, seat, _bot_action(game, seat), MadeBy.TIMEOUT)
        return True


def bot_move(game_id: int, expected_turn: int) -> Move | None:
    """A bot seat's move, if it is still that bot's turn (safe to run twice)."""
    with transaction.atomic():
        game = _locked(game_id)
        if not game.is_playing() or game.turn != expected_turn:
            return None
        seat = game.seats.get(position=game.current_seat)
        if not seat.is_bot:
            return None
        return _apply(game, seat, _bot_action(game, seat), MadeBy.BOT)


def _bot_action(game: Game, seat: Seat) -> Action:
    # The policy sees only the seat's own view: never a hidden card.
    return choose_action(view_for(load_state(game), seat.position))


def vote_pause(game_id: int, user: User, wants_pause: bool = True) -> Game:
    """A player asks for a pause (or withdraws the request); when every player still at the
    table has asked, the game is paused: no deadline runs until someone resumes it."""
    with transaction.atomic():
        game = _locked(game_id)
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
        humans = game.seats.filter(is_bot=False, user__isnull=False)
        if not humans.filter(wants_pause=False).exists():
            game.paused_at = timezone.now()
            game.turn_deadline = None
            game.save(update_fields=["paused_at", "turn_deadline"])
    return game


def resume(game_id: int, user: User) -> Game:
    """Any player resumes a paused game; the turn gets a fresh deadline."""
    with transaction.atomic():
        game = _locked(game_id)
        if not game.seats.filter(user=user, is_bot=False).exists():
            raise NotAllowed("Only a player at this table can resume the game.")
        _resume(game)
    return game


def _resume(game: Game) -> None:
    if not game.is_paused():
        raise GameError("The game is not paused.")
    game.paused_at = None
    game.turn_started_at = timezone.now()
    game.turn_deadline = _deadline(game, game.turn_started_at)
    game.save(update_fields=["paused_at", "turn_started_at", "turn_deadline"])
    game.seats.update(wants_pause=False)
    _schedule_reminder(game)


def reclaim_seat(game_id: int, user: User) -> Seat:
    """A player whose seat a bot took over (after timeouts) takes it back."""
    with transaction.atomic():
        game = _locked(game_id)
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
        if game.current_seat == seat.position:
            # The bot's move was scheduled; now the player is told instead.
            outbox.schedule(
                Outbox.Kind.YOUR_TURN, {"game": game.pk, "turn": game.turn}, delay=notify_delay()
            )
    return seat


def set_muted(game_id: int, user: User, muted: bool) -> Seat:
    """Mute (or unmute) the emails of one game for one player."""
    seat = Seat.objects.filter(game_id=game_id, user=user).first()
    if seat is None:
        raise NotAllowed("You are not playing in this game.")
    seat.muted = muted
    seat.save(update_fields=["muted"])
    return seat


def extend_deadline(game_id: int, user: User, hours: int, reason: str = "") -> Game:
    """The creator or a moderator gives the current turn more time."""
    if not 1 <= hours <= 24 * 7:
        raise GameError("A deadline can be extended by 1 hour to 7 days.")
    with transaction.atomic():
        game = _locked(game_id)
        by_creator = game.creator_id == user.pk
        if not by_creator and not is_moderator(user):
            raise NotAllowed("Only the game's creator or a moderator can extend a deadline.")
        if game.turn_deadline is None:
            raise GameError("This turn has no deadline to extend.")
        game.turn_deadline += timedelta(hours=hours)
        game.save(update_fields=["turn_deadline"])
        _schedule_reminder(game)
        if not by_creator:
            _audit(user, "extend", f"extended the deadline by {hours} hours", reason, game=game)
    return game


# -- chat and reports -----------------------------------------------------------------------

MAX_MESSAGE = 500


def post_message(game_id: int, user: User, text: str) -> ChatMessage:
    """A player writes at the table, when the game's chat policy allows it."""
    text = " ".join(text.split())
    if not text:
        raise GameError("Write something first.")
    if len(text) > MAX_MESSAGE:
        raise GameError(f"A message has at most {MAX_MESSAGE} characters.")
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.seats.filter(user=user).exists():
        raise NotAllowed("Only the players of a game can write in its chat.")
    if not game.chat_open():
        raise GameError("This table keeps quiet during play: the chat opens when the game ends.")
    return ChatMessage.objects.create(game=game, author=user, text=text)


def report(
    game_id: int,
    reporter: User,
    reason: str,
    message_id: int | None = None,
    reported_user_id: int | None = None,
) -> Report:
    """A player asks the moderators to look at a message, a player or the game itself."""
    reason = reason.strip()
    if not reason:
        raise GameError("Say what is wrong, so that a moderator can act on it.")
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.seats.filter(user=reporter).exists():
        raise NotAllowed("Only the players of a game can report something in it.")
    message = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, game=game).first()
        if message is None:
            raise GameError("There is no such message in this game.")
        reported_user_id = message.author_id
    if reported_user_id == reporter.pk:
        raise GameError("You cannot report yourself.")
    if reported_user_id is not None and not game.seats.filter(user_id=reported_user_id).exists():
        raise GameError("That person does not play in this game.")
    return Report.objects.create(
        reporter=reporter,
        game=game,
        message=message,
        reported_user_id=reported_user_id,
        reason=reason[:1000],
    )


# -- moderation -----------------------------------------------------------------------------
# Every moderator action is checked here, done under the same locks as a player's move, and
# written to the audit log; players see it in the game's history.


def is_moderator(user: User) -> bool:
    return user.is_active and user.has_perm("games.moderate_game")


def may_inspect(user: User, game: Game) -> bool:
    """May this person see every card of the game? Moderators may, except in a game they
    are playing: a seat at the table hides your own cards from you, whatever your role."""
    if not is_moderator(user):
        return False
    return game.is_finished() or not game.seats.filter(user=user).exists()


def _require_moderator(user: User, reason: str) -> str:
    if not is_moderator(user):
        raise NotAllowed("Only moderators can do this.")
    reason = reason.strip()
    if not reason:
        raise GameError("Say why: players and other moderators will read it.")
    return reason[:500]


def _audit(
    moderator: User,
    action: str,
    description: str,
    reason: str,
    game: Game | None = None,
    user: User | None = None,
) -> ModeratorAction:
    return ModeratorAction.objects.create(
        moderator=moderator,
        action=action,
        description=description,
        reason=reason or "(no reason given)",
        game=game,
        user=user,
    )


def moderate_abort(game_id: int, moderator: User, reason: str) -> Game:
    reason = _require_moderator(moderator, reason)
    with transaction.atomic():
        game = _locked(game_id)
        if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
            raise GameError("This game is already over.")
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.turn_deadline = None
        game.save(update_fields=["status", "finished_at", "turn_deadline"])
        _audit(moderator, "abort", "aborted the game", reason, game=game)
    return game


def moderate_pause(game_id: int, moderator: User, reason: str) -> Game:
    reason = _require_moderator(moderator, reason)
    with transaction.atomic():
        game = _locked(game_id)
        if not game.is_playing() or game.is_paused():
            raise GameError("Only a game in play, not paused, can be paused.")
        game.paused_at = timezone.now()
        game.turn_deadline = None
        game.save(update_fields=["paused_at", "turn_deadline"])
        _audit(moderator, "pause", "paused the game", reason, game=game)
    return game


def moderate_resume(game_id: int, moderator: User, reason: str) -> Game:
    reason = _require_moderator(moderator, reason)
    with transaction.atomic():
        game = _locked(game_id)
        _resume(game)
        _audit(moderator, "resume", "resumed the game", reason, game=game)
    return game


def moderate_clear_deadline(game_id: int, moderator: User, reason: str) -> Game:
    reason = _require_moderator(moderator, reason)
    with transaction.atomic():
        game = _locked(game_id)
        if game.turn_deadline is None:
            raise GameError("This turn has no deadline.")
        game.turn_deadline = None
        game.save(update_fields=["turn_deadline"])
        _audit(moderator, "clear_deadline", "cleared this turn's deadline", reason, game=game)
    return game


def hide_message(message_id: int, moderator: User, reason: str) -> ChatMessage:
    reason = _require_moderator(moderator, reason)
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().get(pk=message_id)
        if message.hidden_at is not None:
            raise GameError("This message is already hidden.")
        message.hidden_at = timezone.now()
        message.save(update_fields=["hidden_at"])
        _audit(
            moderator,
            "hide_message",
            f"hid a message by {message.author.display_name}",
            reason,
            game=message.game,
            user=message.author,
        )
    return message


def resolve_report(report_id: int, moderator: User, note: str) -> Report:
    note = _require_moderator(moderator, note)
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report_id)
        if report.status == Report.Status.RESOLVED:
            raise GameError("This report is already resolved.")
        report.status = Report.Status.RESOLVED
        report.note = note
        report.save(update_fields=["status", "note"])
        _audit(moderator, "resolve_report", "resolved a report", note, game=report.game)
    return report


def suspend_user(user_id: int, moderator: User, reason: str, days: int) -> User:
    """Lock a user out for `days`: no log-in (the backends refuse suspended users), their
    waiting games are cancelled or their seats freed, bots take their seats in games in
    play, and they are told by email."""
    reason = _require_moderator(moderator, reason)
    if not 1 <= days <= 3650:
        raise GameError("A suspension lasts 1 day to 10 years.")
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if user.pk == moderator.pk:
            raise GameError("Moderators cannot suspend themselves.")
        user.suspended_until = timezone.now() + timedelta(days=days)
        user.suspension_reason = reason
        user.save(update_fields=["suspended_until", "suspension_reason"])
        for seat in Seat.objects.select_related("game").filter(
            user=user, game__status__in=[Game.Status.OPEN, Game.Status.PLAYING]
        ):
            game = _locked(seat.game_id)
            if game.is_playing():
                seat.is_bot = True
                seat.save(update_fields=["is_bot"])
                if game.current_seat == seat.position:
                    payload = {"game": game.pk, "turn": game.turn}
                    outbox.schedule(Outbox.Kind.BOT_MOVE, payload)
            elif game.creator_id == user.pk:
                game.status = Game.Status.ABORTED
                game.finished_at = timezone.now()
                game.save(update_fields=["status", "finished_at"])
            else:
                seat.user = None
                seat.save(update_fields=["user"])
        until = user.suspended_until.date().isoformat()
        _audit(
            moderator, "suspend", f"suspended {user.display_name} until {until}", reason, user=user
        )
        outbox.schedule(Outbox.Kind.SUSPENDED, {"user": user.pk})
    return user


def replace_seat(
    game_id: int, moderator: User, reason: str, position: int, email: str = ""
) -> Seat:
    """Give a seat to another user (by email) or, without one, to a bot."""
    reason = _require_moderator(moderator, reason)
    with transaction.atomic():
        game = _locked(game_id)
        if game.status not in (Game.Status.OPEN, Game.Status.PLAYING):
            raise GameError("Seats change only in games not over.")
        seat = game.seats.filter(position=position).first()
        if seat is None:
            raise GameError(f"There is no seat {position + 1} in this game.")
        before = seat.name
        if email:
            newcomer = User.objects.filter(email__iexact=email.strip()).first()
            if newcomer is None:
                raise GameError(f"Nobody has the address {email}.")
            if game.seats.filter(user=newcomer).exists():
                raise GameError(f"{newcomer.display_name} already plays in this game.")
            seat.user, seat.is_bot = newcomer, False
        else:
            seat.is_bot = True
        seat.timeouts_in_a_row = 0
        seat.save(update_fields=["user", "is_bot", "timeouts_in_a_row"])
        _audit(
            moderator,
            "replace_seat",
            f"gave {before}'s seat to {seat.user.display_name if email else 'a bot'}",
            reason,
            game=game,
            user=seat.user if email else None,
        )
        if game.is_playing() and game.current_seat == position:
            kind = Outbox.Kind.BOT_MOVE if seat.is_bot else Outbox.Kind.YOUR_TURN
            outbox.schedule(kind, {"game": game.pk, "turn": game.turn})
    return seat
