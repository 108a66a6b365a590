from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "outbox"

    def ready(self) -> None:
        # Registers the system check that every kind of row has a handler.
        from outbox import checks  # noqa: F401
