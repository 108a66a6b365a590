from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # The outbox kinds this app writes and their handlers register on import; an
        # email's one-click unsubscribe link mutes its game (accounts/unsubscribe.py).
        from accounts import unsubscribe
        from games import emails, hindsight, outbox_kinds, tasks  # noqa: F401
        from games.unsubscribe import mute_from_unsubscribe_link

        unsubscribe.mutes_games_with(mute_from_unsubscribe_link)
