"""How much one person may ask of others in a while: invitations by email, chat messages and
reports. Each is counted from the rows the person wrote, so every web process sees the same
count without a shared cache; a request over the limit changes nothing and is answered with
HTTP 429 (games/views/access.py). Sign-up, log-in and reset requests are limited per address
and per IP by the accounts side."""

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from games.errors import TooMany


@dataclass(frozen=True)
class Limit:
    most: int
    per: timedelta
    what: str  # "invitations by email", counted in `per`
    period: str  # "day", said to the person

    def check(self, made_by_them: QuerySet) -> None:
        """Refuse one more if the rows this person made in the period reach the limit."""
        since = timezone.now() - self.per
        if made_by_them.filter(created_at__gte=since).count() >= self.most:
            raise TooMany(
                f"You have sent {self.most} {self.what} in the last {self.period}, the most "
                "this site allows: please try again later."
            )


INVITATIONS = Limit(20, timedelta(days=1), "invitations by email", "day")
CHAT_MESSAGES = Limit(10, timedelta(minutes=1), "messages", "minute")
REPORTS = Limit(10, timedelta(days=1), "reports", "day")
