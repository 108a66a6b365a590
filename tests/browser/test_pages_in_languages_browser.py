"""The translated pages in a browser (issue 29): a German player's lobby, and a French
player's new-game form and waiting room, read in their language and pass the accessibility
check (lang attributes included)."""

import pytest
from playwright.sync_api import Browser, expect

from games.engine import GameOptions
from games.models import Game
from games.services import lobby
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.games.conftest import current_user, start_game


@pytest.mark.django_db(transaction=True)
def test_a_german_player_reads_the_lobby_in_german(live_server, browser: Browser, alice, bob):
    game = start_game(alice, bob, multicolour=3, turn_time_limit=72)
    player = current_user(game)
    player.language = "de"
    player.save(update_fields=["language"])
    lobby.create_game(bob, GameOptions(players=4, fuses=2), Game.Visibility.PUBLIC)
    page = logged_in_page(browser, live_server.url, player)
    page.goto(live_server.url)
    expect(page.locator("main")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text("Lobby")
    expect(page.get_by_role("link", name="Neue Partie")).to_be_visible()
    expect(page.locator(".my-turn")).to_contain_text("Du bist am Zug")
    expect(page.get_by_role("heading", name="Offene Partien")).to_be_visible()
    expect(page.locator("section[aria-labelledby=open-games]")).to_contain_text(
        "4 Spieler, 2 Gewitterplättchen, erstellt von Bob"
    )
    screenshot(page, "lobby-de")
    assert_accessible(page, "the German lobby")


@pytest.mark.django_db(transaction=True)
def test_a_french_player_creates_a_game_in_french(live_server, browser: Browser, alice):
    alice.language = "fr"
    alice.save(update_fields=["language"])
    page = logged_in_page(browser, live_server.url, alice)
    page.goto(f"{live_server.url}/games/new/")
    expect(page.locator("main")).to_have_attribute("lang", "fr")
    page.get_by_label("Joueurs").select_option(label="4 joueurs")
    page.get_by_role("button", name="Créer la partie").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Partie " + page.url.split("/")[-2])
    expect(page.locator("main")).to_contain_text("Partie créée.")
    expect(page.get_by_role("button", name="Lancer la partie")).to_be_disabled()
    screenshot(page, "waiting-room-fr")
    assert_accessible(page, "the French waiting room")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("language", "lobby", "statistics", "best_scores", "no_variant", "sixth_suit"),
    [
        ("de", "Lobby", "Meine Statistiken und Partien", "Beste Punktzahl je Variante",
         "keine Variante", "sechste Farbe"),
        ("fr", "Salon", "Mes statistiques et mes parties", "Meilleur score par variante",
         "sans variante", "sixième couleur"),
    ],
)  # fmt: skip
def test_a_players_lobby_and_profile_in_their_language(
    live_server, browser: Browser, alice, bob, carol, language, lobby, statistics, best_scores,
    no_variant, sixth_suit,
):  # fmt: skip
    from datetime import timedelta

    from django.utils import timezone

    from games.engine import End
    from tests.players.helpers import finished_game

    alice.language = language
    alice.save(update_fields=["language"])
    start = timezone.now() - timedelta(days=20)
    finished_game([alice, bob], 25, End.PERFECT, finished_at=start)
    finished_game([carol, alice], 21, multicolour=1, finished_at=start + timedelta(days=2))
    page = logged_in_page(browser, live_server.url, alice)
    page.goto(live_server.url)
    expect(page.locator("main")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", level=1)).to_have_text(lobby)
    screenshot(page, f"lobby-{language}")
    page.get_by_role("link", name=statistics).click()
    expect(page.locator("main")).to_have_attribute("lang", language)
    table = page.get_by_role("table", name=best_scores)
    expect(table.get_by_role("row", name=no_variant)).to_contain_text("25")
    expect(table.get_by_role("row", name=sixth_suit)).to_contain_text("21")
    screenshot(page, f"profile-{language}")
    assert_accessible(page, f"the profile in {language}")
