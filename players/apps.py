from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "players: profiles, statistics and history"
