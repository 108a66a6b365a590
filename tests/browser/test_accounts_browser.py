import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core import mail
from playwright.sync_api import Page, expect

from tests.accounts.conftest import send_account_emails
from tests.browser.conftest import screenshot

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}
PASSWORD_LABEL = re.compile(r"^Password:?$")
PASSWORD_AGAIN = re.compile(r"^Password \(again\):?$")


def screenshots(page: Page, name: str) -> None:
    """The page at a desktop width and at a phone's, after an accessibility check."""
    results = Axe().run(page)
    assert results.violations_count == 0, f"{name}:\n{results.generate_report()}"
    screenshot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, f"{name}-phone")
    page.set_viewport_size(DESKTOP)


def emailed(pattern: str) -> str:
    """What the last email sent matches (the workers' job, done here)."""
    send_account_emails()
    (found,) = re.findall(pattern, mail.outbox[-1].body, re.MULTILINE)
    return found


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_person_signs_up_verifies_logs_out_and_comes_back_by_a_code(
    live_server, page: Page, settings
):
    settings.SITE_URL = live_server.url  # links in emails point at the test server
    account = page.get_by_role("navigation", name="Account")

    page.goto(f"{live_server.url}/accounts/signup/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign up")
    page.get_by_label("Email").fill("dora@example.org")
    page.get_by_label("Display name").fill("Dora")
    page.get_by_label(PASSWORD_LABEL).fill("short")
    page.get_by_label(PASSWORD_AGAIN).fill("short")
    page.get_by_role("button", name="Create my account").click()
    # Refused, with the reason next to the field.
    expect(page.locator("#id_password1_error")).to_contain_text("too short")
    screenshots(page, "accounts-signup-error")

    page.get_by_label(PASSWORD_LABEL).fill("fireworks-in-five-colours")
    page.get_by_label(PASSWORD_AGAIN).fill("fireworks-in-five-colours")
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Confirm your email address")
    screenshots(page, "accounts-verification-sent")

    page.goto(emailed(r"(https?://\S+/accounts/confirm-email/\S+)"))
    screenshots(page, "accounts-email-confirm")
    page.get_by_role("button", name="Confirm").click()
    expect(account).to_contain_text("Dora")

    account.get_by_role("link", name="Dora").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your profile")
    expect(page.get_by_role("main")).to_contain_text("dora@example.org")
    screenshots(page, "accounts-profile")

    account.get_by_role("button", name="Log out").click()
    expect(account.get_by_role("link", name="Log in")).to_be_visible()

    # Coming back to a page that needs a login, without a password at hand.
    page.goto(f"{live_server.url}/accounts/profile/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    page.get_by_role("link", name="Email me a login code").click()
    page.get_by_label("Email").fill("Dora@example.org")
    page.get_by_role("button", name="Email me a code").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Enter your login code")
    screenshots(page, "accounts-confirm-login-code")

    page.get_by_label("Code").fill(emailed(r"^([A-Z0-9]{4}-[A-Z0-9]{4})$"))
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{live_server.url}/accounts/profile/")
    expect(account).to_contain_text("Dora")

    # Changing the address asks for the password first.
    page.get_by_role("link", name="Change your email address").click()
    page.get_by_label("Email").fill("dora@example.net")
    page.get_by_role("button", name="Change my address").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Confirm it is you")
    screenshots(page, "accounts-reauthenticate")
    page.get_by_label(PASSWORD_LABEL).fill("fireworks-in-five-colours")
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("main")).to_contain_text("Changing to dora@example.net")
    screenshots(page, "accounts-email")


@pytest.mark.django_db(transaction=True)
def test_the_account_pages_at_both_widths(live_server, page: Page, alice):
    page.goto(f"{live_server.url}/accounts/signup/")
    screenshots(page, "accounts-signup")
    page.goto(f"{live_server.url}/login/")
    expect(page).to_have_url(f"{live_server.url}/accounts/login/")
    screenshots(page, "accounts-login")
    page.goto(f"{live_server.url}/accounts/login/code/")
    screenshots(page, "accounts-login-code")
    page.goto(f"{live_server.url}/accounts/password/reset/")
    screenshots(page, "accounts-password-reset")
    page.goto(f"{live_server.url}/accounts/open/broken/")  # a scoped link cut short
    expect(page.get_by_role("heading", level=1)).to_have_text("This link does not work")
    screenshots(page, "accounts-link-invalid")
    # No inline script on any of them: the Content-Security-Policy will forbid it.
    for path in ("/accounts/signup/", "/accounts/login/", "/accounts/password/reset/"):
        page.goto(f"{live_server.url}{path}")
        assert page.locator("script:not([src])").count() == 0
