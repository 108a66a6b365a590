"""Every kind of outbox row has a handler, and the site refuses to start when one has none."""

import pytest
from django.core.checks import run_checks

from outbox import registry
from outbox.checks import every_kind_has_a_handler
from outbox.delivery import schedule
from outbox.models import Outbox


def test_every_kind_of_row_has_a_handler():
    assert registry.kinds_without_handler() == []
    for kind in Outbox.Kind.values:
        assert callable(registry.handler_for(kind))


def test_the_system_check_fails_for_a_kind_without_a_handler(monkeypatch):
    assert every_kind_has_a_handler(None) == []
    handlers = dict(registry._handlers)
    del handlers[Outbox.Kind.YOUR_TURN]
    monkeypatch.setattr(registry, "_handlers", handlers)

    (error,) = every_kind_has_a_handler(None)
    assert error.id == "outbox.E001"
    assert "'your_turn'" in error.msg
    assert error in run_checks()  # manage.py check (and every start) reports it


def test_a_handler_for_an_unknown_kind_is_refused_at_registration():
    with pytest.raises(ValueError, match="not a kind of outbox row"):
        registry.handler("carrier_pigeon")


@pytest.mark.django_db
def test_a_row_of_a_kind_nobody_carries_out_is_never_written(monkeypatch):
    monkeypatch.setattr(registry, "_handlers", {})
    with pytest.raises(KeyError):
        schedule(Outbox.Kind.DIGEST, {"user": 1})
    assert not Outbox.objects.exists()
