"""Three people play a game to its end; one of them never opens the game: she reads each
turn email on /dev/mail/ and answers it in the reply box, which sends the reply over SMTP
to the built-in receiver, as a mail client would."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from dev import run_env
from games.models import Game
from mailplay.models import InboundMessage
from tests.browser.conftest import logged_in_page, screenshot, take_turn
from tests.celery_helpers import wait_for
from tests.games.conftest import start_game
from tests.mailplay.conftest import receiver  # noqa: F401  (a fixture)
from tests.notifications.conftest import debug_urls, mail_folder  # noqa: F401  (fixtures)


def answer_newest_turn_email(page: Page, base: str, turn: int) -> None:
    """On /dev/mail/, open Carol's newest turn email and reply with one of its commands."""
    # The email is written just after the move that made it Carol's turn commits.
    turn_emails = page.get_by_role("row", name=re.compile(r"carol@example\.org.*Your turn"))
    for _ in range(50):
        page.goto(f"{base}/dev/mail/")
        if turn_emails.count() > turn:
            break
        page.wait_for_timeout(200)
    turn_emails.first.get_by_role("link").click()
    text = page.locator(".dev-mail-text").inner_text()
    commands = re.findall(r"^  (\S.*)$", text.split("with one command:")[1], re.MULTILINE)
    command = commands[turn % len(commands)]
    page.get_by_label("Reply").fill(command)
    page.get_by_role("button", name="Send reply").click()
    expect(page.get_by_role("status")).to_contain_text("Reply sent")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_game_to_the_end_with_one_player_moving_only_by_email(
    live_server,
    browser: Browser,
    settings,
    mail_folder,  # noqa: F811
    debug_urls,  # noqa: F811
    receiver,  # noqa: F811
    alice,
    bob,
    carol,
):
    base = live_server.url
    settings.SITE_URL = base
    settings.NOTIFY_DELAY_SECONDS = 0
    # As dev.py run: the reply box's replies are not signed (the page says so).
    settings.INBOUND_SENDER_CHECK = run_env({})["INBOUND_SENDER_CHECK"]
    game = start_game(alice, bob, carol)
    pages = {user.pk: logged_in_page(browser, base, user) for user in (alice, bob)}
    mailbox = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    carol_moves = 0
    for _ in range(200):
        game.refresh_from_db()
        if not game.is_playing():
            break
        seat = game.seats.get(position=game.current_seat)
        turn = game.turn
        if seat.user == carol:
            answer_newest_turn_email(mailbox, base, carol_moves)
            carol_moves += 1
            if carol_moves == 1:
                screenshot(mailbox, "play-by-email-reply-sent")
        else:
            page = pages[seat.user_id]
            page.goto(f"{base}/games/{game.pk}/")
            expect(page.locator(".status-line")).to_contain_text("It is your turn")
            take_turn(page, ("discard", "clue", "play"))
        wait_for(
            lambda played=turn: Game.objects.filter(pk=game.pk).exclude(turn=played).exists(),
            seconds=10,
        )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert carol_moves >= 3
    moved = InboundMessage.objects.filter(status=InboundMessage.Status.MOVED).count()
    assert moved == carol_moves

    # Each reply was answered; the last answer shows the end of the game.
    mailbox.goto(f"{base}/dev/mail/")
    answers = mailbox.get_by_role("row", name=re.compile(r"carol@example\.org.*Hanabi game"))
    expect(answers.first).to_be_visible()
    assert answers.filter(has_text="your move is made").count() == carol_moves
    answers.first.get_by_role("link").click()
    screenshot(mailbox, "play-by-email-answer")
    expect(mailbox.locator(".dev-mail-text")).to_contain_text("Your move:")
