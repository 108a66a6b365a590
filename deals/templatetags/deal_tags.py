"""A finished game's deal links (templates/games/_after_the_game.html) and the weekly deal
on the lobby (templates/games/home.html)."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def deal_links(context, game) -> str:
    return ""


@register.simple_tag(takes_context=True)
def weekly_deal(context) -> str:
    return ""
