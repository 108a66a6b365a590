from django.apps import AppConfig


class MailplayConfig(AppConfig):
    name = "mailplay"
    verbose_name = "play by email"

    def ready(self) -> None:
        # Registers the kinds of outbox row (an inbound message, an answer) and their
        # handlers, and the inbound signal of the hosted providers' webhooks.
        from mailplay import answers, checks, outbox_kinds, processing, webhooks  # noqa: F401
