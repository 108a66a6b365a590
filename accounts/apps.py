from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        # Registers the handlers of the login-link and password-reset emails.
        from accounts import emails  # noqa: F401
