from django.apps import AppConfig


class RematchesConfig(AppConfig):
    name = "rematches"
    verbose_name = "rematches: the same table again"
