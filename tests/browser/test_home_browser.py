import pytest
from allauth.account.models import EmailAddress
from playwright.sync_api import Page, expect

from accounts.models import User
from tests.browser.conftest import screenshot


@pytest.mark.django_db(transaction=True)
def test_a_person_logs_in_from_the_home_page(live_server, page: Page):
    ann = User.objects.create_user("ann@example.com", "a long password", display_name="Ann")
    EmailAddress.objects.create(user=ann, email=ann.email, primary=True, verified=True)
    page.goto(live_server.url)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hanabi")
    screenshot(page, "home-anonymous")

    page.get_by_role("link", name="Log in to play").click()
    page.get_by_label("Email address").fill("ann@example.com")
    page.get_by_label("Password").fill("a long password")
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("navigation", name="Account")).to_contain_text("Ann")
    screenshot(page, "home-logged-in")
