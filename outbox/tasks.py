"""The outbox's Celery tasks, here for Celery's autodiscovery; defined in outbox/delivery.py
and outbox/purge.py."""

from outbox.delivery import run_row, sweep_outbox
from outbox.purge import purge_outbox

__all__ = ["purge_outbox", "run_row", "sweep_outbox"]
