"""Who may see a game, and the one way a form's view calls a service and reports back."""

import re

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_noop

from games.errors import GameError, NotAllowed, TooMany
from games.models import Game, Seat
from games.spectators import open_after_the_end
from games.wording import refusal
from lib.prepared_queries import PreparedQuery

# Every seat of a game, each joined to the game and its user, in order: the turn page's and
# the poll's query, compiled once per process (issue 28).
_seats_of = PreparedQuery(
    lambda game_id: (
        Seat.objects.filter(game_id=game_id).select_related("game", "user").order_by("position")
    ),
    Seat._meta.get_field("game"),
)


def game_for(request: HttpRequest, game_id: int) -> tuple[Game, Seat | None]:
    """The game and the viewer's seat, or 404 when the viewer may not see it. A game in
    progress is seen only by its players (spectators have their own page: spectate.py); a
    finished game by everyone when its spectators option allows (games/spectators.py)."""
    game, seat, _ = game_and_seats(request, game_id)
    return game, seat


def game_and_seats(request: HttpRequest, game_id: int) -> tuple[Game, Seat | None, list[Seat]]:
    """game_for, with every seat of the game in order (their users loaded): one query for a
    player (the seats, each joined to the game and its user), two for anyone else."""
    seats = _seats_of(game_id)
    if seats:
        game = seats[0].game
        for seat in seats:
            seat.game = game  # one Game object for all, as game.seats would give
            if seat.user_id is not None and seat.user_id == game.creator_id:
                game.creator = seat.user  # (a creator who left is read when asked for)
    else:
        game = get_object_or_404(Game.objects.select_related("creator"), pk=game_id)
    user = request.user
    seat = None
    if user.is_authenticated:
        seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is not None:
        return game, seat, seats
    if game.visibility == Game.Visibility.PUBLIC and game.is_open():
        return game, None, seats
    if game.is_finished() and open_after_the_end(game):  # the game's spectators option
        return game, None, seats
    raise Http404("No such game")


def run_service(
    request: HttpRequest, game_id: int, service, *args, success: str = ""
) -> HttpResponse:
    """Call service(game_id, user, *args), report how it went as a message, and go back to
    the game (or home, for someone without a seat there: a player who just left)."""
    try:
        service(game_id, request.user, *args)
    except TooMany as error:
        return too_many(request, error, game_id)
    except NotAllowed as error:
        messages.error(request, refusal(str(error)))
        return redirect("home")
    except GameError as error:
        messages.error(request, refusal(str(error)))
    else:
        if success:
            messages.success(request, success)
    if not Seat.objects.filter(game_id=game_id, user=request.user).exists():
        return redirect("home")
    return redirect("games:detail", game_id)


def too_many(request: HttpRequest, error: TooMany, game_id: int) -> HttpResponse:
    """A request over a limit (games/limits.py): nothing was done; say so, with HTTP 429."""
    context = {"message": too_many_in_words(str(error)), "game_id": game_id}
    return render(request, "games/too_many.html", context, status=429)


# games/limits.py's refusals (its Limits' words), in the reader's language (issue 29).
TOO_MANY = {
    ("invitations by email", "day"): gettext_noop(
        "You have sent %(count)s invitations by email in the last day, the most this site "
        "allows: please try again later."
    ),
    ("messages", "minute"): gettext_noop(
        "You have sent %(count)s messages in the last minute, the most this site allows: "
        "please try again later."
    ),
    ("reports", "day"): gettext_noop(
        "You have sent %(count)s reports in the last day, the most this site allows: please "
        "try again later."
    ),
}


def too_many_in_words(text: str) -> str:
    found = re.fullmatch(r"You have sent (\d+) (.+) in the last (\w+), the most .*", text)
    message = TOO_MANY.get((found[2], found[3])) if found else None
    return gettext(message) % {"count": found[1]} if message else text
