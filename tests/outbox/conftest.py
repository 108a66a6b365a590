"""The fixtures of the outbox's tests that send through a real SMTP server."""

from tests.mail import send_at_once  # noqa: F401
from tests.notifications.conftest import smtp_server  # noqa: F401
