"""games/wording.py's sentences in templates (issue 29): a game's options in the active
language ('3 Spieler, Farbrausch'; in English GameOptions.describe(), unchanged)."""

from django import template

from games import wording
from games.engine import GameOptions

register = template.Library()


@register.filter
def options_text(options: GameOptions) -> str:
    return wording.options_text(options)
