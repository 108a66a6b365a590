"""games/wording.py's sentences in templates (issue 29): a game's options, a stored variant
name and a finished game's result in the active language; in English each unchanged."""

import re

from django import template
from django.utils.translation import gettext, gettext_noop, ngettext

from games import wording
from games.engine import GameOptions
from games.engine.options import MULTICOLOUR_VARIANTS, NO_VARIANT

register = template.Library()

gettext_noop("no variant")
RESULTS = {
    "won": gettext_noop("won"),
    "lost": gettext_noop("lost"),
    "struck out": gettext_noop("struck out"),
    "timed out": gettext_noop("timed out"),
}
FUSES = re.compile(r"(\d+) fuses?")


@register.filter
def options_text(options: GameOptions) -> str:
    return wording.options_text(options)


@register.filter
def variant_text(name: str) -> str:
    """A variant as GameOptions.variant_name() wrote it ('wild multicolour, 2 fuses', 'no
    variant', kept on a player's records), in the active language. A name of other words is
    shown as it is."""
    if wording.english():
        return name
    if name == NO_VARIANT:
        return gettext("no variant")
    known = sorted(
        [label for key, label in MULTICOLOUR_VARIANTS.items() if key]
        + ["until perfect", "empty clues", "rearranging"],
        key=len,
        reverse=True,
    )
    parts, rest = [], name
    while rest:
        fuses = FUSES.match(rest)
        label = next((label for label in known if rest.startswith(label)), None)
        if label is not None:
            parts.append(gettext(label))
            rest = rest[len(label) :]
        elif fuses:
            count = int(fuses.group(1))
            parts.append(ngettext("%(count)d fuse", "%(count)d fuses", count) % {"count": count})
            rest = rest[fuses.end() :]
        else:
            return name
        if rest.startswith(", "):
            rest = rest[2:]
        elif rest:
            return name
    return ", ".join(parts)


@register.filter
def result_text(word: str) -> str:
    """A finished game's result word (players.models GameRecord.result_word)."""
    return gettext(RESULTS[word]) if word in RESULTS else word


@register.filter
def colour_name(suit: str) -> str:
    """A suit ('red') as the active language's edition names it ('rot')."""
    return wording.colour_name(suit)
