#!/usr/bin/env python3
"""Set up and run the site, or its tests, on a machine with nothing but Python 3.11+ and pip.

    python3 dev.py run     install, migrate, create the demo account, then start
                           the web server (uvicorn: the pages and their push
                           streams), the Celery workers (tasks; analyses),
                           beat and the mail receiver (Ctrl-C stops all)
    python3 dev.py test    install what the tests need (chromium too, as root with
                           apt-get) and run the whole suite, one process per CPU
                           (extra arguments go to pytest; -n 0 for one process)
    python3 dev.py check   lint, format check, Django's checks, no missing migration

Each first compiles the translations (msgfmt: Debian's gettext, installed as root if missing).

`run` serves on WEB_PORT (default 8000) and sets SITE_URL, the address in emails, to match.

Both are safe to run again: every step is idempotent.
"""

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent
TOOLS = ROOT / "var" / "tools"
DEMO_EMAIL = "demo@example.com"
DEMO_PASSWORD = "hanabi-demo"
# Where the browser tests look for chromium (tests/conftest.py reads the same variable).
DEFAULT_CHROMIUM = "/usr/bin/chromium"
BROWSER_TESTS = ROOT / "tests" / "browser"


def find_or_install_uv() -> str:
    for candidate in (shutil.which("uv"), TOOLS / "bin" / "uv"):
        if candidate and Path(candidate).exists():
            return str(candidate)
    print("uv not found: installing it into var/tools with pip", flush=True)
    # --target installs outside any environment, so it works even where the system
    # Python is "externally managed" (PEP 668) and there is no venv module.
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(TOOLS), "uv"],
        check=True,
    )
    return str(TOOLS / "bin" / "uv")


def uv(*args: str, env: dict[str, str]) -> None:
    subprocess.run([UV, *args], cwd=ROOT, env=env, check=True)


def base_env(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    env = dict(environ)
    # Use the Python that runs this script: nothing is downloaded.
    env.setdefault("UV_PYTHON", sys.executable)
    env.setdefault("UV_PYTHON_DOWNLOADS", "never")
    return env


def run_env(environ: Mapping[str, str]) -> dict[str, str]:
    """DEBUG on, the web server's port, and SITE_URL at that port unless it is given: emails
    link to SITE_URL, so they must follow WEB_PORT."""
    env = base_env(environ)
    env.setdefault("DEBUG", "true")
    env.setdefault("WEB_PORT", "8000")
    env.setdefault("SITE_URL", f"http://127.0.0.1:{env['WEB_PORT']}")
    env.setdefault("INBOUND_SMTP_PORT", "8025")
    # /dev/mail/'s reply box sends unsigned replies: take their From as written (the page
    # says so; production's default moves only on authenticated replies).
    env.setdefault("INBOUND_SENDER_CHECK", "from-only")
    return env


def check_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The settings refuse to load without SECRET_KEY unless DEBUG is on: a fresh clone has
    none, so check the development settings as `run` does. CI sets SECRET_KEY, and so
    checks the production settings."""
    env = base_env(environ)
    if not env.get("SECRET_KEY"):
        env.setdefault("DEBUG", "true")
    return env


def selects_browser_tests(pytest_args: list[str]) -> bool:
    """Whether a run may include tests/browser/: yes unless the arguments name test paths
    and none of them is in or above tests/browser/."""
    paths = []
    for arg in pytest_args:
        path = ROOT / arg.split("::")[0]
        if not arg.startswith("-") and path.exists():
            paths.append(path.resolve())
    return not paths or any(
        path == BROWSER_TESTS or path in BROWSER_TESTS.parents or BROWSER_TESTS in path.parents
        for path in paths
    )


def ensure_chromium(env: Mapping[str, str]) -> None:
    """Install Debian's chromium for the browser tests when it is missing and this process
    may (root, with apt-get), as .ci/run does; otherwise pytest skips only those tests and
    its summary says how many."""
    chromium = env.get("CHROMIUM_PATH", DEFAULT_CHROMIUM)
    if Path(chromium).exists():
        return
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if chromium != DEFAULT_CHROMIUM or not is_root or not shutil.which("apt-get"):
        print(f"chromium not found at {chromium}: the browser tests will be skipped", flush=True)
        return
    print(f"chromium not found at {chromium}: installing Debian's chromium", flush=True)
    apt_env = {**env, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium"],
    ):
        if subprocess.run(command, env=apt_env).returncode != 0:
            print("installing chromium failed: the browser tests will be skipped", flush=True)
            return


def ensure_gettext(env: Mapping[str, str]) -> bool:
    """Whether msgfmt (Debian's gettext), which compiles the translations, is here: installed
    when missing and this process may (root, with apt-get), as .ci/run does. Without it the
    site still runs, in English only, and the tests that need the translations are skipped."""
    if shutil.which("msgfmt"):
        return True
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if is_root and shutil.which("apt-get"):
        print("msgfmt not found: installing Debian's gettext", flush=True)
        apt_env = {**env, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (
            ["apt-get", "update", "-q"],
            ["apt-get", "install", "-y", "-q", "--no-install-recommends", "gettext"],
        ):
            if subprocess.run(command, env=apt_env).returncode != 0:
                break
        else:
            return True
    print(
        "msgfmt (gettext) not found: the translations are not compiled, the site speaks "
        "English only and the tests that need German or French are skipped",
        flush=True,
    )
    return False


# Folders compilemessages must not walk into: others' translations, not the site's.
NOT_OURS = (".venv", "var", "node_modules", "staticfiles", "test-results", ".git")


def compile_messages(env: Mapping[str, str]) -> None:
    """The site's translations (locale/<language>/LC_MESSAGES/django.po) compiled to the .mo
    files Django reads. Those are built here, never committed."""
    if ensure_gettext(env):
        ignore = [argument for name in NOT_OURS for argument in ("--ignore", name)]
        # The settings load without SECRET_KEY only with DEBUG on, as for `check`.
        uv("run", "python", "manage.py", "compilemessages", "-v", "0", *ignore, env=check_env(env))


def run() -> None:
    env = run_env(os.environ)
    uv("sync", "--locked", env=env)
    compile_messages(env)
    uv("run", "python", "manage.py", "migrate", "--no-input", env=env)
    uv("run", "python", "manage.py", "ensure_demo_user", DEMO_EMAIL, DEMO_PASSWORD, env=env)
    url = f"http://127.0.0.1:{env['WEB_PORT']}/"
    print(
        f"\n  Hanabi is starting at {url}\n"
        f"  Log in as {DEMO_EMAIL} with password {DEMO_PASSWORD} (also at {url}admin/)\n"
        f"  Emails the site sends are listed at {url}dev/mail/ (reply to a turn email there to\n"
        f"  move by email: replies go over SMTP to 127.0.0.1:{env['INBOUND_SMTP_PORT']})\n"
        "  Ctrl-C stops the web server, the workers and beat.\n",
        flush=True,
    )
    os.chdir(ROOT)
    os.execvpe(UV, [UV, "run", "honcho", "-f", "Procfile.dev", "start"], env)


def with_workers(pytest_args: list[str]) -> list[str]:
    """The tests spread over one pytest-xdist worker a CPU, unless the arguments say how many
    (`-n 0` runs them in this process). Many tests wait on a worker, a browser or a server,
    so two processes finish the suite in well under the time of one even on 2 CPUs."""
    chosen = any(
        arg in ("-n", "--numprocesses", "no:xdist") or arg.startswith(("-n", "--numprocesses="))
        for arg in pytest_args
    )
    return pytest_args if chosen else ["--numprocesses=auto", *pytest_args]


def test(pytest_args: list[str]) -> None:
    env = base_env()
    uv("sync", "--locked", env=env)
    compile_messages(env)
    if selects_browser_tests(pytest_args):
        ensure_chromium(env)
    result = subprocess.run([UV, "run", "pytest", *with_workers(pytest_args)], cwd=ROOT, env=env)
    sys.exit(result.returncode)


def check() -> None:
    env = check_env(os.environ)
    uv("sync", "--locked", env=env)
    compile_messages(env)
    uv("run", "ruff", "check", ".", env=env)
    uv("run", "ruff", "format", "--check", ".", env=env)
    uv("run", "python", "manage.py", "check", env=env)
    uv("run", "python", "manage.py", "makemigrations", "--check", "--dry-run", env=env)


if __name__ == "__main__":
    # Ruff assumes 3.11; whoever runs this may not have it yet.
    if sys.version_info < (3, 11):  # noqa: UP036
        sys.exit(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}")
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command not in ("run", "test", "check"):
        sys.exit(__doc__)
    UV = find_or_install_uv()
    if command == "run":
        run()
    elif command == "check":
        check()
    else:
        test(sys.argv[2:])
