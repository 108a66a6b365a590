"""The play-by-email page reads well at desktop and phone widths and passes axe-core."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, expect

from tests.browser.conftest import screenshot


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("name", "width", "height"), [("desktop", 1280, 900), ("phone", 390, 844)])
def test_the_play_by_email_page(live_server, browser: Browser, name, width, height):
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{live_server.url}/by-email/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Play by email")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    # Nothing wider than the screen on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"by-email-{name}")
