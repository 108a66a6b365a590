from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "players: profiles, statistics and history"

    def ready(self) -> None:
        from games.signals import game_finished
        from players.stats import on_game_finished

        game_finished.connect(on_game_finished, dispatch_uid="players.record_finished_game")
