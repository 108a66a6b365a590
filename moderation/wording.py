"""A moderator's action as players read it in a game's history, in the reader's language
(issue 29). The audit log keeps its description in English (moderation/services.py), the
moderators' own record; the players' sentence is worded here from it, whole, per action."""

import re

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from moderation.models import ModeratorAction

EXTENDED = re.compile(r"^extended the deadline by (\d+) hours?$")
HID = re.compile(r"^hid a message by (.+)$")
GAVE = re.compile(r"^gave (.+)'s seat to (.+)$")


def moderator_did(entry: ModeratorAction) -> str:
    """ "A moderator paused the game", "Die Moderation hat die Partie pausiert"."""
    text = entry.description
    plain = {
        "aborted the game": _("A moderator aborted the game"),
        "paused the game": _("A moderator paused the game"),
        "resumed the game": _("A moderator resumed the game"),
        "cleared this turn's deadline": _("A moderator cleared this turn's deadline"),
        "resolved a report": _("A moderator resolved a report"),
    }
    if text in plain:
        return plain[text]
    if found := EXTENDED.match(text):
        hours = int(found[1])
        return ngettext(
            "A moderator extended the deadline by %(hours)s hour",
            "A moderator extended the deadline by %(hours)s hours",
            hours,
        ) % {"hours": hours}
    if found := HID.match(text):
        return _("A moderator hid a message by %(name)s") % {"name": found[1]}
    if found := GAVE.match(text):
        if found[2] == "a bot":
            return _("A moderator gave %(name)s's seat to a bot") % {"name": found[1]}
        return _("A moderator gave %(name)s's seat to %(newcomer)s") % {
            "name": found[1],
            "newcomer": found[2],
        }
    return _("A moderator %(action)s") % {"action": text}
