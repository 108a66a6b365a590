"""`manage.py check`: the sender check must be one the site knows, and a deployment
(`check --deploy`) is warned when replies are taken on their From alone."""

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

from mailplay.sender_authentication import FROM_ONLY, POLICIES


@register()
def sender_check_is_known(app_configs, **kwargs) -> list[Error]:
    if settings.INBOUND_SENDER_CHECK in POLICIES:
        return []
    return [
        Error(
            f"INBOUND_SENDER_CHECK is {settings.INBOUND_SENDER_CHECK!r}.",
            hint=f"Set it to one of {', '.join(POLICIES)}.",
            id="mailplay.E001",
        )
    ]


@register(Tags.security, deploy=True)
def replies_are_authenticated(app_configs, **kwargs) -> list[Warning]:
    if settings.INBOUND_SENDER_CHECK != FROM_ONLY:
        return []
    return [
        Warning(
            "INBOUND_SENDER_CHECK is from-only: anyone who knows a reply address can move "
            "for its player by writing their address in From.",
            hint="Unset it (the default, authenticated) outside development.",
            id="mailplay.W001",
        )
    ]
