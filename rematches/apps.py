from django.apps import AppConfig


class RematchesConfig(AppConfig):
    name = "rematches"
    verbose_name = "rematches: the same table again"

    def ready(self) -> None:
        # The outbox kind and its handler register on import; the guard keeps a rematch's
        # seats for its invitees.
        from games import seat_guards
        from rematches import emails, outbox_kinds  # noqa: F401
        from rematches.seats import only_those_who_accepted

        seat_guards.register(only_those_who_accepted)
