"""`manage.py check` (and every start) fails when a kind of outbox row has no handler: such
rows would be written and never carried out."""

from django.core.checks import Error, register

from outbox.registry import kinds_without_handler


@register()
def every_kind_has_a_handler(app_configs, **kwargs) -> list[Error]:
    return [
        Error(
            f"Outbox rows of kind {kind!r} have no handler.",
            hint="Register one with @outbox.registry.handler in the app that writes them, "
            "imported from its AppConfig.ready().",
            id="outbox.E001",
        )
        for kind in kinds_without_handler()
    ]
