"""Real-browser tests: Playwright for Python driving Debian's chromium.

tests/conftest.py marks every test in this folder `browser` and skips them when chromium
is missing (CHROMIUM_PATH, default /usr/bin/chromium), except under CI.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

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


def csp_violations_of(context: BrowserContext, found: list[str]) -> None:
    """Collect what the browser refuses under the Content-Security-Policy (an inline script
    or style, a foreign source): it says so in the console."""

    def note(message) -> None:
        if "Content Security Policy" in message.text:
            found.append(f"{message.location.get('url', '')}: {message.text}")

    context.on("console", note)


@pytest.fixture(autouse=True)
def no_content_security_policy_violations(request, monkeypatch) -> Iterator[None]:
    """Every page every browser test opens keeps to the site's Content-Security-Policy: the
    test fails if the browser refused anything (contexts made by the tests themselves too)."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    found: list[str] = []
    new_context = browser.new_context

    def watched_context(*args, **kwargs) -> BrowserContext:
        context = new_context(*args, **kwargs)
        csp_violations_of(context, found)
        return context

    monkeypatch.setattr(browser, "new_context", watched_context)
    yield
    assert found == [], "the browser refused what the Content-Security-Policy forbids"


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


def logged_in_page(browser: Browser, base: str, user) -> Page:
    """A new page (in a context of its own) logged in as `user` at `base`, without the
    login form: the session is made by the test client's force_login."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return context.new_page()


def log_in_to_admin(page: Page, base: str, email: str, password: str) -> None:
    page.goto(f"{base}/admin/login/")
    page.get_by_label("Email address").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
