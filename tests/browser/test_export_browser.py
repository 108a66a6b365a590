"""Issue 27: every finished game downloads. A 1-fuse game (which hanab.live's JSON cannot
hold) is finished, its replay's link downloads a JSON file (not a page), and that file,
uploaded on the import page, opens as a replay of the same game."""

import json
import re

import pytest
from playwright.sync_api import Browser, expect

from games.models import ImportedReplay
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.games.conftest import make_user, start_game
from tests.games.test_export_roundtrip import strike_out


@pytest.mark.django_db(transaction=True)
def test_a_finished_one_fuse_game_downloads_and_imports_back(live_server, browser: Browser):
    ann, ben = make_user("ann"), make_user("ben")
    game = start_game(ann, ben, fuses=1)
    strike_out(game)
    game.refresh_from_db()
    page = logged_in_page(browser, live_server.url, ann)

    page.goto(f"{live_server.url}/games/{game.pk}/replay/{game.turn}/")
    link = page.get_by_role(
        "link", name="Download (this site's JSON: hanab.live has no 1-fuse option)"
    )
    assert_accessible(page, "replay of a 1-fuse game")
    screenshot(page, "export-1-fuse-replay")
    with page.expect_download() as downloading:
        link.click()
    download = downloading.value
    assert download.suggested_filename == f"hanabi-game-{game.pk}-site.json"
    saved = download.path()
    record = json.loads(saved.read_text())  # JSON, not the HTML of a page
    assert record["options"]["fuses"] == 1
    assert record["players"] == game.seat_names()

    page.goto(f"{live_server.url}/games/import/")
    assert_accessible(page, "import page")
    page.get_by_label(re.compile("game file")).set_input_files(saved)
    page.get_by_role("button", name="Import").click()

    expect(page).to_have_url(re.compile(r"/replays/\d+/0/$"))
    imported = ImportedReplay.objects.get(owner=ann)
    assert imported.options == game.game_options.to_dict()
    assert imported.actions == list(game.moves.order_by("turn").values_list("action", flat=True))
    names = ", ".join(game.seat_names())
    expect(page.get_by_role("heading", name=f"Imported game: {names}")).to_be_visible()
    page.get_by_role("link", name=re.compile("Last")).click()
    expect(page).to_have_url(re.compile(rf"/replays/{imported.pk}/{len(imported.actions)}/$"))
    expect(page.locator(".outcome")).to_contain_text("Final score: ")
    assert_accessible(page, "imported 1-fuse game, last turn")
    screenshot(page, "export-1-fuse-imported")
