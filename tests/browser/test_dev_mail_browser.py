"""Reading the embedded default's email in a browser (DEBUG only): follow the login link
and the unsubscribe link of a message, as a developer would."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse
from playwright.sync_api import Page, expect

from accounts.models import User
from games.emails import send_game_email
from tests.browser.conftest import assert_accessible, screenshot
from tests.conftest import make_user
from tests.games.conftest import start_game
from tests.notifications.conftest import debug_urls, mail_folder  # noqa: F401  (fixtures)

PASSWORD = "fireworks-in-five-colours"


@pytest.mark.django_db(transaction=True)
def test_reading_an_email_and_following_its_links(
    live_server,
    page: Page,
    settings,
    mail_folder,  # noqa: F811
    debug_urls,  # noqa: F811
):
    settings.SITE_URL = live_server.url
    dora = User.objects.create_user("dora@example.org", PASSWORD, display_name="Dora")
    EmailAddress.objects.create(user=dora, email=dora.email, primary=True, verified=True)
    game = start_game(dora, make_user("bob"))
    game_url = live_server.url + reverse("games:detail", args=[game.pk])
    links = [(game, game_url, game.game_options.describe())]  # as games/emails.py's digest
    send_game_email("digest", dora, {"links": links})

    page.goto(f"{live_server.url}/dev/mail/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sent emails")
    assert_accessible(page)
    screenshot(page, "dev-mail-list")

    page.get_by_role("row", name=re.compile("dora@example.org")).get_by_role("link").click()
    expect(page.get_by_role("row", name=re.compile("^List-Unsubscribe-Post"))).to_be_visible()
    email_body = page.frame_locator("iframe")
    expect(email_body.get_by_role("link", name=f"Game {game.pk}")).to_be_visible()
    assert_accessible(page)
    screenshot(page, "dev-mail-message")

    # A link of the HTML body opens in the whole window (the game asks for a login first).
    email_body.get_by_role("link", name=f"Game {game.pk}").click()
    expect(page).to_have_url(re.compile(rf"/login/\?next=/games/{game.pk}/$"))
    page.go_back()

    # The unsubscribe link of the header, clickable on the page.
    header = page.get_by_role("rowheader", name="List-Unsubscribe", exact=True)
    page.get_by_role("row").filter(has=header).get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Stop game emails for dora@example.org?"
    )
    assert_accessible(page)
    screenshot(page, "accounts-unsubscribe")
    page.get_by_role("button", name="Stop game emails").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Game emails are off")
    assert_accessible(page)
    screenshot(page, "accounts-unsubscribed")
    dora.refresh_from_db()
    assert dora.notify == User.Notify.NONE

    # The page's link back to the preferences, after logging in.
    page.get_by_role("link", name="Turn game emails back on in your preferences").click()
    page.get_by_label("Email address").fill("dora@example.org")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your profile")
    expect(page.get_by_role("radio", name="No game emails")).to_be_checked()
    page.get_by_role("radio", name="An email every time it is my turn").check()
    page.get_by_label("Time zone").select_option("Europe/Paris")
    assert_accessible(page)
    screenshot(page, "accounts-profile-preferences")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your profile is saved.")).to_be_visible()
    dora.refresh_from_db()
    assert (dora.notify, dora.time_zone) == (User.Notify.EVERY_TURN, "Europe/Paris")
