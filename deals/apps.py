from django.apps import AppConfig


class DealsConfig(AppConfig):
    name = "deals"
    verbose_name = "deals shared between tables"
