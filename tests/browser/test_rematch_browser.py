"""Two people who finished a game play again: Alice proposes a rematch under the finished
game, Bob follows the invitation email's link, accepts, and the new game starts for both;
each page passes axe-core."""

import re

import pytest
from django.core import mail
from playwright.sync_api import Browser, expect

from games.models import Game
from rematches.models import Rematch
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.conftest import make_user
from tests.games.conftest import play_to_the_end, start_game


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_rematch_from_the_finished_game_to_the_new_one(live_server, browser: Browser):
    base = live_server.url
    alice, bob = make_user("alice"), make_user("bob")
    finished = play_to_the_end(start_game(alice, bob))
    ann, ben = logged_in_page(browser, base, alice), logged_in_page(browser, base, bob)

    ann.goto(f"{base}{finished.get_absolute_url()}")
    expect(ann.get_by_text(re.compile(r"Final score: \d+ / 25"))).to_be_visible()
    offer = ann.get_by_role("button", name="Play again with the same table")
    offer.scroll_into_view_if_needed()
    screenshot(ann, "rematch-offer")
    assert_accessible(ann, "finished game with the rematch offer")
    offer.click()

    expect(ann.get_by_role("heading", level=1)).to_have_text(f"Rematch of game {finished.pk}")
    expect(ann.get_by_text("Bob: has not answered yet")).to_be_visible()
    screenshot(ann, "rematch-proposed")
    assert_accessible(ann, "the rematch page, for its proposer")

    # Bob follows the link of the invitation email (sent after the proposal's commit: the
    # tests' Celery runs the outbox row at once).
    (invitation,) = [m for m in mail.outbox if "asks you to play again" in m.subject]
    assert invitation.to == [bob.email]
    (path,) = re.findall(r"https?://[^/\s]+(/rematches/\d+/)", invitation.body)
    ben.goto(f"{base}{path}")
    expect(ben.get_by_text("Will you play again?")).to_be_visible()
    screenshot(ben, "rematch-invitation")
    assert_accessible(ben, "the rematch page, for an invitee")
    ben.get_by_role("button", name="Accept").click()

    # The last accept starts the game: Bob lands on its table.
    rematch = Rematch.objects.get()
    expect(ben).to_have_url(f"{base}/games/{rematch.game_id}/")
    expect(ben.locator("#table")).to_be_visible()
    assert Game.objects.get(pk=rematch.game_id).is_playing()
    screenshot(ben, "rematch-started")
    ann.goto(f"{base}{finished.get_absolute_url()}")
    started = ann.get_by_text("The rematch has started:")
    expect(started).to_be_visible()
    started.scroll_into_view_if_needed()
    screenshot(ann, "rematch-started-under-the-old-game")
    assert_accessible(ann, "finished game with the rematch started")
    ann.get_by_role("link", name=f"game {rematch.game_id}").click()
    expect(ann.locator("#table")).to_be_visible()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_friends_are_offered_on_the_waiting_page(live_server, browser: Browser):
    base = live_server.url
    alice, bob = make_user("alice"), make_user("bob")
    start_game(alice, bob)  # partners: a table in play
    ann = logged_in_page(browser, base, alice)

    ann.goto(f"{base}/friends/")
    ann.get_by_role("button", name="Add Bob as a friend").click()
    expect(ann.get_by_role("button", name="Remove Bob")).to_be_visible()
    screenshot(ann, "friends-page")
    assert_accessible(ann, "the friends page")

    ann.goto(f"{base}/games/new/")
    ann.get_by_role("button", name="Create the game").click()
    ann.get_by_role("button", name="Invite Bob").click()
    expect(ann.get_by_text("Invitation sent to Bob.")).to_be_visible()
    expect(ann.locator(".invited")).to_have_text("Bob")
    assert bob.email not in ann.content()
    ann.get_by_label("Invite a friend by name").fill("Zed")
    ann.get_by_role("button", name="Invite", exact=True).click()
    expect(ann.get_by_text("None of your friends is called Zed.")).to_be_visible()
    screenshot(ann, "waiting-room-friends")
    assert_accessible(ann, "the waiting page with friends offered")
