"""A finished game's replay offers the H-Group bot's review; asked for, it appears below the
table without a reload, one row a move, each with the bot's move and its reason in words, and
below a move that lost points, what a team seeing every card could still have reached."""

import pytest
from playwright.sync_api import Browser, expect

from games.bots.hgroup import choose_action
from games.engine import action_to_dict, view_for
from games.hindsight import analyse_turns
from games.review import review
from games.services import play, replays
from tests.browser.conftest import SCREENSHOTS, assert_accessible, log_in, screenshot
from tests.conftest import PASSWORD
from tests.games.conftest import current_user, start_game


def played_by_people_like_the_bot(game, every: int = 5):
    """Every move the bot's, but every ``every``-th: then the first legal move (a clue at 8
    tokens, else a discard of the newest card), so that some moves differ."""
    for _ in range(500):
        game.refresh_from_db()
        if not game.is_playing():
            return game
        state = game.load_state()
        if game.turn % every == every - 1:
            legal = state.legal_actions()
            move = next((a for a in legal if type(a).__name__ == "Discard"), legal[0])
        else:
            move = choose_action(view_for(state, state.current_seat))
        play.submit_action(game.pk, current_user(game), action_to_dict(move), game.turn)
    raise AssertionError("the game did not end")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_review_opens_on_request_and_names_each_moves_reason(
    live_server, browser: Browser, alice, bob, carol
):
    game = played_by_people_like_the_bot(start_game(alice, bob, carol))
    record = replays.game_record(game, "")
    expected = review(record["options"], record["deck_source"], record["actions"], record["names"])
    assert len(expected) == game.turn

    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(page, live_server.url, alice.email, PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/replay/{game.turn}/")
    rows = page.locator("#review tr.review-turn")
    expect(rows).to_have_count(0)  # not until asked for
    page.get_by_role("link", name="Review with the H-Group bot").click()
    expect(rows).to_have_count(game.turn)
    expect(page.locator("#replay .replay-nav")).to_be_visible()  # the replay stays
    assert page.url.endswith(f"/replay/{game.turn}/")  # the section's address is not pushed
    reasons = rows.locator("td.reason").all_inner_texts()
    assert reasons == [turn.reason for turn in expected]
    assert all(reason.strip() for reason in reasons)
    assert rows.filter(has_text="Differ").count() == sum(not t.agrees for t in expected) > 0
    assert rows.filter(has_text="Agree").count() == sum(t.agrees for t in expected) > 0
    # A reason in H-Group words: a play from a clue, a save or a discard of the chop.
    words = " ".join(reasons)
    assert "as a play clue on turn" in words or "Discard chop" in words or "Save " in words
    expect(page.get_by_text("{%")).to_have_count(0)
    expect(page.get_by_text("{#")).to_have_count(0)
    assert_accessible(page, "the replay with the review")
    screenshot(page, "finished-game-review")
    page.locator("#review").screenshot(path=str(SCREENSHOTS / "finished-game-review-section.png"))
    # On a phone: the review fits the screen's width (the page does not scroll sideways).
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/games/{game.pk}/replay/{game.turn}/?review=1")
    expect(rows).to_have_count(game.turn)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#review").screenshot(path=str(SCREENSHOTS / "finished-game-review-phone.png"))


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_review_says_what_a_seeing_team_could_still_reach_where_points_were_lost(
    live_server, browser: Browser, alice, bob, carol
):
    """Once the worker has stored the reachable score of each turn (games/hindsight.py),
    the review shows, below each move that lowered it, what the team could have reached and
    how; below the other moves, nothing."""
    game = played_by_people_like_the_bot(start_game(alice, bob, carol), every=4)
    turns = analyse_turns(game).result["turns"]
    lost = [t for t in turns if t["lost"]]
    assert lost and len(lost) < len(turns)

    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(page, live_server.url, alice.email, PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/replay/{game.turn}/")
    page.get_by_role("link", name="Review with the H-Group bot").click()
    expect(page.locator("#review tr.review-turn")).to_have_count(game.turn)
    best = page.locator("#review tr.review-best-line")
    expect(best).to_have_count(len(lost))
    first = lost[0]
    sentence = best.first.inner_text()
    assert sentence.startswith(
        f"Turn {first['turn']}, seeing every card: Here the team could still reach "
        f"{first['lower']} if "
    )
    assert "After the move played:" in sentence and str(first["after_upper"]) in sentence
    # The line sits just below the move that lost the points.
    above = best.first.locator("xpath=preceding-sibling::tr[1]")
    expect(above.locator("td").first).to_have_text(str(first["turn"]))
    expect(page.get_by_text("is still being worked out")).to_have_count(0)
    assert_accessible(page, "the review with the best line")
    best.first.scroll_into_view_if_needed()
    page.locator("#review").screenshot(path=str(SCREENSHOTS / "finished-game-review-best-line.png"))
