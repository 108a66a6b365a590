"""python manage.py receive_mail [--host H] [--port P] [--lmtp]: the built-in receiver."""

import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand

from mailplay.receiver import controller


class Command(BaseCommand):
    help = "Receive replies to turn emails over SMTP (or LMTP) and queue them for processing."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default=settings.INBOUND_SMTP_HOST)
        parser.add_argument("--port", type=int, default=settings.INBOUND_SMTP_PORT)
        parser.add_argument("--lmtp", action="store_true", help="speak LMTP instead of SMTP")

    def handle(self, *args, host: str, port: int, lmtp: bool, **options) -> None:
        receiver = controller(host, port, lmtp=lmtp)
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        receiver.start()
        protocol = "LMTP" if lmtp else "SMTP"
        self.stdout.write(
            f"Receiving replies for *@{settings.MAIL_DOMAIN} by {protocol} on {host}:{port}",
            ending="\n",
        )
        self.stdout.flush()
        stop.wait()
        receiver.stop()
