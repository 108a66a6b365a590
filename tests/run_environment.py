"""The environment a test run sets before Django reads its settings, then Django set up: the
first import of tests/conftest.py (so pyproject.toml names no settings module: pytest-django
would read the settings before any conftest).

The settings never ask whether they run under pytest: what the tests need that a production
environment does not give them is set here, as the environment, the way an operator would.

- SECRET_KEY: a throwaway key unless the run gives one (CI does).
- CACHE_KEY_PREFIX: with Redis (CI), this run's (and each of its workers') cache and sessions
  keys live under a prefix of their own, so that two runs, or a run and a site, sharing one
  Redis never meet, and a test can clear its cache by deleting that prefix instead of
  flushing a shared server.
- POLL_FROM_CACHE: without Redis each process's cache is its memory, which the settings do not
  trust for polls because a worker's move would never reach it; a test run is one process
  (eager tasks, a live server in a thread), so its memory cache is shared by everything.
- STATIC_ROOT: production's static storage (hashed, compressed names, served by whitenoise)
  needs collectstatic; the run collects into a folder of its own (tests/conftest.py).
"""

import os
import secrets
import tempfile

import django

os.environ.setdefault("SECRET_KEY", "tests-only-" + secrets.token_urlsafe(32))
run_prefix = os.environ.setdefault(
    "CACHE_KEY_PREFIX", f"hanabi-test-{os.getpid()}-{secrets.token_hex(4)}"
)
# pytest-xdist's workers inherit the run's environment, but each has a database of its own and
# empties its cache between tests: each needs its own prefix too.
xdist_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if xdist_worker and not run_prefix.endswith(f"-{xdist_worker}"):
    os.environ["CACHE_KEY_PREFIX"] = f"{run_prefix}-{xdist_worker}"
if not os.environ.get("REDIS_URL"):
    os.environ.setdefault("POLL_FROM_CACHE", "true")
os.environ.setdefault("STATIC_ROOT", tempfile.mkdtemp(prefix="hanabi-static-"))
os.environ["DJANGO_SETTINGS_MODULE"] = "hanabi_site.settings"
django.setup()
# Not left for the processes this one starts: pytest-django would read the settings in a
# pytest-xdist worker before its conftest, so before the worker's own prefix above. Those
# that need it (manage.py, celery -A hanabi_site) name the module themselves.
del os.environ["DJANGO_SETTINGS_MODULE"]
