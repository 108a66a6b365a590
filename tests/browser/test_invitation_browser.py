"""Issue 27 in a browser: a newcomer follows an invitation link, reads who invites them to
what, signs up (the address confirmed by the emailed link) and lands back on the join
page, and takes the seat. And a game email's pass, which is not a login, says so in the
header at both widths."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.emails import game_link
from games.engine import GameOptions
from games.models import Game
from games.services import lobby
from tests.accounts.conftest import send_account_emails
from tests.browser.conftest import SIGN_UP_PASSWORD, assert_accessible, screenshot
from tests.games.conftest import start_game

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def at_both_widths(page: Page, name: str) -> None:
    """Screenshots at a desktop's width and a phone's, each after an accessibility check."""
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        assert_accessible(page, f"{name} ({label})")
        screenshot(page, f"{name}-{label}")
    page.set_viewport_size(DESKTOP)


@pytest.mark.django_db(transaction=True)
def test_a_newcomer_follows_the_invitation_signs_up_and_takes_the_seat(
    live_server, page: Page, settings, alice, bob
):
    settings.SITE_URL = live_server.url  # the confirmation email links to the test server
    game = lobby.create_game(
        alice, GameOptions(players=4, multicolour=1), Game.Visibility.INVITE, 72, bots=1
    )
    lobby.join_game(game.pk, bob, game.invite_code)
    link = f"{live_server.url}/games/{game.pk}/join/{game.invite_code}/"

    page.goto(link)
    main = page.get_by_role("main")
    expect(page.get_by_role("heading", level=1)).to_have_text("Alice invites you to play Hanabi")
    expect(main).to_contain_text("Variant: sixth suit")
    expect(main).to_contain_text("Time limit: 72 hours per turn")
    expect(page.locator("ol.seats li")).to_have_text(
        ["Alice (invites you)", "Bob", "empty seat", "Bot"]
    )
    expect(main).not_to_contain_text("@")
    at_both_widths(page, "invitation-newcomer")

    main.get_by_role("link", name="Sign up").click()
    page.get_by_label("Email").fill("dora@example.org")
    page.get_by_label("Display name").fill("Dora")
    page.get_by_label(re.compile(r"^Password:?$")).fill(SIGN_UP_PASSWORD)
    page.get_by_label(re.compile(r"^Password \(again\):?$")).fill(SIGN_UP_PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Confirm your email address")

    # The address is confirmed by the emailed link (sent here, as a worker would).
    (message,) = [m for m in send_account_emails() if m.to == ["dora@example.org"]]
    (confirm,) = re.findall(r"(https?://\S+/accounts/confirm-email/\S+)", message.body)
    page.goto(confirm)
    page.get_by_role("button", name="Confirm").click()

    # Straight back to the invitation, logged in: the join page and its button.
    expect(page).to_have_url(link)
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Join game {game.pk}")
    expect(page.get_by_role("navigation", name="Account")).to_contain_text("Dora")
    at_both_widths(page, "invitation-join-after-sign-up")
    page.get_by_role("button", name="Take a seat").click()
    expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("ol.seats")).to_contain_text("Dora")
    assert game.seats.get(position=2).user == User.objects.get(email="dora@example.org")


@pytest.mark.django_db(transaction=True)
def test_a_pass_says_it_is_not_a_login(live_server, page: Page, settings, alice, carol):
    settings.SITE_URL = live_server.url
    game = start_game(alice, carol)
    page.goto(game_link(carol, game))
    account = page.get_by_role("navigation", name="Account")
    expect(account).to_contain_text(f"viewing game {game.pk} as Carol (not logged in)")
    expect(account.get_by_role("button", name="Log out")).to_have_count(0)
    at_both_widths(page, "game-pass-header")

    account.get_by_role("link", name="Log in").click()
    expect(page).to_have_url(re.compile(rf"/accounts/login/\?next=/games/{game.pk}/$"))
