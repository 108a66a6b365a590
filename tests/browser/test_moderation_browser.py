"""A player reports a rude message; a moderator resolves the report from the admin."""

import pytest
from playwright.sync_api import Browser, expect

from games.services import chat
from moderation.models import Report
from tests.browser.conftest import log_in, log_in_to_admin, screenshot
from tests.conftest import PASSWORD, make_moderator
from tests.games.conftest import play_to_the_end, start_game


@pytest.mark.django_db(transaction=True)
def test_a_report_goes_from_a_player_to_its_resolution(live_server, browser: Browser, alice, bob):
    base = live_server.url
    game = play_to_the_end(start_game(alice, bob))
    chat.post_message(game.pk, bob, "you played like a potato")
    moderator = make_moderator("maud")
    moderator.set_password("a moderator password")
    moderator.save(update_fields=["password"])

    player = browser.new_context().new_page()
    log_in(player, base, alice.email, PASSWORD)
    player.goto(f"{base}/games/{game.pk}/")
    message = player.locator(".chat-messages li", has_text="potato")
    message.get_by_text("Report", exact=True).click()
    message.get_by_label("Why should a moderator look at this message?").fill("insulting")
    message.get_by_role("button", name="Send the report").click()
    expect(player.get_by_text("a moderator will look at it")).to_be_visible()

    admin = browser.new_context().new_page()
    log_in_to_admin(admin, base, moderator.email, "a moderator password")
    admin.goto(f"{base}/admin/moderation/report/?status__exact=open")
    expect(admin.get_by_text("insulting")).to_be_visible()
    admin.locator("input[name=_selected_action]").first.check()
    admin.locator("select[name=action]").select_option("resolve")
    admin.get_by_role("button", name="Go").click()
    admin.get_by_label("Why").fill("Bob warned")
    screenshot(admin, "admin-resolve-report")
    admin.get_by_role("button", name="Resolve the report").click()
    expect(admin.get_by_text("done.")).to_be_visible()

    report = Report.objects.get()
    assert (report.status, report.note) == (Report.Status.RESOLVED, "Bob warned")
    player.reload()
    expect(player.get_by_text("A moderator resolved a report")).to_be_visible()
