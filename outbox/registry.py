"""The kinds of outbox row, and which function carries out each. The outbox names none of
them: the app that writes a kind registers it (`register`: its name, a label for people,
the queue its rows run on) in its own `outbox_kinds` module, and its handler with
`@handler`, both imported from its AppConfig.ready. A new kind needs no migration
(`Outbox.kind` is a plain CharField). A system check (outbox/checks.py) fails the start if
a kind has no handler."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from outbox.models import Outbox

Handler = Callable[[Outbox], None]

# A kind registered without a queue runs on Celery's default queue.
DEFAULT_QUEUE = ""

_NAME = re.compile(r"[a-z][a-z0-9_]*")
_NAME_MAX_LENGTH = Outbox._meta.get_field("kind").max_length


@dataclass(frozen=True)
class Kind:
    name: str
    label: str
    # The queue its rows run on, by the end of its name: "" for the default queue, or e.g.
    # "analysis" for `<default queue>-analysis` (outbox.delivery.queue_for), consumed by a
    # worker of its own so that slow work never holds up fast work.
    queue: str = DEFAULT_QUEUE
    # For a kind written with a dedupe key: how long after a row is done its key is sure
    # never to be scheduled again, so that the purge may delete it (outbox/purge.py). None:
    # its keyed rows are kept for good.
    key_cannot_recur_after: timedelta | None = None


_kinds: dict[str, Kind] = {}
_handlers: dict[str, Handler] = {}


class UnknownKind(LookupError):
    """A row of a kind nothing in this process carries out: a kind retired while rows of it
    waited, or written by a newer release than this worker's."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"no handler is registered for outbox rows of kind {kind!r}")
        self.kind = kind


def register(
    name: str,
    label: str,
    *,
    queue: str = DEFAULT_QUEUE,
    key_cannot_recur_after: timedelta | None = None,
) -> str:
    """Register a kind of outbox row; returns its name, the constant its writers use."""
    if not _NAME.fullmatch(name) or len(name) > _NAME_MAX_LENGTH:
        raise ValueError(
            f"{name!r} cannot name a kind of outbox row: lower case letters, digits and _, "
            f"at most {_NAME_MAX_LENGTH} characters"
        )
    if queue and not _NAME.fullmatch(queue):
        raise ValueError(f"{queue!r} cannot end a queue's name: lower case letters, digits, _")
    new = Kind(name, label, queue, key_cannot_recur_after)
    if _kinds.setdefault(name, new) != new:
        raise ValueError(f"the outbox kind {name!r} is registered already, differently")
    return name


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Register the function that carries out one kind of outbox row."""
    if kind not in _kinds:
        raise ValueError(
            f"{kind!r} is not a kind of outbox row: register it first (outbox.registry.register)"
        )

    def register_handler(function: Handler) -> Handler:
        _handlers[kind] = function
        return function

    return register_handler


def handler_for(kind: str) -> Handler:
    try:
        return _handlers[kind]
    except KeyError:
        raise UnknownKind(kind) from None


def registered(name: str) -> Kind | None:
    """The registered kind of this name, or None (a row of a retired or newer kind)."""
    return _kinds.get(name)


def kinds() -> list[Kind]:
    return list(_kinds.values())


def kinds_without_handler() -> list[str]:
    return [name for name in _kinds if name not in _handlers]


class Retry(Exception):
    """Raised by a handler to try again later, without counting a failure."""

    def __init__(self, delay: timedelta) -> None:
        super().__init__(f"retry in {delay}")
        self.delay = delay
