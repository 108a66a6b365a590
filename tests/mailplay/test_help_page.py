"""/by-email/ explains playing by email; the lobby and every turn email link to it."""

import pytest

from tests.games.conftest import current_user, start_game
from tests.mailplay.conftest import run_due

pytestmark = pytest.mark.django_db


def test_the_page_explains_the_commands(client):
    page = client.get("/by-email/")
    assert page.status_code == 200
    for command in ("play 3", "discard 1", "clue bob red", "help", "chat: nice one!"):
        assert command in page.content.decode()


def test_the_lobby_and_the_turn_email_link_to_it(client, alice, bob, mailoutbox, settings):
    settings.NOTIFY_DELAY_SECONDS = 0
    game = start_game(alice, bob)
    run_due("your_turn")
    (turn_email,) = [m for m in mailoutbox if m.to == [current_user(game).email]]
    assert f"How it works: {settings.SITE_URL}/by-email/" in turn_email.body
    assert f'href="{settings.SITE_URL}/by-email/"' in turn_email.alternatives[0][0]
    client.force_login(alice)
    assert 'href="/by-email/"' in client.get("/").content.decode()
