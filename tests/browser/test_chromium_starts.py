"""The smallest browser test: chromium starts and renders a page, no site involved. When the
other browser tests fail, this one says whether chromium itself is the problem."""

from playwright.sync_api import Page, expect


def test_chromium_renders_a_page(page: Page):
    page.set_content("<title>Hanabi</title><h1>Fireworks</h1>")
    expect(page).to_have_title("Hanabi")
    expect(page.get_by_role("heading", level=1)).to_have_text("Fireworks")
