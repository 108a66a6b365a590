import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core import mail
from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}
PASSWORD_LABEL = re.compile(r"^Password:?$")


def screenshots(page: Page, name: str) -> None:
    """The page at a desktop width and at a phone's, after an accessibility check."""
    results = Axe().run(page)
    assert results.violations_count == 0, f"{name}:\n{results.generate_report()}"
    screenshot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, f"{name}-phone")
    page.set_viewport_size(DESKTOP)


@pytest.mark.django_db(transaction=True)
def test_a_person_signs_up_logs_out_and_comes_back_by_a_link(live_server, page: Page, settings):
    settings.SITE_URL = live_server.url  # links in emails point at the test server
    account = page.get_by_role("navigation", name="Account")

    page.goto(f"{live_server.url}/accounts/signup/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign up")
    page.get_by_label("Email address").fill("dora@example.org")
    page.get_by_label("Display name").fill("Dora")
    page.get_by_label(PASSWORD_LABEL).fill("short")
    page.get_by_label("Password confirmation").fill("short")
    page.get_by_role("button", name="Create my account").click()
    # Refused, with the reason next to the field.
    expect(page.get_by_label("Password confirmation")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_password2_error")).to_contain_text("too short")
    screenshots(page, "accounts-signup-error")

    page.get_by_label(PASSWORD_LABEL).fill("fireworks-in-five-colours")
    page.get_by_label("Password confirmation").fill("fireworks-in-five-colours")
    page.get_by_role("button", name="Create my account").click()
    expect(account).to_contain_text("Dora")

    account.get_by_role("link", name="Dora").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your profile")
    expect(page.get_by_label("Email address")).to_have_value("dora@example.org")
    screenshots(page, "accounts-profile")

    account.get_by_role("button", name="Log out").click()
    expect(account.get_by_role("link", name="Log in")).to_be_visible()

    # Coming back to a page that needs a login, without a password at hand.
    page.goto(f"{live_server.url}/accounts/profile/")
    expect(page).to_have_url(re.compile(r"/login/\?next="))
    page.get_by_role("link", name="Email me a login link").click()
    page.get_by_label("Email address").fill("Dora@example.org")
    page.get_by_role("button", name="Email me a link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your email")

    (message,) = mail.outbox
    (url,) = re.findall(r"https?://\S+", message.body)
    page.goto(url)
    expect(page).to_have_url(f"{live_server.url}/accounts/profile/")
    expect(account).to_contain_text("Dora")


@pytest.mark.django_db(transaction=True)
def test_the_account_pages_at_both_widths(live_server, page: Page):
    page.goto(f"{live_server.url}/accounts/signup/")
    screenshots(page, "accounts-signup")
    page.goto(f"{live_server.url}/login/")
    screenshots(page, "accounts-login")
    page.goto(f"{live_server.url}/accounts/login-link/")
    screenshots(page, "accounts-login-link")
    page.goto(f"{live_server.url}/accounts/password-reset/")
    screenshots(page, "accounts-password-reset")
    page.goto(f"{live_server.url}/accounts/link/?sesame=broken")
    expect(page.get_by_role("heading", level=1)).to_have_text("This link does not work")
    screenshots(page, "accounts-link-invalid")
