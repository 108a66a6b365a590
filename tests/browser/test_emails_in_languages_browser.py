"""The turn email as a German and a French reader's mail client shows it (issue 29): its
HTML part drawn by Chromium, read in the reader's language, with the cards in that
edition's letters, and screenshots to look at (test-results/email-turn-de.png, -fr.png)."""

import pytest
from playwright.sync_api import Browser

from accounts.models import User
from tests.browser.conftest import screenshot
from tests.games.conftest import current_user
from tests.mail import html_body, run_due, send_at_once  # noqa: F401  (a fixture)
from tests.notifications.helpers import three_players_with_clues

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once", "translated")]

SAYS = {
    "de": ("Antworte auf diese E-Mail mit einem Befehl:", "Zieh bis spätestens", "Deine Hand"),
    "fr": ("Réponds à cet e-mail avec une commande :", "Joue avant", "Ta main"),
}


@pytest.mark.parametrize("language", sorted(SAYS))
def test_the_turn_email_reads_in_the_readers_language_in_a_mail_client(
    browser: Browser, alice, bob, carol, mailoutbox, language
):
    game = three_players_with_clues(alice, bob, carol, multicolour=1, turn_time_limit=24)
    reader = current_user(game)
    User.objects.filter(pk=reader.pk).update(language=language, time_zone="Europe/Paris")
    mailoutbox.clear()
    run_due("your_turn")
    (message,) = mailoutbox
    page = browser.new_page(viewport={"width": 640, "height": 900})
    page.set_content(html_body(message))
    text = page.inner_text("body")
    for words in SAYS[language]:
        assert words in text, words
    for english in ("Your hand", "Reply to this email", "Fireworks", "Discards:"):
        assert english not in text
    screenshot(page, f"email-turn-{language}")
    page.close()
