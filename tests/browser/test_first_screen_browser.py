"""One screen holds the game (issue 27), measured in a real browser: at 1280 × 800 the last
move, whose turn it is, the fireworks, the clue tokens, the viewer's hand, every teammate's
hand and the clue buttons are inside the first screen; at 390 × 844 the last move and the
viewer's hand are. In a 3-player and a 5-player game. Each first screen, and the replay's
and the look-back's pages (they show the same hands), are photographed into test-results/.
"""

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from games.engine import Clue, Discard, action_to_dict
from games.models import Game
from games.services import play
from tests.browser.conftest import SCREENSHOTS
from tests.conftest import make_user
from tests.games.conftest import current_user, play_to_the_end, start_game, user_at

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# A phone: a touch screen too (as tests/browser/test_phone_browser.py opens one).
AS_A_PHONE = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}
NAMES = ("ann", "ben", "cid", "dan", "eve")


def _page(browser: Browser, base: str, user, viewport: dict) -> Page:
    from django.test import Client

    context = browser.new_context(viewport=viewport, **(AS_A_PHONE if viewport == PHONE else {}))
    client = Client()
    client.force_login(user)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return context.new_page()


def _a_game_in_play(players: int, prefix: str, **options) -> Game:
    """Some turns in: clues given (cards carry clue marks; the viewer's cards too), two
    discards (so the clue tokens are not all in the box: Discard is offered)."""
    users = [make_user(f"{prefix}{name}") for name in NAMES[:players]]
    game = start_game(*users, seed=27, **options)
    for turn in range(2 * players):
        game.refresh_from_db()
        legal = game.load_state().legal_actions()
        kind = Discard if turn in (1, 3) else Clue
        action = next(a for a in legal if isinstance(a, kind))
        play.submit_action(game.pk, current_user(game), action_to_dict(action), game.turn)
    game.refresh_from_db()
    return game


def _photograph(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"27-{name}.png"))  # the first screen only
    page.screenshot(path=str(SCREENSHOTS / f"27-{name}-whole.png"), full_page=True)


def _bottoms(what: str, locator: Locator) -> list[tuple[str, float]]:
    boxes = [element.bounding_box() for element in locator.all()]
    assert boxes and all(boxes), f"{what}: not on the page ({len(boxes)} found)"
    return [(what, box["y"] + box["height"]) for box in boxes]


def _first_screen(page: Page, desktop: bool) -> list[tuple[str, float]]:
    """Every element the first screen must hold, with the y of its bottom edge."""
    found = _bottoms("the last move", page.locator(".last-action"))
    found += _bottoms("your cards", page.locator("section.hand.mine li.card"))
    if desktop:
        found += _bottoms("whose turn", page.get_by_text("It is your turn."))
        found += _bottoms("the fireworks", page.locator("ul.fireworks"))
        found += _bottoms(
            "the clue tokens", page.locator(".counters > div", has_text="Clue tokens")
        )
        found += _bottoms("a teammate's hand", page.locator("section.hand:not(.mine)"))
        found += _bottoms("a clue button", page.locator("button.clue"))
    return found


def _assert_whole_lines_of_history(page: Page, overflowing: bool) -> None:
    """A phone's history box: more than a few lines, and no line cut in half at its foot (its
    height is a whole number of lines, and each entry starts on a line of the box)."""
    box = page.evaluate(
        """() => {
            const list = document.querySelector('.history ol');
            const line = parseFloat(getComputedStyle(list).lineHeight);
            const top = list.getBoundingClientRect().top + list.clientTop;
            return {line, height: list.clientHeight, scroll: list.scrollHeight,
                    starts: [...list.children].map((li) => li.getBoundingClientRect().top - top)};
        }"""
    )
    lines = box["height"] / box["line"]
    if overflowing:  # more history than the box holds: a line could be cut
        assert box["scroll"] > box["height"], f"the history should scroll here: {box}"
    assert lines >= 8 and abs(lines - round(lines)) < 0.05, box
    for start in box["starts"]:
        assert abs(start / box["line"] - round(start / box["line"])) < 0.05, box


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("players", [3, 5])
def test_one_screen_holds_the_game(live_server, browser: Browser, players: int):
    """The issue's 3-player game (wild multicolour, 2 fuses, a deadline shown) and a
    5-player one with the sixth suit (six colour clues to every teammate) and rearranging
    (its line in the viewer's hand)."""
    base = live_server.url
    if players == 3:
        options = {"multicolour": 3, "fuses": 2, "turn_time_limit": 24}
    else:
        options = {"multicolour": 1, "rearrange": True}
    game = _a_game_in_play(players, f"p{players}", **options)
    viewer = current_user(game)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = _page(browser, base, viewer, viewport)
        page.goto(f"{base}/games/{game.pk}/")
        expect(page.locator(".status-line")).to_contain_text("It is your turn")
        expect(page.locator("section.hand:not(.mine)")).to_have_count(players - 1)
        _photograph(page, f"{players}p-{size}-turn-page")
        found = _first_screen(page, size == "desktop")
        lowest = max(bottom for _what, bottom in found)
        with (SCREENSHOTS / "27-first-screen.txt").open("a") as figures:
            print(f"{players} players, {size}: the lowest ends at y = {lowest:.0f}", file=figures)
        below = [(what, round(bottom)) for what, bottom in found if bottom > viewport["height"]]
        assert not below, f"{players} players, {size}: below the first screen: {below}"
        # Play and Discard are there on every card of the viewer's, within the screen too.
        actions = page.locator("section.hand.mine .card-actions button")
        expect(actions).to_have_count(2 * page.locator("section.hand.mine li.card").count())
        assert max(b for _w, b in _bottoms("Play/Discard", actions)) <= viewport["height"]
        if size == "phone":
            _assert_whole_lines_of_history(page, overflowing=players == 5)
        page.context.close()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_replay_and_the_look_back_are_photographed(live_server, browser: Browser):
    """_hands.html draws their hands too: they are looked at, at both sizes."""
    base = live_server.url
    game = _a_game_in_play(3, "lb")
    finished = play_to_the_end(start_game(make_user("rfay"), make_user("rgus"), seed=5))
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = _page(browser, base, current_user(game), viewport)
        page.goto(f"{base}/games/{game.pk}/as-seen/3/")
        expect(page.locator("section.hand")).to_have_count(3)
        _photograph(page, f"{size}-look-back")
        page.context.close()
        page = _page(browser, base, user_at(finished, 0), viewport)
        page.goto(f"{base}/games/{finished.pk}/replay/1/")
        _photograph(page, f"{size}-replay")
        expect(page.locator("section.hand")).to_have_count(2)
        page.context.close()
