"""A finished game's page shows the deal's analysis as soon as a worker has it, without a
reload; a moderator steps through a game's hands in the admin."""

import pytest
from playwright.sync_api import Browser, expect

from games.models import DealAnalysis
from outbox import delivery
from outbox.models import Outbox
from tests.browser.conftest import log_in, log_in_to_admin, screenshot
from tests.conftest import PASSWORD, make_moderator
from tests.games.conftest import play_to_the_end, start_game


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_analysis_appears_on_the_finished_game_page(live_server, browser: Browser, alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    # As if the worker had not got to it yet.
    DealAnalysis.objects.filter(game=game).delete()
    row = Outbox.objects.get(kind="analysis", payload__game=game.pk)
    Outbox.objects.filter(pk=row.pk).update(done_at=None, claimed_at=None)

    page = browser.new_context().new_page()
    log_in(page, live_server.url, alice.email, PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    section = page.locator("#analysis")
    expect(section).to_contain_text("Working it out")

    assert delivery.run(row.pk)  # the worker finishes
    expect(section).to_contain_text("Yes.", timeout=15_000)  # the page polls every 5 s
    expect(page.locator("#replay .replay-nav")).to_be_visible()  # only the section changed
    expect(page.get_by_text("{%")).to_have_count(0)
    expect(page.get_by_text("{#")).to_have_count(0)
    section.get_by_text("How a team that saw every card could have played it").click()
    expect(section.locator("ol.best-line li").first).to_be_visible()
    screenshot(page, "finished-game-analysis")


@pytest.mark.django_db(transaction=True)
def test_a_moderator_steps_through_a_games_hands(live_server, browser: Browser, alice, bob):
    game = start_game(alice, bob)
    moderator = make_moderator("maud")
    moderator.set_password("a moderator password")
    moderator.save(update_fields=["password"])

    admin = browser.new_context().new_page()
    log_in_to_admin(admin, live_server.url, moderator.email, "a moderator password")
    admin.goto(f"{live_server.url}/admin/games/game/{game.pk}/change/")
    admin.get_by_role("link", name="Every hand, turn by turn").click()
    expect(admin.get_by_text("Turn 1 of 1")).to_be_visible()
    expect(admin.locator(".hands .card-face")).to_have_count(10)  # both hands face up
    screenshot(admin, "admin-game-hands")
    admin.get_by_role("link", name="Back to the game in the admin").click()
    expect(admin).to_have_url(f"{live_server.url}/admin/games/game/{game.pk}/change/")
