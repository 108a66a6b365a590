"""A finished game's deal links (templates/games/_after_the_game.html) and the weekly deal
on the lobby (templates/games/home.html)."""

from django import template
from django.template.loader import render_to_string

from deals import game_links, results, services
from deals.seen import has_seen, playing

register = template.Library()


@register.simple_tag(takes_context=True)
def deal_links(context, game) -> str:
    """Under a finished game: its deal's page, where others start a table on the same deck."""
    return render_to_string(
        "deals/_deal_links.html",
        # From the cache: the replay page draws this at every turn it steps to.
        {"game": game, "deal_id": game_links.deal_id_of(game.pk)},
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
