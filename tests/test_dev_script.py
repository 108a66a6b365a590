"""dev.py, the newcomer's entry point: the environment it gives `run`, `check` and `test`."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dev

ROOT = Path(__file__).resolve().parent.parent


def test_run_serves_on_8000_and_emails_link_there_by_default():
    env = dev.run_env({})
    assert env["DEBUG"] == "true"
    assert env["WEB_PORT"] == "8000"
    assert env["SITE_URL"] == "http://127.0.0.1:8000"


def test_emails_follow_web_port():
    assert dev.run_env({"WEB_PORT": "8123"})["SITE_URL"] == "http://127.0.0.1:8123"


def test_a_given_site_url_is_kept():
    env = dev.run_env({"WEB_PORT": "8123", "SITE_URL": "https://hanabi.example.org"})
    assert env["SITE_URL"] == "https://hanabi.example.org"


def test_check_without_secret_key_checks_the_development_settings():
    assert dev.check_env({})["DEBUG"] == "true"
    assert dev.check_env({"DEBUG": "false", "SECRET_KEY": ""})["DEBUG"] == "false"


def test_check_with_secret_key_checks_the_production_settings():
    # .ci/run sets SECRET_KEY: its check must load the settings production loads.
    assert "DEBUG" not in dev.check_env({"SECRET_KEY": "x" * 50})


@pytest.mark.slow
def test_django_check_passes_on_a_fresh_clone():
    fresh = {
        key: value
        for key, value in os.environ.items()
        if key not in ("SECRET_KEY", "DEBUG", "PYTEST_VERSION", "DJANGO_SETTINGS_MODULE")
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=dev.check_env(fresh),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_the_tests_spread_over_a_worker_a_cpu_unless_told_otherwise():
    assert dev.with_workers([]) == ["--numprocesses=auto"]
    assert dev.with_workers(["-m", "not slow"]) == ["--numprocesses=auto", "-m", "not slow"]
    assert dev.with_workers(["-n", "0", "tests/engine"]) == ["-n", "0", "tests/engine"]
    assert dev.with_workers(["-n3"]) == ["-n3"]
    assert dev.with_workers(["--numprocesses=4"]) == ["--numprocesses=4"]
    assert dev.with_workers(["-p", "no:xdist"]) == ["-p", "no:xdist"]


def test_chromium_is_installed_only_for_runs_that_may_reach_the_browser_tests():
    assert dev.selects_browser_tests([])
    assert dev.selects_browser_tests(["-x", "-m", "not slow"])
    assert dev.selects_browser_tests(["tests"])
    assert dev.selects_browser_tests(["tests/browser"])
    assert dev.selects_browser_tests(["tests/engine", "tests/browser/conftest.py::x"])
    assert not dev.selects_browser_tests(["tests/engine"])
    assert not dev.selects_browser_tests(["tests/test_dev_script.py::test_x", "-q"])


class Commands:
    """Stands in for subprocess.run: records each command, succeeds."""

    def __init__(self):
        self.run = []

    def __call__(self, command, **kwargs):
        self.run.append(command)
        return subprocess.CompletedProcess(command, 0)


def test_chromium_is_installed_with_apt_get_when_missing_and_root(monkeypatch, tmp_path, capsys):
    commands = Commands()
    monkeypatch.setattr(dev, "DEFAULT_CHROMIUM", str(tmp_path / "chromium"))
    monkeypatch.setattr(dev.subprocess, "run", commands)
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0, raising=False)
    monkeypatch.setattr(dev.shutil, "which", lambda name: f"/usr/bin/{name}")
    dev.ensure_chromium({})
    assert commands.run == [
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium"],
    ]
    assert "installing Debian's chromium" in capsys.readouterr().out


def test_without_root_chromium_is_not_installed_and_the_run_says_so(monkeypatch, tmp_path, capsys):
    commands = Commands()
    monkeypatch.setattr(dev, "DEFAULT_CHROMIUM", str(tmp_path / "chromium"))
    monkeypatch.setattr(dev.subprocess, "run", commands)
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000, raising=False)
    dev.ensure_chromium({})
    assert commands.run == []
    assert "the browser tests will be skipped" in capsys.readouterr().out


def test_an_existing_chromium_is_used_as_it_is(monkeypatch, tmp_path):
    commands = Commands()
    chromium = tmp_path / "chromium"
    chromium.touch()
    monkeypatch.setattr(dev.subprocess, "run", commands)
    dev.ensure_chromium({"CHROMIUM_PATH": str(chromium)})
    assert commands.run == []


def test_gettext_is_installed_with_apt_get_when_msgfmt_is_missing_and_root(monkeypatch, capsys):
    commands = Commands()
    monkeypatch.setattr(dev.subprocess, "run", commands)
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0, raising=False)
    monkeypatch.setattr(dev.shutil, "which", lambda name: None if name == "msgfmt" else name)
    assert dev.ensure_gettext({})
    assert commands.run == [
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", "gettext"],
    ]
    assert "installing Debian's gettext" in capsys.readouterr().out


def test_without_msgfmt_or_root_the_translations_are_not_compiled_and_the_run_says_so(
    monkeypatch, capsys
):
    commands = Commands()
    monkeypatch.setattr(dev.subprocess, "run", commands)
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000, raising=False)
    monkeypatch.setattr(dev.shutil, "which", lambda name: None if name == "msgfmt" else name)
    monkeypatch.setattr(dev, "UV", "uv", raising=False)
    dev.compile_messages({})
    assert commands.run == []
    assert "English only" in capsys.readouterr().out


def test_the_translations_are_compiled_by_compilemessages_outside_the_venv(monkeypatch):
    commands = Commands()
    monkeypatch.setattr(dev.subprocess, "run", commands)
    monkeypatch.setattr(dev.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(dev, "UV", "uv", raising=False)
    dev.compile_messages({})
    (command,) = commands.run
    assert command[:5] == ["uv", "run", "python", "manage.py", "compilemessages"]
    assert command[command.index(".venv") - 1] == "--ignore"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="msgfmt (gettext) is missing")
def test_compilemessages_compiles_the_sites_catalogues(tmp_path):
    """What dev.py runs, on a copy of the catalogues: a .mo for German and French."""
    fresh = {key: value for key, value in os.environ.items() if key != "SECRET_KEY"}
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "locale", locale, ignore=shutil.ignore_patterns("*.mo", ".compiling"))
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "compilemessages", "-v", "0"],
        cwd=tmp_path,
        env=dev.check_env(fresh),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert sorted(path.parent.parent.name for path in locale.glob("*/LC_MESSAGES/django.mo")) == [
        "de",
        "fr",
    ]
