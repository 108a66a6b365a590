"""Real-browser tests: Playwright for Python driving Debian's chromium.

tests/conftest.py marks every test in this folder `browser` and skips them when chromium
is missing (CHROMIUM_PATH, default /usr/bin/chromium), except under CI.
"""

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core import mail
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.accounts.conftest import send_account_emails
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


def log_in(page: Page, base: str, email: str, password: str) -> None:
    """Log in through the site's form."""
    page.goto(f"{base}/login/")  # on to allauth's /accounts/login/
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


SIGN_UP_PASSWORD = "a long enough password"


def sign_up(page: Page, base: str, email: str, name: str) -> None:
    """Sign up through the form and confirm the address by the link emailed to it."""
    page.goto(f"{base}/accounts/signup/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Display name").fill(name)
    page.get_by_label(re.compile(r"^Password:?$")).fill(SIGN_UP_PASSWORD)
    page.get_by_label(re.compile(r"^Password \(again\):?$")).fill(SIGN_UP_PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Confirm your email address")
    # The address is verified by the link emailed to it (sent here, as a worker would).
    send_account_emails()
    (message,) = [m for m in mail.outbox if m.to == [email]]
    (path,) = re.findall(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", message.body)
    page.goto(f"{base}{path}")
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("navigation", name="Account")).to_contain_text(name)


def assert_accessible(page: Page, name: str = "") -> None:
    """No violation of axe-core's rules on the page (`name` says which, in the report)."""
    results = Axe().run(page)
    assert results.violations_count == 0, f"{name}:\n{results.generate_report()}"


def take_turn(page: Page, preference: tuple[str, ...]) -> str:
    """Make one move on the page of the player whose turn it is: the first kind of move in
    `preference` that the page offers (a play is confirmed). Returns the kind."""
    buttons = {
        "clue": page.get_by_role("button", name=re.compile(r"^Clue ")),
        "discard": page.get_by_role("button", name=re.compile(r"^Discard the card in slot")),
        "play": page.get_by_role("button", name=re.compile(r"^Play the card in slot")),
    }
    for kind in preference:
        if buttons[kind].count():
            buttons[kind].first.click()
            if kind == "play":
                page.get_by_role("button", name="Yes, play it").click()
            return kind
    raise AssertionError("no move offered")
