"""What moderators do, and what players ask of them (reports).

Every moderator action is checked here (the user must be a moderator and say why), done
under the same lock as a player's move, and written to the audit log; players see it in
the game's history.
"""

from collections.abc import Callable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import limits, seat_guards
from games.errors import GameError, NotAllowed
from games.models import ChatMessage, Game, Seat
from games.permissions import is_moderator
from games.services import announce, clock, versions
from games.spectators import seat_refusal
from moderation import outbox_kinds
from moderation.models import ModeratorAction, Report
from outbox.delivery import schedule


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
        raise GameError(_("Say what is wrong, so that a moderator can act on it."))
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.seats.filter(user=reporter).exists():
        raise NotAllowed(_("Only the players of a game can report something in it."))
    message = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, game=game).first()
        if message is None:
            raise GameError(_("There is no such message in this game."))
        reported_user_id = message.author_id
    if reported_user_id == reporter.pk:
        raise GameError(_("You cannot report yourself."))
    if reported_user_id is not None and not game.seats.filter(user_id=reported_user_id).exists():
        raise GameError(_("That person does not play in this game."))
    limits.REPORTS.check(Report.objects.filter(reporter=reporter))
    return Report.objects.create(
        reporter=reporter,
        game=game,
        message=message,
        reported_user_id=reported_user_id,
        reason=reason[:1000],
    )


def _require_moderator(user: User, reason: str) -> str:
    if not is_moderator(user):
        raise NotAllowed(_("Only moderators can do this."))
    reason = reason.strip()
    if not reason:
        raise GameError(_("Say why: players and other moderators will read it."))
    return reason[:500]


def _audit(
    moderator: User,
    action: str,
    description: str,
    reason: str,
    game: Game | None = None,
    user: User | None = None,
) -> ModeratorAction:
    if game is not None:
        versions.bump(game)  # the game's history shows every moderator action
    return ModeratorAction.objects.create(
        moderator=moderator,
        action=action,
        description=description,
        reason=reason,
        game=game,
        user=user,
    )


def _moderate_game(
    game_id: int,
    moderator: User,
    reason: str,
    action: str,
    description: str,
    change: Callable[[Game], None],
) -> Game:
    """Check the moderator and the reason, make `change` to the locked game, log it."""
    reason = _require_moderator(moderator, reason)
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        change(game)
        _audit(moderator, action, description, reason, game=game)
    return game


def extend_deadline(game_id: int, moderator: User, reason: str, hours: int) -> Game:
    return _moderate_game(
        game_id,
        moderator,
        reason,
        "extend",
        f"extended the deadline by {hours} hours",
        lambda game: clock.add_time(game, hours),
    )


def abort(game_id: int, moderator: User, reason: str) -> Game:
    def end_it(game: Game) -> None:
        if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
            raise GameError(_("This game is already over."))
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.turn_deadline = None
        game.save(update_fields=["status", "finished_at", "turn_deadline"])

    return _moderate_game(game_id, moderator, reason, "abort", "aborted the game", end_it)


def pause(game_id: int, moderator: User, reason: str) -> Game:
    return _moderate_game(game_id, moderator, reason, "pause", "paused the game", clock.pause_clock)


def resume(game_id: int, moderator: User, reason: str) -> Game:
    return _moderate_game(
        game_id, moderator, reason, "resume", "resumed the game", clock.resume_clock
    )


def clear_deadline(game_id: int, moderator: User, reason: str) -> Game:
    def clear(game: Game) -> None:
        if game.turn_deadline is None:
            raise GameError(_("This turn has no deadline."))
        game.turn_deadline = None
        game.save(update_fields=["turn_deadline"])

    description = "cleared this turn's deadline"
    return _moderate_game(game_id, moderator, reason, "clear_deadline", description, clear)


def hide_message(message_id: int, moderator: User, reason: str) -> ChatMessage:
    reason = _require_moderator(moderator, reason)
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().get(pk=message_id)
        if message.hidden_at is not None:
            raise GameError(_("This message is already hidden."))
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
            raise GameError(_("This report is already resolved."))
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
        raise GameError(_("A suspension lasts 1 day to 10 years."))
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if user.pk == moderator.pk:
            raise GameError(_("Moderators cannot suspend themselves."))
        user.suspended_until = timezone.now() + timedelta(days=days)
        user.suspension_reason = reason
        user.save(update_fields=["suspended_until", "suspension_reason"])
        for seat in Seat.objects.select_related("game").filter(
            user=user, game__status__in=[Game.Status.OPEN, Game.Status.PLAYING]
        ):
            game = Game.objects.locked(seat.game_id)
            versions.bump(game)
            if game.is_playing():
                seat.is_bot = True
                seat.save(update_fields=["is_bot"])
                if game.current_seat == seat.position:
                    announce.bot_to_move(game)
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
        schedule(outbox_kinds.SUSPENDED, {"user": user.pk})
    return user


def replace_seat(
    game_id: int, moderator: User, reason: str, position: int, email: str = ""
) -> Seat:
    """Give a seat to another user (by email) or, without one, to a bot."""
    reason = _require_moderator(moderator, reason)
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        if game.status not in (Game.Status.OPEN, Game.Status.PLAYING):
            raise GameError(_("Seats change only in games not over."))
        seat = game.seats.filter(position=position).first()
        if seat is None:
            raise GameError(_("There is no seat %(seat)s in this game.") % {"seat": position + 1})
        # A moderator who moves their own seat could look at its hand in between (issue 25):
        # such a change is for another moderator to make.
        if seat.user_id == moderator.pk:
            raise GameError(_("This is your own seat: ask another moderator to replace you."))
        if seat.former_users.filter(pk=moderator.pk).exists():
            raise GameError(_("You held this seat before: ask another moderator to change it."))
        before = seat.name
        if email:
            newcomer = User.objects.filter(email__iexact=email.strip()).first()
            if newcomer is None:
                raise GameError(_("Nobody has the address %(email)s.") % {"email": email})
            if newcomer.pk == moderator.pk:
                # A moderator may have seen every hand of the game: seated, they would know
                # their own cards.
                raise GameError(_("You cannot give a seat to yourself: ask another moderator."))
            if game.seats.filter(user=newcomer).exists():
                raise GameError(
                    _("%(name)s already plays in this game.") % {"name": newcomer.display_name}
                )
            if seat_refusal(game, newcomer):  # they saw every hand
                raise GameError(
                    _("%(name)s watched this game: they cannot play it.")
                    % {"name": newcomer.display_name}
                )
            # The rules of the apps above games (a deal they have seen, a rematch's table).
            if refused := seat_guards.refusal(game, newcomer):
                raise GameError(
                    _("%(name)s cannot take this seat: %(reason)s")
                    % {"name": newcomer.display_name, "reason": refused}
                )
            if seat.user_id is not None:
                seat.former_users.add(seat.user_id)
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
            if seat.is_bot:
                announce.bot_to_move(game)
            else:
                announce.your_turn(game, delay=timedelta(0))
    return seat
