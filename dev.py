#!/usr/bin/env python3
"""Set up and run the site, or its tests, on a machine with nothing but Python 3.11+ and pip.

    python3 dev.py run     install, migrate, create the demo account, then start
                           the web server, a Celery worker and beat (Ctrl-C stops all)
    python3 dev.py test    install what the tests need and run the whole suite
                           (extra arguments go to pytest)
    python3 dev.py check   lint, format check, Django's checks, no missing migration

Both are safe to run again: every step is idempotent.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
TOOLS = ROOT / "var" / "tools"
DEMO_EMAIL = "demo@example.com"
DEMO_PASSWORD = "hanabi-demo"


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


def base_env() -> dict[str, str]:
    env = dict(os.environ)
    # Use the Python that runs this script: nothing is downloaded.
    env.setdefault("UV_PYTHON", sys.executable)
    env.setdefault("UV_PYTHON_DOWNLOADS", "never")
    return env


def run() -> None:
    env = base_env()
    env.setdefault("DEBUG", "true")
    env.setdefault("WEB_PORT", "8000")
    uv("sync", "--locked", env=env)
    uv("run", "python", "manage.py", "migrate", "--no-input", env=env)
    uv("run", "python", "manage.py", "ensure_demo_user", DEMO_EMAIL, DEMO_PASSWORD, env=env)
    url = f"http://127.0.0.1:{env['WEB_PORT']}/"
    print(
        f"\n  Hanabi is starting at {url}\n"
        f"  Log in as {DEMO_EMAIL} with password {DEMO_PASSWORD} (also at {url}admin/)\n"
        f"  Emails the site sends are listed at {url}dev/mail/\n"
        "  Ctrl-C stops the web server, the worker and beat.\n",
        flush=True,
    )
    os.chdir(ROOT)
    os.execvpe(UV, [UV, "run", "honcho", "-f", "Procfile.dev", "start"], env)


def test(pytest_args: list[str]) -> None:
    env = base_env()
    uv("sync", "--locked", env=env)
    result = subprocess.run([UV, "run", "pytest", *pytest_args], cwd=ROOT, env=env)
    sys.exit(result.returncode)


def check() -> None:
    env = base_env()
    uv("sync", "--locked", env=env)
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
