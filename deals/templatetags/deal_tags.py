"""A finished game's deal links (templates/games/_after_the_game.html) and the weekly deal
on the lobby (templates/games/home.html)."""

from django import template
from django.template.loader import render_to_string

from deals import results, services
from deals.models import DealGame
from deals.seen import has_seen, playing

register = template.Library()


@register.simple_tag(takes_context=True)
def deal_links(context, game) -> str:
    """Under a finished game: its deal's page, where others start a table on the same deck."""
    link = DealGame.objects.filter(game=game).select_related("deal").first()
    return render_to_string(
        "deals/_deal_links.html",
        {"game": game, "deal": link.deal if link else None},
        request=context.get("request"),
    )


@register.simple_tag(takes_context=True)
def weekly_deal(context) -> str:
    """The deal of the week on the lobby: its results, and a button to play it. Read only:
    the week's deal is made by the first to open it or play it (deals/views.py)."""
    request = context.get("request")
    user = context.get("user")
    deal = services.weekly_deal_if_made()
    tag_context: dict = {
        "deal": deal,
        "options": services.WEEKLY_OPTIONS,
        "my_game": None,
        "seen": False,
        "finished": [],
    }
    if deal is not None and user is not None and user.is_authenticated:
        tag_context["my_game"] = playing(deal.pk, user)
        tag_context["seen"] = has_seen(deal.pk, user)
    if deal is not None and tag_context["my_game"] is None:
        tag_context["finished"] = results.finished_games(deal)
    return render_to_string("deals/_weekly_deal.html", tag_context, request=request)
