"""A player who is not logged in follows the link in their turn email and moves; the link
opens that game only, not the account."""

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Move
from tests.browser.conftest import screenshot
from tests.games.conftest import current_user, start_game


@pytest.mark.django_db(transaction=True)
def test_the_turn_email_link_opens_the_game_and_the_move_is_made_but_not_the_account(
    live_server, page: Page, settings, mailoutbox, alice, bob
):
    settings.SITE_URL = live_server.url
    settings.NOTIFY_DELAY_SECONDS = 0
    game = start_game(alice, bob, turn_time_limit=24)
    mover = current_user(game)
    (email,) = [m for m in mailoutbox if m.to == [mover.email]]
    link = re.search(r"(http://\S+/accounts/open/\S+)", email.body).group(1)
    assert link.startswith(live_server.url)

    page.goto(link)
    expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".status-line")).to_contain_text("It is your turn")
    expect(page.locator(".deadline")).to_contain_text("Time to move")
    screenshot(page, "turn-page-from-email")
    page.get_by_role("button", name=re.compile(r"^Clue ")).first.click()
    expect(page.locator(".status-line")).to_contain_text("Waiting for")
    assert Move.objects.filter(game=game, turn=0, seat=game.current_seat).exists()

    # The other player is emailed in turn.
    other = current_user(game)
    assert any(m.to == [other.email] for m in mailoutbox)

    # The header names the player, not logged in (issue 27); their profile asks for a login.
    expect(page.get_by_role("navigation", name="Account")).to_contain_text(
        f"as {mover.display_name} (not logged in)"
    )
    page.goto(f"{live_server.url}/accounts/profile/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/accounts/profile/$"))
    expect(page.get_by_role("button", name="Log in")).to_be_visible()

    # The same link again (the email clicked twice) opens the game again.
    page.goto(link)
    expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".status-line")).to_contain_text("Waiting for")
