from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Registers the outbox handlers.
        from games import notifications  # noqa: F401
