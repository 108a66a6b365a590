from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ModerationConfig(AppConfig):
    name = "moderation"

    def ready(self) -> None:
        # Registers the outbox handler of the suspension email.
        from moderation import emails  # noqa: F401
        from moderation.groups import ensure_moderators_group

        post_migrate.connect(ensure_moderators_group, sender=self)
