"""Before the start: create a game, gather people and bots, invite, cancel, start."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games import limits, seat_guards
from games.bots import hgroup
from games.engine import GameOptions, seating_order
from games.errors import GameError, NotAllowed
from games.models import (
    BotKind,
    ChatPolicy,
    Game,
    Invitation,
    Seat,
    SpectatorPolicy,
    TimeoutPolicy,
)
from games.services import announce, snapshots, versions
from games.services.play import store_summary
from games.spectators import seat_refusal as refusal_to_a_spectator

# Why a game no longer takes players, (if it was cancelled, if it started), whole sentences
# for gettext: a translation cannot glue a reason to its consequence.
TOO_LATE = (
    gettext_lazy("This game was cancelled."),
    gettext_lazy("This game has already started."),
)
TOO_LATE_TO_JOIN = (
    gettext_lazy("This game was cancelled; you can no longer join it."),
    gettext_lazy("This game has already started; you can no longer join it."),
)
TOO_LATE_TO_LEAVE = (
    gettext_lazy("This game was cancelled: you can no longer leave it."),
    gettext_lazy("This game has already started: you can no longer leave it."),
)


def too_late(game: Game, sentences: tuple = TOO_LATE) -> str:
    """Why a game no longer takes players (it started, or it was cancelled), in the active
    language: one of `sentences`, (if cancelled, if started)."""
    cancelled, started = sentences
    return str(cancelled if game.status == Game.Status.ABORTED else started)


def create_game(
    creator: User,
    options: GameOptions,
    visibility: str,
    turn_time_limit: int | None = None,
    timeout_policy: str = TimeoutPolicy.AUTO_MOVE,
    bots: int = 0,
    chat_policy: str = ChatPolicy.AFTER,
    bot_kind: str = BotKind.HOUSE,
    deck: list | None = None,
    spectators: str = SpectatorPolicy.AFTER,
    bot_level: int | None = None,
) -> Game:
    """A new open game with the creator in the first seat, `bots` bots (of `bot_kind`) in the
    last seats, and the other seats empty. `deck`: an explicit deck ([[suit, rank], …], top
    first), to play a deal again; by default the deal comes from the game's new seed."""
    if not 0 <= bots < options.players:
        raise GameError(_("Leave at least one seat for a person."))
    if bot_kind not in BotKind.values:
        raise GameError(_("There is no such bot."))
    bot_level = bot_level if bots and bot_kind == BotKind.HGROUP else None
    if bots and (refusal := bot_level_refusal(bot_kind, bot_level)):
        raise GameError(refusal)
    if spectators not in SpectatorPolicy.values:
        raise GameError(_("Choose who may watch the game."))
    with transaction.atomic():
        game = Game.objects.create(
            options=options.to_dict(),
            visibility=visibility,
            creator=creator,
            max_score=options.max_score,
            turn_time_limit=turn_time_limit,
            timeout_policy=timeout_policy,
            chat_policy=chat_policy,
            deck=deck,
            spectators=spectators,
        )
        first_bot = options.players - bots
        Seat.objects.bulk_create(
            Seat(
                game=game,
                position=position,
                user=creator if position == 0 else None,
                is_bot=position >= first_bot,
                bot_kind=bot_kind if position >= first_bot else BotKind.HOUSE,
                bot_level=bot_level if position >= first_bot else None,
            )
            for position in range(options.players)
        )
    return game


def join_game(game_id: int, user: User, invite_code: str = "") -> Game:
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if not game.is_open():
            raise GameError(too_late(game, TOO_LATE_TO_JOIN))
        if game.visibility == Game.Visibility.INVITE and invite_code != game.invite_code:
            raise NotAllowed(_("This game is by invitation only; ask for the invitation link."))
        if game.seats.filter(user=user).exists():
            raise GameError(_("You already have a seat at this table."))
        if reason := refusal_to_a_spectator(game, user) or seat_guards.refusal(game, user):
            raise NotAllowed(reason)
        seat = game.seats.filter(user=None, is_bot=False).order_by("position").first()
        if seat is None:
            raise GameError(_("Every seat at this table is taken."))
        seat.user = user
        seat.save(update_fields=["user"])
        versions.bump(game)
    return game


def leave_game(game_id: int, user: User) -> Game:
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if not game.is_open():
            raise GameError(too_late(game, TOO_LATE_TO_LEAVE))
        if game.creator_id == user.pk:
            raise GameError(_("You created this game: cancel it instead of leaving."))
        updated = game.seats.filter(user=user).update(user=None)
        if not updated:
            raise GameError(_("You have no seat at this table."))
        versions.bump(game)
    return game


def bot_level_refusal(kind: str, level: int | None) -> str:
    """Why a bot of `kind` cannot sit at `level` (the H-Group bot's level, chosen when
    seating it; the other kinds take none), or ''."""
    if kind == BotKind.HGROUP and level not in hgroup.LEVELS:
        return _("Choose the H-Group bot's level: %(levels)s.") % {
            "levels": ", ".join(str(n) for n in hgroup.LEVELS)
        }
    return ""


def set_bot(
    game_id: int,
    user: User,
    position: int,
    bot: bool,
    kind: str = BotKind.HOUSE,
    level: int | None = None,
) -> Game:
    """The creator puts a bot (of `kind`; the H-Group bot at `level`) in an empty seat before
    the start, or takes it away; a bot already seated may be swapped for another kind or
    level."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if game.creator_id != user.pk:
            raise NotAllowed(_("Only the person who created the game can seat bots."))
        if not game.is_open():
            raise GameError(_("Bots can be seated only before the game starts."))
        seat = game.seats.filter(position=position, user=None).first()
        if seat is None:
            raise GameError(_("That seat is taken by a player."))
        if kind not in BotKind.values:
            raise GameError(_("There is no such bot."))
        level = level if bot and kind == BotKind.HGROUP else None
        if bot and (refusal := bot_level_refusal(kind, level)):
            raise GameError(refusal)
        if not bot and not seat.is_bot:
            raise GameError(_("No bot sits there."))
        if bot and seat.is_bot and (seat.bot_kind, seat.bot_level) == (kind, level):
            raise GameError(_("That bot already sits there."))
        seat.is_bot, seat.bot_kind = bot, kind if bot else BotKind.HOUSE
        seat.bot_level = level
        seat.save(update_fields=["is_bot", "bot_kind", "bot_level"])
        versions.bump(game)
    return game


def abort_game(game_id: int, user: User) -> Game:
    """The creator cancels a game that has not started."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if game.creator_id != user.pk:
            raise NotAllowed(_("Only the person who created the game can cancel it."))
        if not game.is_open():
            raise GameError(_("Only a game that has not started can be cancelled."))
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
        versions.bump(game)
    return game


def start_game(game_id: int, user: User) -> Game:
    """Shuffle the players into their seats (from the game's seed) and start."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if game.creator_id != user.pk:
            raise NotAllowed(_("Only the person who created the game can start it."))
        if not game.is_open():
            raise GameError(too_late(game))
        seats = list(game.seats.order_by("position"))
        if any(seat.is_free for seat in seats):
            raise GameError(_("Every seat must be taken before the game can start."))
        if all(seat.is_bot for seat in seats):
            raise GameError(_("At least one person must play."))
        by_joining = [(seat.user_id, seat.is_bot, seat.bot_kind, seat.bot_level) for seat in seats]
        order = seating_order(game.seed, len(seats))
        for seat, source in zip(seats, order, strict=True):
            seat.user_id, seat.is_bot, seat.bot_kind, seat.bot_level = by_joining[source]
        # Clear the users first: the (game, user) constraint must hold after each update.
        Seat.objects.filter(game=game).update(user=None)
        Seat.objects.bulk_update(seats, ["user", "is_bot", "bot_kind", "bot_level"])
        state = game.load_state(moves=[])
        game.status = Game.Status.PLAYING
        game.started_at = timezone.now()
        store_summary(game, state)
        game.save()
        versions.bump(game)
        snapshots.keep_after_commit(game, state)
        announce.turn_changed(game, state)
    return game


def invite_by_email(
    game_id: int, inviter: User, email: str, *, by_name: bool = False
) -> Invitation:
    email = User.objects.normalize_email(email).strip()
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if not game.seats.filter(user=inviter).exists():
            raise NotAllowed(_("Only a player at this table can invite others."))
        if not game.is_open():
            raise GameError(too_late(game))
        limits.INVITATIONS.check(Invitation.objects.filter(invited_by=inviter))
        try:
            with transaction.atomic():
                invitation = Invitation.objects.create(
                    game=game, email=email, invited_by=inviter, by_name=by_name
                )
        except IntegrityError:
            raise GameError(
                _("%(email)s has already been invited to this game.") % {"email": email}
            ) from None
        announce.invitation(invitation)
    return invitation
