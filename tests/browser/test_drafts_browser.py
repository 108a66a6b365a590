"""What a player is typing survives the table's refresh: a move by someone else redraws the
table (poll or push) while they write, and neither the text, the caret nor an open form is
lost: a chat message or a report (hx-preserve in templates/games/_chat.html), a note on a card
(static/js/poll.js)."""

import pytest
from playwright.sync_api import Browser, expect

from games.engine import Clue, action_to_dict
from games.models import ChatPolicy
from games.services import play
from tests.browser.conftest import logged_in_page
from tests.games.conftest import current_user, start_game, user_at


@pytest.mark.django_db(transaction=True)
def test_typing_survives_a_move_by_someone_else(live_server, browser: Browser, alice, bob):
    game = start_game(alice, bob, chat_policy=ChatPolicy.DURING)
    watcher = user_at(game, 1 - game.current_seat)
    page = logged_in_page(browser, live_server.url, watcher)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".status-line")).to_contain_text("Waiting for")

    page.get_by_text("Report this game or a player to the moderators").click()
    page.locator("#report-game").fill("half a report")
    box = page.get_by_label("Message")
    box.click()
    box.type("helo there")
    for _ in " there":
        page.keyboard.press("ArrowLeft")  # the caret not at the end: after "hel"
    page.keyboard.press("ArrowLeft")

    clue = next(a for a in game.load_state().legal_actions() if isinstance(a, Clue))
    play.submit_action(game.pk, current_user(game), action_to_dict(clue), 0)
    page.evaluate("document.querySelector('[data-poll]').dispatchEvent(new Event('poll-now'))")
    expect(page.locator(".status-line")).to_contain_text("It is your turn")

    box = page.get_by_label("Message")
    expect(box).to_have_value("helo there")
    expect(box).to_be_focused()
    page.keyboard.type("l")
    expect(box).to_have_value("hello there")  # typed where the caret was
    expect(page.locator("#report-game")).to_have_value("half a report")
    expect(page.locator("#report-game")).to_be_visible()

    box.fill("hello table")
    box.press("Enter")
    expect(page.locator(".chat-messages")).to_contain_text("hello table")
    expect(page.get_by_label("Message")).to_have_value("")  # sent: the box is empty again


def redraw_after_a_move_by(page, game) -> None:
    game.refresh_from_db()
    clue = next(a for a in game.load_state().legal_actions() if isinstance(a, Clue))
    play.submit_action(game.pk, current_user(game), action_to_dict(clue), game.turn)
    page.evaluate("document.querySelector('[data-poll]').dispatchEvent(new Event('poll-now'))")


@pytest.mark.django_db(transaction=True)
def test_a_note_being_written_survives_a_move_by_someone_else(
    live_server, browser: Browser, alice, bob
):
    game = start_game(alice, bob)
    watcher = user_at(game, 1 - game.current_seat)
    page = logged_in_page(browser, live_server.url, watcher)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".status-line")).to_contain_text("Waiting for")

    mine = page.locator("section.hand.mine details.note-form").first
    mine.locator("summary").click()
    box = mine.locator("input[name=note]")
    box_id = box.get_attribute("id")
    box.type("r3 fnesse")
    for _ in "nesse":
        page.keyboard.press("ArrowLeft")

    redraw_after_a_move_by(page, game)
    expect(page.locator(".status-line")).to_contain_text("It is your turn")
    box = page.locator(f"#{box_id}")
    expect(box).to_be_visible()  # its form still open
    expect(box).to_have_value("r3 fnesse")
    expect(box).to_be_focused()
    page.keyboard.type("i")
    expect(box).to_have_value("r3 finesse")

    box.press("Enter")  # saved: the note shows, and its form closes
    expect(page.locator("section.hand.mine .card-note").first).to_contain_text("finesse")
    expect(page.locator(f"#{box_id}")).to_be_hidden()
