from django.apps import AppConfig


class MailplayConfig(AppConfig):
    name = "mailplay"
    verbose_name = "play by email"

    def ready(self) -> None:
        # Registers the outbox handlers (an inbound message, an answer) and the inbound
        # signal of the hosted providers' webhooks.
        from mailplay import answers, processing, webhooks  # noqa: F401
