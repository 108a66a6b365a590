import zoneinfo
from functools import cache

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class SignupForm(forms.Form):
    """What allauth's sign-up form asks besides the email address and the password: the
    name other players see (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=User._meta.get_field("display_name").max_length,
        # The model's help text, in the reader's language.
        help_text=_("The name other players see at the table."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    def signup(self, request, user: User) -> None:
        """Nothing left to do: accounts/adapter.py sets the name before the first save."""


@cache  # reading the tz database's folders takes ~10 ms, and it only changes on upgrade
def time_zone_choices() -> list[tuple[str, str]]:
    # "localtime" is whatever the server's clock says and "Factory" means "no zone set":
    # neither is a place a person lives in.
    names = zoneinfo.available_timezones() - {"localtime", "Factory"}
    return [(name, name.replace("_", " ")) for name in sorted(names)]


class ProfileForm(forms.ModelForm):
    # A list of real zones, so that a typo can never reach the time zone middleware.
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=time_zone_choices,
        help_text=_("Deadlines are shown in this time zone."),
    )

    class Meta:
        model = User
        fields = ("display_name", "notify", "time_zone", "language", "review_by_email")
        widgets = {
            "display_name": forms.TextInput(attrs={"autocomplete": "nickname"}),
            "notify": forms.RadioSelect,
        }
        # The model's words, in the reader's language (issue 29).
        labels = {
            "display_name": _("Display name"),
            "notify": _("Game emails"),
            "language": _("Language"),
            "review_by_email": _("The bot's review in the game-over email"),
        }
        help_texts = {
            "display_name": _("The name other players see at the table."),
            "language": _("The language of the site and its emails for this person."),
            "review_by_email": _(
                "When a game ends, the email adds where the H-Group bot would have moved "
                "otherwise than you did, and why."
            ),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["notify"].choices = [
            (User.Notify.EVERY_TURN, _("An email every time it is my turn")),
            (User.Notify.DAILY_DIGEST, _("One email a day listing the games waiting for me")),
            (User.Notify.NONE, _("No game emails")),
        ]
