"""The emails accounts send: each is the handler of one kind of outbox row, written by the
request that asks for it and sent by a worker after commit, like every email of the site.
The link in each is made when the email is sent, so that its lifetime starts then."""

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts import links
from accounts.models import User
from lib.emails import send_email
from outbox.models import Outbox
from outbox.registry import handler


@handler(Outbox.Kind.LOGIN_LINK)
def send_login_link(row: Outbox) -> None:
    user = User.objects.filter(pk=row.payload["user"], is_active=True).first()
    if user is None:
        return
    url = links.login_url(user, row.payload["next"])
    context = {"user": user, "url": url, "valid_minutes": links.LOGIN_LINK_MAX_AGE // 60}
    send_email("accounts/login_link", user.email, context)


@handler(Outbox.Kind.PASSWORD_RESET)
def send_password_reset(row: Outbox) -> None:
    user = User.objects.filter(pk=row.payload["user"], is_active=True).first()
    if user is None:
        return
    path = reverse(
        "accounts:password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    valid_days = settings.PASSWORD_RESET_TIMEOUT // (60 * 60 * 24)
    context = {"user": user, "url": settings.SITE_URL + path, "valid_days": valid_days}
    send_email("accounts/password_reset", user.email, context)
