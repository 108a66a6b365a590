"""The ASGI process (push; the whole site under `dev.py run`) keeps no idle PostgreSQL
connection per thread: hanabi_site/asgi.py turns persistent connections off, while the
WSGI web processes keep theirs (CONN_MAX_AGE's default)."""

import os
import subprocess
import sys

from tests.celery_helpers import ROOT

PRINT_MAX_AGE = (
    "import {module}; from django.conf import settings;"
    " print(settings.DATABASES['default']['CONN_MAX_AGE'])"
)


def max_age_under(module: str) -> str:
    env = {key: value for key, value in os.environ.items() if key != "CONN_MAX_AGE"}
    env["DEBUG"] = "true"
    result = subprocess.run(
        [sys.executable, "-c", PRINT_MAX_AGE.format(module=module)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def test_the_asgi_process_keeps_no_persistent_connection():
    assert max_age_under("hanabi_site.asgi") == "0"


def test_the_wsgi_processes_keep_their_persistent_connections():
    assert max_age_under("hanabi_site.wsgi") == "60"
