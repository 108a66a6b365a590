"""The play-by-email Celery tasks, here for Celery's autodiscovery (mailplay/purge.py)."""

from mailplay.purge import purge_inbound

__all__ = ["purge_inbound"]
