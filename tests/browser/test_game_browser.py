"""Two people sign up, create and join a game, and play it to the end, each in their own
browser; the main pages pass an automated accessibility check (axe-core)."""

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import assert_accessible, screenshot, sign_up, take_turn


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_two_people_play_a_game_to_the_end(live_server, browser: Browser, settings):
    base = live_server.url
    ann_context = browser.new_context(viewport={"width": 1280, "height": 900})
    ben_context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    ann, ben = ann_context.new_page(), ben_context.new_page()

    sign_up(ann, base, "ann@example.org", "Ann")
    sign_up(ben, base, "ben@example.org", "Ben")

    ann.get_by_role("link", name="New game").click()
    screenshot(ann, "new-game")
    assert_accessible(ann, "new game")
    ann.get_by_label("Players").select_option("2")
    ann.get_by_role("button", name="Create the game").click()
    expect(ann.get_by_role("heading", level=1)).to_contain_text("Game")
    screenshot(ann, "waiting-room")
    assert_accessible(ann, "waiting room")
    invite_url = ann.get_by_label("Share this link:").input_value()

    ben.goto(invite_url)
    ben.get_by_role("button", name="Take a seat").click()
    expect(ben.get_by_text("Waiting for Ann to start the game")).to_be_visible()

    # Open pages follow the game by polling: Ann sees Ben arrive, Ben sees the start.
    expect(ann.get_by_role("button", name="Start the game")).to_be_enabled(timeout=15_000)
    ann.get_by_role("button", name="Start the game").click()
    expect(ann.locator("#table")).to_be_visible()
    expect(ben.locator("#table")).to_be_visible(timeout=15_000)
    pages = {"Ann": ann, "Ben": ben}
    first = ann if "It is your turn" in ann.locator(".status-line").inner_text() else ben
    waiting = ben if first is ann else ann
    screenshot(first, "turn-page-my-turn")
    screenshot(waiting, "turn-page-waiting")
    assert_accessible(first, "turn page")
    expect(first).to_have_title(re.compile(r"^\(Your turn\)"))
    # The first move by keyboard alone: focus a clue button, press Enter.
    first.get_by_role("button", name=re.compile(r"^Clue ")).first.focus()
    first.keyboard.press("Enter")
    expect(waiting.locator(".status-line")).to_contain_text("It is your turn", timeout=15_000)
    expect(waiting).to_have_title(re.compile(r"^\(Your turn\)"))

    # Two players alternate: each opens the page (as from the turn email) and moves.
    moves = {"discard": 0, "clue": 0, "play": 0}
    mover = waiting
    for _ in range(200):
        mover.reload()
        heading = mover.locator(".status-line, .outcome").first
        if "Final score" in heading.inner_text():
            break
        expect(mover.locator(".status-line")).to_contain_text("It is your turn")
        # A clue and a discard each, then plays until the fuses burn out (a short game).
        preference = ("discard", "clue") if sum(moves.values()) < 2 else ("play",)
        moves[take_turn(mover, preference)] += 1
        expect(mover.get_by_text("It is your turn")).to_have_count(0, timeout=15_000)
        mover = ann if mover is ben else ben
    else:
        pytest.fail("the game did not end")

    for page in pages.values():
        page.reload()
        expect(page.get_by_text(re.compile(r"Final score: \d+ / 25"))).to_be_visible()
    screenshot(ann, "finished-game")
    assert_accessible(ann, "finished game")
    ann.get_by_role("link", name="« First").click()
    expect(ann.get_by_text("The cards are dealt.")).to_be_visible()
    expect(ann).to_have_url(re.compile(r"/replay/0/$"))
    ann.get_by_role("link", name="Next ›").click()
    expect(ann).to_have_url(re.compile(r"/replay/1/$"))
    screenshot(ann, "replay")
    with ann.expect_download() as download:
        ann.get_by_role("link", name="Download (hanab.live JSON)").click()
    assert download.value.suggested_filename.startswith("hanabi-game-")
    assert moves["discard"] > 0 and moves["play"] >= 3

    ann.goto(base)
    screenshot(ann, "lobby")
    assert_accessible(ann, "lobby")
    ann_context.close()
    ben_context.close()
