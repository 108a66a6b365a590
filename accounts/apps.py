from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        # Registers the kind of outbox row, and its handler, that sends allauth's emails
        # (accounts/adapter.py).
        from accounts import emails, outbox_kinds  # noqa: F401
