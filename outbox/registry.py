"""Which function carries out each kind of outbox row. The app that writes a kind registers
its handler (in its AppConfig.ready); a system check (outbox/checks.py) fails the start if a
kind has none."""

from collections.abc import Callable
from datetime import timedelta

from outbox.models import Outbox

Handler = Callable[[Outbox], None]

_handlers: dict[str, Handler] = {}


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Register the function that carries out one kind of outbox row."""
    if kind not in Outbox.Kind.values:
        raise ValueError(f"{kind!r} is not a kind of outbox row: add it to Outbox.Kind")

    def register(function: Handler) -> Handler:
        _handlers[kind] = function
        return function

    return register


def handler_for(kind: str) -> Handler:
    return _handlers[kind]


def kinds_without_handler() -> list[str]:
    return [kind for kind in Outbox.Kind.values if kind not in _handlers]


class Retry(Exception):
    """Raised by a handler to try again later, without counting a failure."""

    def __init__(self, delay: timedelta) -> None:
        super().__init__(f"retry in {delay}")
        self.delay = delay
