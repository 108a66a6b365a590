import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load_settings(**overrides: str) -> subprocess.CompletedProcess:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("SECRET_KEY", "DEBUG", "PYTEST_VERSION")
    }
    environment.update(overrides)
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env={**environment, "DJANGO_SETTINGS_MODULE": "hanabi_site.settings"},
        capture_output=True,
        text=True,
    )


def test_production_refuses_to_start_without_secret_key():
    result = _load_settings()
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_production_starts_with_secret_key():
    result = _load_settings(SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr


def test_debug_runs_without_secret_key():
    result = _load_settings(DEBUG="true")
    assert result.returncode == 0, result.stderr
