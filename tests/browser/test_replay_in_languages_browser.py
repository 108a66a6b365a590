"""The pages around a game in a browser, in German and French (issue 29): a French player's
replay of a finished game with its analysis and the H-Group bot's review asked for, and a
German spectator's page; each read in its language and clean by the accessibility check
(the lang attributes included: the bot's English reasons are marked so)."""

import pytest
from playwright.sync_api import Browser, expect

from games.engine import Clue, action_to_dict
from games.models import Game, SpectatorPolicy
from games.services import play
from outbox import delivery
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.browser.test_review_browser import played_by_people_like_the_bot
from tests.games.conftest import current_user, start_game
from tests.games.helpers import analysis_row, deck


def speaking(user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    return user


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_french_player_reads_the_replay_and_its_review_in_french(
    live_server, browser: Browser, alice, bob, carol, translated
):
    game = played_by_people_like_the_bot(start_game(alice, bob, carol))
    row = analysis_row(game)
    if row.done_at is None:  # (the worker's part: the deal's analysis)
        assert delivery.run(row.pk)
    page = logged_in_page(browser, live_server.url, speaking(alice, "fr"))
    page.goto(f"{live_server.url}/games/{game.pk}/replay/{game.turn}/")
    main = page.locator("main")
    expect(main).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Partie {game.pk}")
    expect(page.locator(".outcome")).to_contain_text("Score final :")
    expect(page.get_by_role("navigation", name="Rediffusion")).to_contain_text(
        f"Tour {game.turn + 1} sur {game.turn + 1}"
    )
    expect(
        page.get_by_role("heading", name="Cette donne aurait-elle pu être gagnée ?")
    ).to_be_visible()
    page.get_by_role("link", name="Analyse avec le bot H-Group").click()
    rows = page.locator("#review tr.review-turn")
    # (Computed on request, about a second; longer on a machine the test suite keeps busy.)
    expect(rows).to_have_count(game.turn, timeout=20_000)
    expect(page.get_by_role("columnheader", name="Coup joué")).to_be_visible()
    assert rows.filter(has_text="Différent").count() > 0
    assert rows.filter(has_text="D'accord").count() > 0
    played = " ".join(rows.locator("td:nth-child(2)").all_inner_texts())
    assert " donne un indice à " in played and " clues " not in played
    expect(page.get_by_text("{%")).to_have_count(0)
    screenshot(page, "replay-fr")
    assert_accessible(page, "the French replay with its review")


@pytest.mark.django_db(transaction=True)
def test_a_german_spectator_watches_in_german(
    live_server, browser: Browser, alice, bob, carol, translated
):
    game = start_game(alice, bob, deck=deck())
    Game.objects.filter(pk=game.pk).update(spectators=SpectatorPolicy.DURING)
    for _ in range(4):
        game.refresh_from_db()
        clue = next(a for a in game.load_state().legal_actions() if isinstance(a, Clue))
        play.submit_action(game.pk, current_user(game), action_to_dict(clue), game.turn)
    page = logged_in_page(browser, live_server.url, speaking(carol, "de"))
    page.goto(f"{live_server.url}/games/{game.pk}/watch/")
    expect(page.locator("main")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Du schaust Partie {game.pk} zu")
    expect(page.locator("main")).to_contain_text("Du bist Zuschauer: du siehst jede Hand")
    expect(page.locator(".status-line")).to_contain_text("Zug 5 · 2 Spieler")
    screenshot(page, "spectate-de")
    assert_accessible(page, "the German spectator's page")
