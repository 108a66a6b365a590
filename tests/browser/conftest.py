"""Real-browser tests: Playwright for Python driving Debian's chromium.

tests/conftest.py marks every test in this folder `browser` and skips them when chromium
is missing (CHROMIUM_PATH, default /usr/bin/chromium), except under CI.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.conftest import CHROMIUM

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results"

# Playwright's sync API runs an event loop in this thread; Django would otherwise refuse
# the test's own database queries as "called from an async context".
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            # Without these, chromium keeps trying to reach Google's hosts on a closed network.
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def log_in_to_admin(page: Page, base: str, email: str, password: str) -> None:
    page.goto(f"{base}/admin/login/")
    page.get_by_label("Email address").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
