"""The rematch offer under a finished game (templates/games/_after_the_game.html)."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def rematch_offer(context, game) -> str:
    return ""
