"""A game's pages, for a game on a shared deal: refused to whoever sits at another game on
that deal that is not over (its deck would show them their own cards), and, for a finished
game, they count as having seen the deal (deals/seen.py) for whoever was not at its table.

A middleware, because games cannot import deals (tests/test_layers.py): it asks only about
the URLs of games' pages that name a game (`game_id`)."""

from django.http import HttpRequest, HttpResponse

from deals import game_links
from deals.models import DealView
from deals.seen import playing
from deals.views import refused
from games.models import Game


class DealGamesMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Seen once the page was shown: not when the game's own access refused it.
        if (deal_id := getattr(request, "deal_seen_in_finished_game", None)) and (
            response.status_code == 200
        ):
            DealView.objects.get_or_create(deal_id=deal_id, user=request.user)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs) -> HttpResponse | None:
        match = request.resolver_match
        game_id = view_kwargs.get("game_id")
        if match is None or match.namespace != "games" or game_id is None:
            return None
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        deal_id = game_links.deal_id_of(game_id)
        if deal_id is None:
            return None
        if game := playing(deal_id, user, except_game_id=game_id):
            return refused(request, game)
        if request.method == "GET" and (
            Game.objects.filter(pk=game_id, status=Game.Status.FINISHED)
            .exclude(seats__user=user)
            .exists()
        ):
            request.deal_seen_in_finished_game = deal_id
        return None
