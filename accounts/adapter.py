"""How allauth fits this site: its emails go through the outbox, suspended users are
refused at log-in like inactive ones, and links in its emails use SITE_URL."""

from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from accounts import outbox_kinds
from accounts.languages import browser_language, person_language, supported
from accounts.models import User
from outbox.delivery import schedule


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """Render now (the templates need the request), send after commit by a worker.

        The row carries the rendered message, which may hold a code or a key: its handler
        (accounts/emails.py) blanks the payload once the message is sent.
        """
        request = self.request
        context = {
            "request": request,
            "email": email,
            "site_url": settings.SITE_URL,
            # allauth's templates name the site by these, rather than the request's host.
            "current_site": SimpleNamespace(
                name="Hanabi by post", domain=urlsplit(settings.SITE_URL).netloc
            ),
            **context,
        }
        # Issue 29: in the language of the account the email is about (a password reset is
        # asked for logged out, from any browser), else the asker's.
        with translation.override(self._recipient_language(email, context)):
            message = self.render_mail(template_prefix, email, context)
        html = ""
        if isinstance(message, EmailMultiAlternatives) and message.alternatives:
            html = str(message.alternatives[0][0])
        payload = {
            "to": email,
            "subject": message.subject,
            "text": message.body if message.content_subtype == "plain" else "",
            "html": html or (message.body if message.content_subtype == "html" else ""),
            "template": template_prefix,
        }
        schedule(outbox_kinds.ACCOUNT_EMAIL, payload)

    def _recipient_language(self, email: str, context: dict[str, Any]) -> str:
        user = context.get("user")
        if getattr(user, "pk", None) is None:
            user = User.objects.filter(email__iexact=email).first()
        if user is not None:
            return supported(user.language)
        return person_language(self.request)

    def save_user(self, request: HttpRequest, user, form, commit: bool = True):
        # The name other players see, asked at sign-up (accounts.forms.SignupForm).
        user.display_name = form.cleaned_data.get("display_name") or user.display_name
        # Issue 29: the site and its emails in the language the browser asked for (or the
        # footer's switch chose); English if it named none of the site's.
        user.language = browser_language(request)
        return super().save_user(request, user, form, commit=commit)

    def format_email_subject(self, subject: str) -> str:
        return f"{settings.ACCOUNT_EMAIL_SUBJECT_PREFIX}{subject}"

    def pre_login(self, request: HttpRequest, user, **kwargs) -> HttpResponse | None:
        # A suspended account is refused like an inactive one, whatever the way in (a
        # password, a code, a verification link); the backends refuse its sessions too.
        if user.is_active and user.is_suspended():
            from allauth.account.internal.stagekit import clear_login

            clear_login(request)
            return self.respond_user_inactive(request, user)
        return super().pre_login(request, user, **kwargs)

    # Emails link to the public address (SITE_URL), whatever host the request came in on.
    def get_reset_password_from_key_url(self, key: str) -> str:
        return _public(super().get_reset_password_from_key_url(key))

    def get_email_confirmation_url(self, request: HttpRequest, emailconfirmation) -> str:
        return _public(super().get_email_confirmation_url(request, emailconfirmation))


def _public(url: str) -> str:
    path = urlsplit(url)
    return settings.SITE_URL + urlunsplit(("", "", path.path, path.query, path.fragment))
