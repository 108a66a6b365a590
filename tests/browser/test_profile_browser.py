"""A person with a few finished games opens their profile from the lobby, reads the max
scores table, filters their history, and follows a replay link; every page axe-clean."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from games.engine import End
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.games.conftest import play_to_the_end, start_game
from tests.players.helpers import finished_game


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_player_reads_their_profile_and_history(live_server, browser: Browser, alice, bob, carol):
    played = play_to_the_end(start_game(alice, bob))  # a real game, with moves to replay
    start = timezone.now() - timedelta(days=20)
    finished_game([alice, bob], 25, End.PERFECT, finished_at=start)
    finished_game([alice, carol, bob], 0, End.STRIKEOUT, finished_at=start + timedelta(days=1))
    finished_game([carol, alice], 21, multicolour=1, finished_at=start + timedelta(days=2))
    page = logged_in_page(browser, live_server.url, alice)

    page.goto(live_server.url)
    page.get_by_role("link", name="My statistics and games").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Alice")
    table = page.get_by_role("table", name="Best score per variant")
    expect(table.get_by_role("row", name="no variant")).to_contain_text("25")
    expect(table.get_by_role("row", name="sixth suit")).to_contain_text("21")
    expect(page.get_by_role("table", name="The players Alice played with most")).to_contain_text(
        "Bob"
    )
    screenshot(page, "profile")
    assert_accessible(page, "profile")

    page.get_by_role("link", name="Every game, with filters").click()
    expect(page.get_by_role("status")).to_contain_text("4 games")
    page.get_by_label("Result").select_option("won")
    page.get_by_role("button", name="Filter").click()
    expect(page.get_by_role("status")).to_have_text("1 game")
    expect(page.get_by_role("table")).to_contain_text("25 / 25")
    screenshot(page, "history-filtered")
    assert_accessible(page, "history")

    page.get_by_label("Result").select_option("any")
    page.get_by_label("Partner").select_option("Bob")
    page.get_by_role("button", name="Filter").click()
    expect(page.get_by_role("status")).to_contain_text("3 games")
    page.get_by_role("link", name=f"Replay of game {played.pk}").click()
    expect(page).to_have_url(f"{live_server.url}/games/{played.pk}/replay/0/")
    screenshot(page, "profile-replay")
    assert_accessible(page, "replay")
    page.context.close()
