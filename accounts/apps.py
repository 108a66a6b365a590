from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        # Registers the outbox handler that sends allauth's emails (accounts/adapter.py).
        from accounts import emails  # noqa: F401
