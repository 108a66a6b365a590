"""The table on a phone held upright (390 × 844), measured in a real browser: each hand on
one row, the page within about two screen heights, the viewer's moves within the first
screen, the replay's buttons on one line; and at 1280 × 900 the same holds, with the wide
screen's sizes. Every page is photographed at both sizes into test-results/."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from games.engine import Clue, Discard, action_to_dict
from games.models import DealAnalysis, Game
from games.services import lobby, play
from outbox import delivery
from outbox.models import Outbox
from tests.browser.conftest import screenshot
from tests.conftest import make_user
from tests.games.conftest import current_user, play_to_the_end, start_game, user_at

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
# A phone: a touch screen too (pointer: coarse), as the page's CSS may ask.
AS_A_PHONE = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def _page(browser: Browser, base: str, user, viewport: dict) -> Page:
    context = browser.new_context(viewport=viewport, **(AS_A_PHONE if viewport == PHONE else {}))
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
        )
    return context.new_page()


def _boxes(page: Page, selector: str) -> list[dict]:
    return [box for box in (e.bounding_box() for e in page.locator(selector).all()) if box]


def _assert_one_row(page: Page, selector: str, what: str) -> None:
    """The elements share their top edge: a row of cards."""
    boxes = _boxes(page, selector)
    assert boxes, f"{what}: nothing found for {selector}"
    tops = {round(box["y"]) for box in boxes}
    assert max(tops) - min(tops) <= 2, f"{what} wraps: tops at {sorted(tops)}"


def _assert_one_line(page: Page, selector: str, what: str) -> None:
    """The elements (of different heights, centred) all cross one horizontal line."""
    boxes = _boxes(page, selector)
    assert len(boxes) >= 5, f"{what}: {len(boxes)} found for {selector}"
    highest_bottom = min(box["y"] + box["height"] for box in boxes)
    lowest_top = max(box["y"] for box in boxes)
    assert lowest_top < highest_bottom, f"{what} wrap: {boxes}"


def _assert_no_sideways_scroll(page: Page, width: int, what: str) -> None:
    scroll_width = page.evaluate("document.scrollingElement.scrollWidth")
    assert scroll_width <= width, f"{what} is {scroll_width}px wide on a {width}px screen"


def _document_height(page: Page) -> float:
    return page.evaluate("document.scrollingElement.scrollHeight")


def _block_heights(page: Page) -> list[tuple[str, int]]:
    """What makes the page high: each block of the table and its height (for a failure)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('main > *, #table > *, .hands > *')].map(
            e => [e.tagName + '.' + e.className + '#' + e.id, Math.round(e.offsetHeight)])"""
    )


def _a_game_in_play(players: int = 3) -> Game:
    """A game some turns in: clues given (so cards carry clue marks), cards discarded."""
    users = [make_user(name) for name in ("ann", "ben", "cid", "dan")[:players]]
    game = start_game(*users, seed=77)
    for turn in range(6):
        game.refresh_from_db()
        legal = game.load_state().legal_actions()
        kind = Discard if turn in (1, 3) else Clue  # 6 clue tokens left: Discard offered
        action = next(a for a in legal if isinstance(a, kind))
        play.submit_action(game.pk, current_user(game), action_to_dict(action), game.turn)
    game.refresh_from_db()
    return game


def _hands(page: Page) -> list:
    return page.locator("section.hand").all()


def _check_the_table(page: Page, size: str, viewport: dict) -> None:
    what = f"{size} turn page"
    for index, _hand in enumerate(_hands(page)):
        _assert_one_row(page, f"section.hand >> nth={index} >> ol.cards > li.card", what)
    _assert_no_sideways_scroll(page, viewport["width"], what)
    play_buttons = _boxes(page, ".card-actions button")
    assert len(play_buttons) == 10, "the viewer's moves are on the page: Play and Discard"
    if size == "phone":
        height = _document_height(page)
        # About two screens (2.25: the last move's line, with the look-back link, takes two
        # lines on a phone when the move is a clue).
        assert height <= 2.25 * viewport["height"], f"{height}px high: {_block_heights(page)}"
        # Play and Discard: within the first screen, each big enough for a thumb.
        assert max(box["y"] + box["height"] for box in play_buttons) <= viewport["height"]
        assert min(box["height"] for box in play_buttons) >= 40
        clue_buttons = _boxes(page, "button.clue")
        assert clue_buttons and min(box["height"] for box in clue_buttons) >= 40
    else:
        # The wide screen keeps its own sizes: the phone's rules do not reach it.
        face = _boxes(page, ".hand .card-face")[0]
        assert face["width"] >= 3.4 * 16 and face["height"] >= 4.6 * 16, face


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_table_fits_a_phone_and_every_page_is_photographed(live_server, browser: Browser):
    base = live_server.url
    game = _a_game_in_play()
    mover = current_user(game)
    finished = play_to_the_end(start_game(make_user("eve"), make_user("fay"), seed=5))
    delivery.run(Outbox.objects.get(kind="analysis", payload__game=finished.pk).pk)
    assert DealAnalysis.objects.filter(game=finished).exists()
    waiting = lobby.create_game(mover, game.game_options, Game.Visibility.INVITE)
    lobby.invite_by_email(waiting.pk, mover, "friend@example.com")
    importer = Client()
    importer.force_login(user_at(finished, 0))
    exported = importer.get(f"/games/{finished.pk}/export.json").content
    upload = SimpleUploadedFile("game.json", exported, content_type="application/json")
    imported = importer.post("/games/import/", {"file": upload})["Location"]

    for size, viewport in SIZES.items():
        page = _page(browser, base, mover, viewport)
        page.goto(f"{base}/")
        screenshot(page, f"16-{size}-home")
        page.goto(f"{base}/games/{waiting.pk}/")
        expect(page.get_by_text("friend@example.com")).to_be_visible()
        screenshot(page, f"16-{size}-waiting-room")

        page.goto(f"{base}/games/{game.pk}/")
        expect(page.locator(".status-line")).to_contain_text("It is your turn")
        screenshot(page, f"16-{size}-turn-page")
        _check_the_table(page, size, viewport)
        if size == "phone":
            results = Axe().run(page)
            assert results.violations_count == 0, results.generate_report()

        page.goto(f"{base}/games/{game.pk}/as-seen/3/")
        expect(page.get_by_text("Turn 4 of 7")).to_be_visible()
        _assert_one_line(page, ".replay-nav > *", f"{size} look back's buttons")
        for index, _hand in enumerate(_hands(page)):
            _assert_one_row(page, f"section.hand >> nth={index} >> ol.cards > li.card", size)
        _assert_no_sideways_scroll(page, viewport["width"], f"{size} look back")
        screenshot(page, f"16-{size}-look-back")
        if size == "phone":
            results = Axe().run(page)
            assert results.violations_count == 0, results.generate_report()
        page.locator("[data-nav=prev]").click()
        expect(page).to_have_url(f"{base}/games/{game.pk}/as-seen/2/")
        expect(page.get_by_text("Turn 3 of 7")).to_be_visible()
        if size == "desktop":  # the keys of static/js/keys.js find the same links
            page.keyboard.press("End")
            expect(page).to_have_url(f"{base}/games/{game.pk}/as-seen/6/")
            page.keyboard.press("ArrowLeft")
            expect(page.get_by_text("Turn 6 of 7")).to_be_visible()
        page.get_by_role("link", name="Back to the live table").click()
        expect(page.locator("#table")).to_be_visible()

        page.close()
        page = _page(browser, base, user_at(finished, 0), viewport)
        page.goto(f"{base}/games/{finished.pk}/replay/1/")
        _assert_one_line(page, ".replay-nav > *", f"{size} replay's buttons")
        _assert_no_sideways_scroll(page, viewport["width"], f"{size} replay")
        screenshot(page, f"16-{size}-replay")
        page.goto(f"{base}/games/{finished.pk}/replay/{finished.turn}/")
        expect(page.locator("#analysis")).to_contain_text("Could this deal have been won?")
        _assert_no_sideways_scroll(page, viewport["width"], f"{size} analysis")
        screenshot(page, f"16-{size}-analysis")
        page.goto(f"{base}{imported}")
        screenshot(page, f"16-{size}-imported-replay")
        page.goto(f"{base}/games/import/")
        page.get_by_label("hanab.live game file (JSON)").set_input_files(
            files=[{"name": "bad.json", "mimeType": "application/json", "buffer": b"nope"}]
        )
        page.get_by_role("button", name="Import").click()
        expect(page.locator(".messages li.error")).to_contain_text("not JSON")
        screenshot(page, f"16-{size}-import-error")
        page.close()

        page = _page(browser, base, None, viewport)
        page.goto(f"{base}/accounts/login/")
        _assert_no_sideways_scroll(page, viewport["width"], f"{size} login")
        screenshot(page, f"16-{size}-login")
        page.close()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_analysis_arriving_leaves_the_address_alone(live_server, browser: Browser):
    game = play_to_the_end(start_game(make_user("gus"), make_user("hal")))
    DealAnalysis.objects.filter(game=game).delete()
    row = Outbox.objects.get(kind="analysis", payload__game=game.pk)
    Outbox.objects.filter(pk=row.pk).update(done_at=None, claimed_at=None)
    page = _page(browser, live_server.url, user_at(game, 0), PHONE)
    url = f"{live_server.url}/games/{game.pk}/replay/{game.turn}/"
    page.goto(url)
    expect(page.locator("#analysis")).to_contain_text("Working it out")
    assert delivery.run(row.pk)
    expect(page.locator("#analysis")).to_contain_text("table scored", timeout=15_000)
    assert page.url == url
    page.reload()
    expect(page.locator("#replay .replay-nav")).to_be_visible()
