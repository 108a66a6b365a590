"""allauth's forms, with the address labelled as on the rest of the site ("Email address",
not allauth's "Email"). Named in ACCOUNT_FORMS."""

from allauth.account import forms as allauth_forms

EMAIL_LABEL = "Email address"


class _EmailAddressLabel:
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("login", "email"):
            if name in self.fields:
                self.fields[name].label = EMAIL_LABEL


class LoginForm(_EmailAddressLabel, allauth_forms.LoginForm):
    pass


class SignupForm(_EmailAddressLabel, allauth_forms.SignupForm):
    pass


class RequestLoginCodeForm(_EmailAddressLabel, allauth_forms.RequestLoginCodeForm):
    pass


class ResetPasswordForm(_EmailAddressLabel, allauth_forms.ResetPasswordForm):
    pass


class ChangeEmailForm(_EmailAddressLabel, allauth_forms.ChangeEmailForm):
    pass
