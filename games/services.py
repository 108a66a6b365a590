"""The only code that changes a game.

Each function runs in one transaction that locks the game row (`select_for_update`), so
that two requests about the same game (a double click, two tabs, a move racing the
deadline sweep) are applied one after the other and never both. Rules are asked of the
engine; nothing here re-implements one. Side effects go through the outbox.
"""

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games import outbox
from games.engine import (
    GameOptions,
    GameState,
    IllegalAction,
    action_from_dict,
    action_to_dict,
    replay,
    seating_order,
)
from games.models import Game, Invitation, Move, Outbox, Seat


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


def create_game(creator: User, options: GameOptions, visibility: str) -> Game:
    """A new open game with the creator in the first seat and the other seats empty."""
    with transaction.atomic():
        game = Game.objects.create(
            options=options.to_dict(),
            visibility=visibility,
            creator=creator,
            max_score=options.max_score,
        )
        Seat.objects.bulk_create(
            Seat(game=game, position=position, user=creator if position == 0 else None)
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
        seat = game.seats.filter(user=None).order_by("position").first()
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
        if any(seat.user_id is None for seat in seats):
            raise GameError("Every seat must be taken before the game can start.")
        users_by_joining = [seat.user_id for seat in seats]
        order = seating_order(game.seed, len(seats))
        for seat, source in zip(seats, order, strict=True):
            seat.user_id = users_by_joining[source]
        # Clear the users first: the (game, user) constraint must hold after each update.
        Seat.objects.filter(game=game).update(user=None)
        Seat.objects.bulk_update(seats, ["user"])
        state = load_state(game, moves=[])
        game.status = Game.Status.PLAYING
        game.started_at = timezone.now()
        _store_summary(game, state)
        game.save()
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
        state = load_state(game)
        try:
            state.apply(action_from_dict(action))
        except IllegalAction as error:
            raise IllegalMove(f"That move is not allowed: {error.reason}.") from None
        move = Move.objects.create(
            game=game, turn=game.turn, seat=seat.position, action=action_to_dict(state.actions[-1])
        )
        _store_summary(game, state)
        game.save(update_fields=["turn", "current_seat", "score", "end", "status", "finished_at"])
    return move


def _store_summary(game: Game, state: GameState) -> None:
    game.turn = state.turn
    game.current_seat = state.current_seat
    game.score = state.score
    game.max_score = state.max_score
    if state.is_over:
        game.end = str(state.end)
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
