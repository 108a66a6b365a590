"""The outbox's Celery tasks, here for Celery's autodiscovery; defined in outbox/delivery.py."""

from outbox.delivery import run_outbox_row, sweep_outbox

__all__ = ["run_outbox_row", "sweep_outbox"]
