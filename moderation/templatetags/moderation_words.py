"""moderation/wording.py's sentence for a moderator's action, in templates."""

from django import template

from moderation import wording

register = template.Library()


@register.filter
def moderator_did(entry) -> str:
    return wording.moderator_did(entry)
