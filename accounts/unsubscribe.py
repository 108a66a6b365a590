"""One-click unsubscribe links (RFC 8058) for game emails. The link is signed for one user
and does not expire: an old email's unsubscribe link must keep working."""

from django.conf import settings
from django.core import signing
from django.urls import reverse

from accounts.models import User

SALT = "accounts.unsubscribe"


def unsubscribe_url(user: User) -> str:
    token = signing.dumps(user.pk, salt=SALT)
    return settings.SITE_URL + reverse("accounts:unsubscribe", args=[token])


def user_for_token(token: str) -> User | None:
    try:
        user_id = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    return User.objects.filter(pk=user_id).first()
