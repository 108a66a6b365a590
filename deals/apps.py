from django.apps import AppConfig


class DealsConfig(AppConfig):
    name = "deals"
    verbose_name = "deals shared between tables"

    def ready(self) -> None:
        from deals import bot_tables, outbox_kinds  # noqa: F401  (the outbox kind, its handler)
        from deals.seen import refuse_a_seen_deal
        from games import seat_guards

        seat_guards.register(refuse_a_seen_deal)
