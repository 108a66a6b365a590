"""Shared fixtures, and the markers that say which real services a test needs.

A test marked `postgres` or `redis` is skipped, with the reason shown, when that service
is not configured (the embedded default); every test under tests/browser/ is marked
`browser` and skipped when chromium is missing, and the summary says how many were. Under
CI (CI=true) nothing is skipped for this reason: a missing service must fail the run, not
hide it.
"""

import fcntl
import os
import shutil
from pathlib import Path

import pytest
from celery._state import _set_task_join_will_block
from django.conf import settings

import tests.run_environment  # noqa: F401  (first: the environment, then Django)
from accounts.models import User
from tests.cache_helpers import clear_cache

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def _database_vendor() -> str:
    engine = settings.DATABASES["default"]["ENGINE"]
    return engine.rsplit(".", 1)[-1]


def _missing_services() -> dict[str, str]:
    missing = {}
    if _database_vendor() != "postgresql":
        missing["postgres"] = "needs PostgreSQL: set DATABASE_URL=postgres://…"
    if not settings.REDIS_URL:
        missing["redis"] = "needs Redis: set REDIS_URL=redis://…"
    if not shutil.which(CHROMIUM):
        missing["browser"] = (
            f"chromium not found at {CHROMIUM} (apt install chromium, or set CHROMIUM_PATH)"
        )
    return missing


@pytest.fixture(autouse=True)
def _celery_runs_tasks_in_the_test():
    """Tasks enqueued by a test run at once in the test's process, so that nothing piles up
    in a real broker with no worker. Tests of real workers turn this off (celery_config)."""
    from tests.celery_helpers import celery_config

    with celery_config(task_always_eager=True):
        yield
    # Celery (5.7) sets a process-wide "joining a result would block" flag around each eager
    # task and restores the old value after: two eager tasks at once (the live server's thread
    # and the test's) can restore it to set, and every later result.get() in this process
    # would then refuse. The test process is never a worker: clear it.
    _set_task_join_will_block(False)


def pytest_report_header(config) -> list[str]:
    database = settings.DATABASES["default"]
    where = database.get("HOST") or database["NAME"]
    return [
        f"database: {_database_vendor()} ({where})",
        f"broker: {settings.CELERY_BROKER_URL.split('@')[-1]}",
        f"CI: {'yes' if os.environ.get('CI') else 'no'}",
    ]


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)
    if os.environ.get("CI"):
        return
    missing = _missing_services()
    for item in items:
        for marker, reason in missing.items():
            if marker in item.keywords:
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    missing = _missing_services()
    if os.environ.get("CI") or "browser" not in missing:
        return
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if "browser" in report.keywords
    ]
    if skipped:
        tests = "test" if len(skipped) == 1 else "tests"
        terminalreporter.write_line(
            f"{len(skipped)} browser {tests} skipped: {missing['browser']}", yellow=True
        )


# Personas, for every folder: alice creates games, bob and carol play with her, mallory
# plays in none, and charlie's account is switched off. They all have the same password.
PASSWORD = "a-long-hanabi-password"


def make_user(name: str, verified: bool = True, **fields) -> User:
    """A persona, its address verified (allauth's EmailAddress) unless told otherwise."""
    from allauth.account.models import EmailAddress

    user = User.objects.create_user(
        f"{name}@example.org", PASSWORD, display_name=name.title(), **fields
    )
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=verified)
    return user


def pytest_configure(config) -> None:
    """Passwords hashed with a fast hasher: Django's default (PBKDF2, a million rounds) takes
    most of a second per account, and the suite makes over a thousand accounts. Only the
    tests' accounts: production keeps the default, which tests/test_settings.py checks."""
    from django.test.utils import override_settings

    override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]).enable()


@pytest.fixture(scope="session", autouse=True)
def _static_files_collected(django_db_blocker):
    """Production's static storage (hashed names, in the manifest) needs collectstatic; the run
    collects into its own STATIC_ROOT (tests/run_environment.py)."""
    from django.core.management import call_command

    settings.STATIC_ROOT.mkdir(parents=True, exist_ok=True)
    # pytest-xdist's workers share the run's STATIC_ROOT: the first collects, the others wait.
    with open(settings.STATIC_ROOT / ".collecting", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (settings.STATIC_ROOT / "staticfiles.json").exists():
            call_command("collectstatic", "--no-input", verbosity=0)


@pytest.fixture(scope="session", autouse=True)
def _translations_compiled():
    """The German and French catalogues as the .po files say (tests/translations.py)."""
    from tests.translations import compile_catalogues

    compile_catalogues()


@pytest.fixture
def translated():
    """For a test that needs German and French: skipped, saying why, without msgfmt."""
    from tests.translations import TRANSLATED, compile_catalogues, is_current

    if not all(is_current(language) for language in TRANSLATED) and not compile_catalogues():
        pytest.skip("the translations are not compiled: msgfmt (Debian's gettext) is missing")


@pytest.fixture(scope="session")
def live_server():
    """pytest-django's live server, but serving static files as production does: whitenoise's
    middleware from STATIC_ROOT under their hashed names, not the finders (which know no
    hashed name)."""
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer("localhost", start=False)
    server.thread.static_handler = _no_static_handler
    server.start()
    yield server
    server.stop()


def _no_static_handler(application):
    return application


@pytest.fixture(autouse=True)
def _cache_starts_empty():
    """allauth counts requests in the cache, and polls and sessions are read from it: each
    test starts with it empty."""
    clear_cache()
    yield


@pytest.fixture
def alice(db) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db) -> User:
    return make_user("bob")


@pytest.fixture
def carol(db) -> User:
    return make_user("carol")


@pytest.fixture
def mallory(db) -> User:
    return make_user("mallory")


@pytest.fixture
def charlie(db) -> User:
    return make_user("charlie", is_active=False)


def make_moderator(name: str = "moderator") -> User:
    """Staff in the Moderators group: the admin and the moderation actions, not a superuser."""
    from django.contrib.auth.models import Group

    moderator = make_user(name)
    moderator.is_staff = True
    moderator.save(update_fields=["is_staff"])
    moderator.groups.add(Group.objects.get(name="Moderators"))
    return moderator
