"""The only code that changes a rematch: propose it, accept or decline it, start it with
bots in the empty seats. Each runs in one transaction, under the lock of the game it
changes (the finished game for a proposal, the new table for the rest), through games'
own lobby services, so that the new table obeys every rule of an ordinary one.

Every change raises the finished game's version (games/services/versions.py): its page
shows the proposal and the answers (rematches/templatetags/rematch_tags.py), and the
players looking at it see them arrive.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.errors import GameError, NotAllowed
from games.models import BotKind, Game
from games.services import lobby, versions
from outbox.delivery import batched, schedule
from rematches import outbox_kinds
from rematches.models import Invitee, Rematch


def propose(finished_game_id: int, user: User) -> tuple[Rematch, bool]:
    """The same table again: the same options, time limit, policies and visibility, a new
    seed (a new deal), `user` seated, the bots of the old table seated again as the same
    kind, and every other person of the old table invited. Returns the rematch and whether
    it is new: a game has one proposal, and asking again finds it (unless it was
    cancelled: then a new one replaces it)."""
    with transaction.atomic():
        old = Game.objects.locked(finished_game_id)
        seats = list(old.seats.select_related("user").order_by("position"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise NotAllowed(_("Only a player of this game can propose a rematch."))
        if not old.is_finished():
            raise GameError(_("A rematch can be proposed once the game is over."))
        existing = Rematch.objects.filter(finished_game=old).select_related("game").first()
        if existing is not None:
            if existing.game.status != Game.Status.ABORTED:
                return existing, False
            existing.delete()
        rematch = _new_table(old, seats, user)
        people = [
            seat.user
            for seat in seats
            if seat.user_id is not None and seat.user_id != user.pk and seat.user.is_active
        ]
        invitees = Invitee.objects.bulk_create(
            Invitee(rematch=rematch, user=person) for person in people
        )
        with batched():
            for invitee in invitees:
                schedule(
                    outbox_kinds.INVITATION, {"invitee": invitee.pk}, dedupe_key=str(invitee.pk)
                )
        versions.bump(old)
        if not invitees:
            # Nobody to wait for (the proposer played with bots alone).
            _bots_in_empty_seats_and_start(rematch.game_id, user)
    return rematch, True


def _new_table(old: Game, seats: list, proposer: User) -> Rematch:
    bot_kinds = [
        (seat.bot_kind, seat.bot_level) for seat in seats if seat.user_id is None and seat.is_bot
    ]
    game = lobby.create_game(
        proposer,
        old.game_options,
        old.visibility,
        turn_time_limit=old.turn_time_limit,
        timeout_policy=old.timeout_policy,
        bots=len(bot_kinds),
        chat_policy=old.chat_policy,
    )
    # Who may watch, as at the old table.
    game.spectators = old.spectators
    game.save(update_fields=["spectators"])
    # create_game seats house bots in the last seats: an expert bot of the old table is
    # seated again as an expert, an H-Group bot at its level.
    first_bot = len(seats) - len(bot_kinds)
    for position, (kind, level) in enumerate(bot_kinds, start=first_bot):
        if kind != BotKind.HOUSE:
            lobby.set_bot(game.pk, proposer, position, True, kind, level)
    return Rematch.objects.create(finished_game=old, game=game, proposer=proposer)


def _locked(rematch_id: int) -> tuple[Rematch, Game]:
    """The rematch, and its new table locked until the transaction ends: two answers to
    one rematch are applied one after the other."""
    rematch = Rematch.objects.filter(pk=rematch_id).first()
    if rematch is None:
        raise GameError(_("There is no such rematch."))
    return rematch, Game.objects.locked(rematch.game_id)


def _invitee(rematch: Rematch, user: User) -> Invitee:
    invitee = rematch.invitees.filter(user=user).first()
    if invitee is None:
        raise NotAllowed(_("You are not invited to this rematch."))
    return invitee


TOO_LATE_TO_ANSWER = (
    gettext_lazy("This game was cancelled: it is too late to answer."),
    gettext_lazy("This game has already started: it is too late to answer."),
)


def _too_late(game: Game) -> GameError:
    return GameError(lobby.too_late(game, TOO_LATE_TO_ANSWER))


def _answer(invitee: Invitee, answer: str) -> None:
    invitee.answer, invitee.answered_at = answer, timezone.now()
    invitee.save(update_fields=["answer", "answered_at"])


def accept(rematch_id: int, user: User) -> Rematch:
    """The invitee takes their seat; the last one to accept starts the game."""
    with transaction.atomic():
        rematch, game = _locked(rematch_id)
        invitee = _invitee(rematch, user)
        if invitee.answer == Invitee.Answer.ACCEPTED:
            raise GameError(_("You have already accepted this rematch."))
        if not game.is_open():
            raise _too_late(game)
        # Accepted first: the seat guard (rematches/seats.py) seats only those who accepted.
        _answer(invitee, Invitee.Answer.ACCEPTED)
        lobby.join_game(game.pk, user, game.invite_code)
        versions.bump(rematch.finished_game_id)
        if not game.seats.filter(user=None, is_bot=False).exists():
            lobby.start_game(game.pk, rematch.proposer)
    return rematch


def decline(rematch_id: int, user: User) -> Rematch:
    """The invitee says no (and leaves the table, if they had accepted)."""
    with transaction.atomic():
        rematch, game = _locked(rematch_id)
        invitee = _invitee(rematch, user)
        if invitee.answer == Invitee.Answer.DECLINED:
            raise GameError(_("You have already declined this rematch."))
        if not game.is_open():
            raise _too_late(game)
        if invitee.answer == Invitee.Answer.ACCEPTED:
            lobby.leave_game(game.pk, user)
        _answer(invitee, Invitee.Answer.DECLINED)
        versions.bump(rematch.finished_game_id)
    return rematch


def start_with_bots(rematch_id: int, user: User) -> Rematch:
    """The proposer starts now: a house bot in every seat nobody has taken (invitees who
    declined or have not answered). At any time: the new table's own page already lets its
    creator seat bots and start whenever they like, so waiting here would protect nothing."""
    with transaction.atomic():
        rematch, game = _locked(rematch_id)
        if rematch.proposer_id != user.pk:
            raise NotAllowed(_("Only the player who proposed the rematch can start it."))
        if not game.is_open():
            raise GameError(lobby.too_late(game))
        _bots_in_empty_seats_and_start(game.pk, user)
        versions.bump(rematch.finished_game_id)
    return rematch


def _bots_in_empty_seats_and_start(game_id: int, creator: User) -> None:
    free = Game.objects.get(pk=game_id).seats.filter(user=None, is_bot=False)
    for position in free.order_by("position").values_list("position", flat=True):
        lobby.set_bot(game_id, creator, position, True, BotKind.HOUSE)
    lobby.start_game(game_id, creator)
