"""Who may see a game, and the one way a form's view calls a service and reports back."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from games.errors import GameError, NotAllowed, TooMany
from games.models import Game, Seat


def game_for(request: HttpRequest, game_id: int) -> tuple[Game, Seat | None]:
    """The game and the viewer's seat, or 404 when the viewer may not see it. A game in
    progress is seen only by its players; a finished public game by everyone."""
    game = get_object_or_404(Game.objects.select_related("creator"), pk=game_id)
    seat = game.seat_of(request.user)
    if seat is not None:
        return game, seat
    if game.visibility == Game.Visibility.PUBLIC and game.status in (
        Game.Status.OPEN,
        Game.Status.FINISHED,
    ):
        return game, None
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
        messages.error(request, str(error))
        return redirect("home")
    except GameError as error:
        messages.error(request, str(error))
    else:
        if success:
            messages.success(request, success)
    if not Seat.objects.filter(game_id=game_id, user=request.user).exists():
        return redirect("home")
    return redirect("games:detail", game_id)


def too_many(request: HttpRequest, error: TooMany, game_id: int) -> HttpResponse:
    """A request over a limit (games/limits.py): nothing was done; say so, with HTTP 429."""
    context = {"message": str(error), "game_id": game_id}
    return render(request, "games/too_many.html", context, status=429)
