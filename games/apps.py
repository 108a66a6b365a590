from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Registers the outbox handlers.
        from games import hindsight, notifications  # noqa: F401
        from games.moderators import ensure_moderators_group

        post_migrate.connect(ensure_moderators_group, sender=self)
