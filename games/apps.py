from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Registers the handlers of the outbox rows this app writes.
        from games import emails, hindsight, tasks  # noqa: F401
