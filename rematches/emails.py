"""The rematch invitation email (the handler of its outbox rows). It links to the
invitation's page, which asks for a normal login, as a game invitation does: a scoped link
(accounts/scoped.py) opens one game's pages, and the answer is given on the rematch's.
Safe to run again: an invitee who has answered, or a table that started or was cancelled,
gets no email."""

from django.conf import settings
from django.urls import reverse

from accounts.game_email import may_receive_game_email
from accounts.models import User
from accounts.unsubscribe import unsubscribe_url
from games.emails import in_language_of
from games.wording import options_text
from lib.emails import send_email
from outbox.models import Outbox
from outbox.registry import handler
from rematches import outbox_kinds
from rematches.models import Invitee


@handler(outbox_kinds.INVITATION)
def send_invitation(row: Outbox) -> None:
    invitee = (
        Invitee.objects.select_related(
            "user", "rematch__proposer", "rematch__game", "rematch__finished_game"
        )
        .filter(pk=row.payload["invitee"])
        .first()
    )
    # None: the proposal was cancelled and replaced since.
    if invitee is None or invitee.answer != Invitee.Answer.WAITING:
        return
    rematch, user = invitee.rematch, invitee.user
    if not rematch.game.is_open() or not user.is_active:
        return
    if user.notify == User.Notify.NONE or not may_receive_game_email(user):
        return
    # Not seated at the new table yet: the unsubscribe link stops every game email.
    unsubscribe = unsubscribe_url(user)
    context = {
        "user": user,
        "proposer": rematch.proposer,
        "finished_game": rematch.finished_game,
        "answer_url": settings.SITE_URL + rematch.get_absolute_url(),
        "unsubscribe_url": unsubscribe,
        "unsubscribe_mutes_one_game": False,
        "preferences_url": settings.SITE_URL + reverse("accounts:profile"),
    }
    headers = {
        "List-Unsubscribe": f"<{unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    # In the invitee's language (issue 29), whoever proposed.
    with in_language_of(user):
        context["options_text"] = options_text(rematch.game.game_options)
        send_email("rematches/invitation", user.email, context, headers=headers)
