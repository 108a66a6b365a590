"""What each game email says, and when it is not sent. Each is the handler of one kind of
outbox row (games/services/announce.py says when the rows are written). Every handler is
safe to run twice: it re-reads the game and does nothing if the moment has passed (the turn
was played, the game ended)."""

from datetime import datetime

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from accounts.game_email import may_receive_game_email
from accounts.models import User
from accounts.scoped import scoped_url
from accounts.unsubscribe import unsubscribe_url
from games.engine import event_dict, view_for
from games.models import Game, Invitation, MadeBy, Seat
from games.services.announce import notify_delay
from lib.emails import send_email
from lib.time_zones import zone_named
from outbox.models import Outbox
from outbox.registry import Retry, handler


def game_link(user: User, game: Game, path: str | None = None) -> str:
    """A link that opens this game's pages, and nothing else, for `user` (a scoped link:
    accounts/scoped.py), at `path` (default: the game). It does not log in: a forwarded
    email lets its reader act in this one game, for as long as the link lives."""
    return scoped_url(user, game.get_absolute_url(), path)


@handler(Outbox.Kind.INVITATION)
def send_invitation(row: Outbox) -> None:
    invitation = Invitation.objects.select_related("game", "invited_by").get(
        pk=row.payload["invitation"]
    )
    game = invitation.game
    join_path = reverse("games:invite", args=[game.pk, game.invite_code])
    context = {
        "game": game,
        "inviter": invitation.invited_by,
        "options_text": game.game_options.describe(),
        "join_url": settings.SITE_URL + join_path,
    }
    member = User.objects.filter(email__iexact=invitation.email, is_active=True).first()
    if member is None or not may_receive_game_email(member):
        # No account (or one whose owner never confirmed the address), so no preferences
        # to point at: the email says why it came.
        send_email("games/invitation", invitation.email, context)
    elif member.notify != User.Notify.NONE:
        send_game_email("invitation", member, context)


def send_game_email(kind: str, user: User, context: dict) -> None:
    """A game email: one-click unsubscribe headers (RFC 8058) and a preferences footer.
    None goes to an address its owner has not confirmed: a sign-up with someone else's
    address must not fill their inbox."""
    if not may_receive_game_email(user):
        return
    unsubscribe = unsubscribe_url(user)
    context = {
        **context,
        "user": user,
        "unsubscribe_url": unsubscribe,
        "preferences_url": settings.SITE_URL + reverse("accounts:profile"),
    }
    headers = {
        "List-Unsubscribe": f"<{unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    # Deadlines in the email are shown in the recipient's time zone, as on the site.
    with timezone.override(zone_named(user.time_zone)):
        send_email(f"games/{kind}", user.email, context, headers=headers)


def _wants_turn_emails(seat: Seat) -> bool:
    return (
        seat.user_id is not None
        and not seat.is_bot
        and not seat.muted
        and seat.user.notify == User.Notify.EVERY_TURN
    )


def _turn_context(game: Game, seat: Seat) -> dict:
    """The table as the player may see it, and what happened since their last move."""
    names = game.seat_names()
    state = game.load_state()
    view = view_for(state, seat.position, names)
    automatic = set(game.moves.exclude(made_by=MadeBy.PLAYER).values_list("turn", flat=True))
    previous_own = [e.turn for e in state.events if e.seat == seat.position]
    since = previous_own[-1] if previous_own else -1
    recent = [
        {**event_dict(event, state, names), "automatic": event.turn in automatic}
        for event in state.events
        if event.turn > since
    ]
    last_own_move = (
        game.moves.filter(seat=seat.position).order_by("-turn").values_list("created_at", flat=True)
    ).first() or game.started_at
    said = (
        game.chat.filter(hidden_at=None, created_at__gt=last_own_move)
        .exclude(author=seat.user)
        .select_related("author")
    )
    others = [hand for hand in view["hands"] if hand["seat"] != seat.position]
    own = next(hand for hand in view["hands"] if hand["seat"] == seat.position)
    return {
        "game": game,
        "view": view,
        "recent": recent,
        "said": list(said),
        "others": others,
        "own": own,
        "game_url": game_link(seat.user, game),
    }


def _current_seat(game: Game, turn: int) -> Seat | None:
    """The seat to move, if the game is still at that turn."""
    if not game.is_playing() or game.turn != turn:
        return None
    return game.seats.select_related("user").get(position=game.current_seat)


@handler(Outbox.Kind.YOUR_TURN)
def send_your_turn(row: Outbox) -> None:
    game = Game.objects.get(pk=row.payload["game"])
    seat = _current_seat(game, row.payload["turn"])
    if seat is None or not _wants_turn_emails(seat):
        return
    if seat.last_seen_at and timezone.now() - seat.last_seen_at < notify_delay():
        # The player is looking at the game: ask again later, and send if they leave.
        raise Retry(notify_delay())
    send_game_email("your_turn", seat.user, _turn_context(game, seat))


@handler(Outbox.Kind.REMINDER)
def send_reminder(row: Outbox) -> None:
    game = Game.objects.get(pk=row.payload["game"])
    seat = _current_seat(game, row.payload["turn"])
    if seat is None or seat.is_bot or seat.muted or seat.user.notify == User.Notify.NONE:
        return
    deadline = datetime.fromisoformat(row.payload["deadline"])
    if game.turn_deadline != deadline:
        return  # paused, resumed or extended since: another reminder was scheduled
    send_game_email("reminder", seat.user, _turn_context(game, seat))


@handler(Outbox.Kind.GAME_OVER)
def send_game_over(row: Outbox) -> None:
    game = Game.objects.get(pk=row.payload["game"])
    seat = game.seats.select_related("user").get(user_id=row.payload["user"])
    if seat.muted or seat.user.notify == User.Notify.NONE:
        return
    state = game.load_state()
    replay_path = reverse("games:replay", args=[game.pk, game.turn])
    send_game_email(
        "game_over",
        seat.user,
        {
            "game": game,
            "names": game.seat_names(),
            "outcome": game.outcome(state),
            "replay_url": game_link(seat.user, game, replay_path),
        },
    )


@handler(Outbox.Kind.DIGEST)
def send_digest(row: Outbox) -> None:
    user = User.objects.get(pk=row.payload["user"])
    if user.notify != User.Notify.DAILY_DIGEST:
        return
    games = list(Game.objects.waiting_on(user))
    if not games:
        return
    links = [(game, game_link(user, game)) for game in games]
    send_game_email("digest", user, {"links": links})
