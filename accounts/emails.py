"""The emails accounts send, through the site's one email helper. Each kind has its
subject, text and HTML templates under `templates/emails/accounts/<kind>/`."""

from django.conf import settings

from accounts.models import User
from hanabi_site.emails import send_email


def send_login_link(user: User, url: str, valid_minutes: int) -> None:
    context = {"user": user, "url": url, "valid_minutes": valid_minutes}
    send_email("accounts/login_link", user.email, context)


def send_password_reset(user: User, url: str) -> None:
    valid_days = settings.PASSWORD_RESET_TIMEOUT // (60 * 60 * 24)
    context = {"user": user, "url": url, "valid_days": valid_days}
    send_email("accounts/password_reset", user.email, context)
