"""The email a suspended user gets: the handler of the outbox row that suspend_user writes."""

from django.utils import timezone

from accounts.models import User
from games.emails import in_language_of
from lib.emails import send_email
from lib.time_zones import zone_named
from moderation import outbox_kinds
from outbox.models import Outbox
from outbox.registry import handler


@handler(outbox_kinds.SUSPENDED)
def send_suspension(row: Outbox) -> None:
    user = User.objects.get(pk=row.payload["user"])
    if not user.is_suspended():
        return  # lifted since
    # In the suspended person's time zone and language (issue 29).
    with timezone.override(zone_named(user.time_zone)), in_language_of(user):
        send_email("accounts/suspended", user.email, {"user": user})
