"""/healthz: is this process able to reach the database and the broker?

The answer is public, so it names what failed and nothing more: the exception (which can
carry host names, ports or paths) goes to the log.
"""

import logging

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from hanabi_site.celery import app as celery_app

logger = logging.getLogger(__name__)


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _check_broker() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=3)
        # Opening a channel makes the transport really talk to the broker.
        _ = conn.default_channel


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database, "broker": _check_broker}
    results: dict[str, str] = {}
    for name, check in checks.items():
        try:
            check()
        except Exception:  # any failure is the answer we report
            logger.exception("health check failed: %s", name)
            results[name] = "failed"
        else:
            results[name] = "ok"
    healthy = all(value == "ok" for value in results.values())
    return JsonResponse(
        {"status": "ok" if healthy else "failed", **results}, status=200 if healthy else 503
    )
