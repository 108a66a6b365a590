import zoneinfo
from functools import cache
from typing import Any

from django import forms
from django.contrib.auth.forms import BaseUserCreationForm, PasswordResetForm

from accounts.models import User
from outbox.delivery import schedule
from outbox.models import Outbox

EMAIL_TAKEN = "An account with this email address already exists."


def _email_taken(email: str, except_user: User | None = None) -> bool:
    others = User.objects.filter(email__iexact=email)
    if except_user is not None:
        others = others.exclude(pk=except_user.pk)
    return others.exists()


class SignupForm(BaseUserCreationForm):
    """Email, display name, and a password typed twice (checked by Django's validators)."""

    class Meta:
        model = User
        fields = ("email", "display_name")
        widgets = {
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
            "display_name": forms.TextInput(attrs={"autocomplete": "nickname"}),
        }

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        if _email_taken(email):
            raise forms.ValidationError(
                EMAIL_TAKEN + " Log in instead, or ask for a login link.", code="unique"
            )
        return email


@cache  # reading the tz database's folders takes ~10 ms, and it only changes on upgrade
def time_zone_choices() -> list[tuple[str, str]]:
    # "localtime" is whatever the server's clock says and "Factory" means "no zone set":
    # neither is a place a person lives in.
    names = zoneinfo.available_timezones() - {"localtime", "Factory"}
    return [(name, name.replace("_", " ")) for name in sorted(names)]


class ProfileForm(forms.ModelForm):
    # A list of real zones, so that a typo can never reach the time zone middleware.
    time_zone = forms.ChoiceField(
        label="Time zone",
        choices=time_zone_choices,
        help_text=User._meta.get_field("time_zone").help_text,
    )

    class Meta:
        model = User
        fields = ("display_name", "email", "notify", "time_zone")
        widgets = {
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
            "display_name": forms.TextInput(attrs={"autocomplete": "nickname"}),
            "notify": forms.RadioSelect,
        }

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        if _email_taken(email, except_user=self.instance):
            raise forms.ValidationError(EMAIL_TAKEN, code="unique")
        return email


class LoginLinkForm(forms.Form):
    email = forms.EmailField(
        label="Email address",
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    # Where the link should lead; checked again when the link is made.
    next = forms.CharField(required=False, widget=forms.HiddenInput)


class EmailedPasswordResetForm(PasswordResetForm):
    """Django's reset form, its email sent through the outbox (accounts/emails.py) with an
    absolute link built from SITE_URL."""

    email = forms.EmailField(
        label="Email address",
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        # The token is made when the email is sent (accounts/emails.py), never stored.
        schedule(Outbox.Kind.PASSWORD_RESET, {"user": context["user"].pk})
