"""What each kind of outbox row does. Each handler must be safe to run twice."""

from django.conf import settings
from django.urls import reverse

from games import outbox
from games.models import Invitation, Outbox
from hanabi_site.emails import send_email


@outbox.handler(Outbox.Kind.INVITATION)
def send_invitation(row: Outbox) -> None:
    invitation = Invitation.objects.select_related("game", "invited_by").get(
        pk=row.payload["invitation"]
    )
    game = invitation.game
    join_path = reverse("games:invite", args=[game.pk, game.invite_code])
    send_email(
        "games/invitation",
        invitation.email,
        {
            "game": game,
            "inviter": invitation.invited_by,
            "options_text": game.game_options.describe(),
            "join_url": settings.SITE_URL + join_path,
        },
    )
