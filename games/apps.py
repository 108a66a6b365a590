from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Registers the kinds of outbox row this app writes, and their handlers.
        from games import emails, hindsight, outbox_kinds, tasks  # noqa: F401
