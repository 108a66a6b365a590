"""Without chromium, only the browser tests are skipped, and the summary says so; under CI
nothing is skipped. Each case runs pytest on a tiny collection, with CHROMIUM_PATH pointing
where there is no chromium."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLAIN_TEST = "tests/test_dev_script.py::test_emails_follow_web_port"
BROWSER_TEST = "tests/browser/test_chromium_starts.py::test_chromium_renders_a_page"


def run_pytest(tmp_path: Path, **env: str) -> tuple[subprocess.CompletedProcess, dict[str, str]]:
    """Run the two tests; return the run and each test's outcome by name."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CI", "PYTEST_VERSION", "PYTEST_ADDOPTS")
    }
    environment.update(CHROMIUM_PATH=str(tmp_path / "no-chromium"), **env)
    report = tmp_path / "report.xml"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={report}"]
        + [PLAIN_TEST, BROWSER_TEST],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    outcomes = {}
    for case in ET.parse(report).iter("testcase"):
        kinds = [child.tag for child in case if child.tag in ("skipped", "error", "failure")]
        outcomes[case.get("name")] = kinds[0] if kinds else "passed"
    return run, outcomes


@pytest.mark.slow
def test_without_chromium_only_the_browser_tests_are_skipped(tmp_path):
    run, outcomes = run_pytest(tmp_path)
    assert outcomes == {
        "test_emails_follow_web_port": "passed",
        "test_chromium_renders_a_page": "skipped",
    }, run.stdout
    assert run.returncode == 0, run.stdout
    assert f"1 browser test skipped: chromium not found at {tmp_path / 'no-chromium'}" in (
        run.stdout
    )


@pytest.mark.slow
def test_under_ci_a_missing_chromium_fails_the_run(tmp_path):
    run, outcomes = run_pytest(tmp_path, CI="true")
    assert outcomes["test_emails_follow_web_port"] == "passed"
    assert outcomes["test_chromium_renders_a_page"] in ("error", "failure"), run.stdout
    assert run.returncode != 0
    assert "browser test skipped" not in run.stdout
