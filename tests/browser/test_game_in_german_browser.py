"""The game table in German and French (issue 29): a German player plays a whole game
against a bot on the web, by clicking its buttons as a person would, and reads the table,
its history and the end of the game in German; a French player's table reads in French.
Both tables pass the accessibility check (their lang attributes included)."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from games import wording
from games.engine import GameOptions
from games.models import Game
from games.services import lobby
from tests.browser.conftest import assert_accessible, logged_in_page, screenshot
from tests.games.conftest import make_user


def game_with_a_bot(user, language: str) -> Game:
    """A started two-player game: the user (who reads the site in `language`) and a bot."""
    user.language = language
    user.save(update_fields=["language"])
    game = lobby.create_game(user, GameOptions(players=2), Game.Visibility.INVITE)
    lobby.set_bot(game.pk, user, 1, True)
    lobby.start_game(game.pk, user)
    game.refresh_from_db()
    return game


def take_turn_in_german(page: Page, preference: tuple[str, ...]) -> str:
    """The first kind of move in `preference` the page offers, by its German button (a play
    is confirmed, as the page asks). Returns the kind."""
    buttons = {
        "clue": page.get_by_role("button", name=re.compile(r"^Hinweis an ")),
        "discard": page.get_by_role("button", name=re.compile(r"^Die Karte auf Platz \d abwerfen")),
        "play": page.get_by_role("button", name=re.compile(r"^Die Karte auf Platz \d ausspielen")),
    }
    for kind in preference:
        if buttons[kind].count():
            buttons[kind].first.click()
            if kind == "play":
                expect(page.locator("#confirm-question")).to_contain_text(
                    "Passt sie an kein Feuerwerk, brennt ein Gewitterplättchen ab."
                )
                page.get_by_role("button", name="Ja, ausspielen").click()
            return kind
    raise AssertionError("no move offered")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_german_player_plays_a_whole_game_in_german(
    live_server, browser: Browser, settings, translated
):
    settings.BOT_MOVE_DELAY_SECONDS = 0  # the bot's tasks run at once, inside the test
    dora = make_user("dora")
    game = game_with_a_bot(dora, "de")
    page = logged_in_page(browser, live_server.url, dora)
    page.goto(f"{live_server.url}/games/{game.pk}/")

    expect(page.locator("main")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Partie {game.pk}")
    # The seats are drawn at the start: the bot may have made the first move.
    expect(page.locator(".whose-turn")).to_contain_text("Du bist am Zug.", timeout=15_000)
    expect(page.locator(".whose-turn")).to_contain_text(re.compile(r"Zug [12] · 2 Spieler"))
    first = "Zug 1 " in page.locator(".whose-turn").inner_text()
    board = page.locator(".board")
    for label in ("Punkte", "Hinweisplättchen", "Gewitterplättchen", "Stapel", "Spielraum"):
        expect(board.locator("dt", has_text=label)).to_be_visible()
    expect(board).to_contain_text(re.compile(r"[78]\s+von\s+8"))
    expect(board).to_contain_text("3 von 3 übrig")
    expect(board).to_contain_text(re.compile(r"(40|39) Karten"))
    expect(page.get_by_role("heading", name="Ablagestapel")).to_be_visible()
    expect(page.get_by_role("heading", name="Verlauf")).to_be_visible()
    if first:
        expect(page.locator(".history")).to_contain_text("Noch kein Zug.")
        expect(page.locator(".last-action")).to_have_text("Noch hat niemand gezogen.")
    else:
        expect(page.locator(".last-action")).to_contain_text("Letzter Zug: Bot ")
    expect(page.get_by_role("heading", name="Deine Hand")).to_be_visible()
    expect(page.get_by_role("button", name="Ausspielen")).to_have_count(5)
    expect(page.get_by_role("button", name="Mute emails about this game")).to_have_count(0)
    mute = page.get_by_role("button", name="E-Mails zu dieser Partie stummschalten")
    expect(mute).to_be_visible()
    expect(page).to_have_title(re.compile(r"^\(Du bist am Zug\) Partie \d+ · "))

    # Dora plays: a clue first (it is all the page offers besides plays: every token is
    # there), then discards and plays, until the game ends.
    kinds: list[str] = []
    for moves in range(100):
        page.goto(f"{live_server.url}/games/{game.pk}/")
        if "/replay/" in page.url:
            break
        expect(page.locator(".status-line")).to_contain_text("Du bist am Zug.")
        shown = page.locator("#table").get_attribute("hx-get")
        preference = ("clue",) if moves == 0 else ("discard", "play") if moves < 8 else ("play",)
        kinds.append(take_turn_in_german(page, preference))
        # Wait for the answer (the bot has moved by then): a later table, or the end.
        expect(page.locator("#table, .outcome").first).not_to_have_attribute("hx-get", shown)
        if moves == 2:
            # The table after a clue, a discard and the bot's moves: every line German.
            history = page.locator(".history").inner_text()
            assert re.search(r"Dora gibt .+ einen Hinweis: ", history), history
            assert re.search(r"Dora wirft (rot|gelb|grün|blau|weiß) \d ab \(Platz \d\)", history)
            expect(page.locator(".last-action")).to_contain_text("Letzter Zug: ")
            expect(page.locator(".look-back-link")).to_contain_text("Zurück zu Zug ")
            expect(page.locator(".board")).to_contain_text("Effizienz")
            for english in ("Your hand", "History", "Clue tokens", "Discard pile", "Last move"):
                assert english not in page.locator("main").inner_text(), english
            screenshot(page, "table-de")
            assert_accessible(page, "the German table")
            # The keyboard says what it does in German too (static/js/keys.js).
            page.keyboard.press("a")
            expect(page.locator("#keys-status")).to_have_text(
                re.compile(r"^Welche Karte ausspielen\? Drück ihre Platznummer, 1 bis \d")
            )
            page.keyboard.press("Escape")
            expect(page.locator("#keys-status")).to_have_text("Abgebrochen.")
    else:
        pytest.fail("the game did not end")
    assert kinds[0] == "clue" and "discard" in kinds and "play" in kinds

    # The end: the replay of the last turn says how the game ended, in German.
    game.refresh_from_db()
    assert game.is_finished()
    state = game.load_state()
    with translation.override("de"):
        ending = wording.ending(state, game.seat_names())
    expect(page.locator(".outcome")).to_contain_text(ending)
    expect(page.locator(".history")).to_contain_text("Dora spielt ")
    expect(page.locator("main")).to_have_attribute("lang", "de")
    screenshot(page, "table-de-finished")


@pytest.mark.django_db(transaction=True)
def test_a_french_players_table_reads_in_french(
    live_server, browser: Browser, settings, translated
):
    settings.BOT_MOVE_DELAY_SECONDS = 0
    emile = make_user("emile")
    game = game_with_a_bot(emile, "fr")
    page = logged_in_page(browser, live_server.url, emile)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("main")).to_have_attribute("lang", "fr")
    page.get_by_role("button", name=re.compile(r"^Indice à ")).first.click()
    expect(page.locator(".history")).to_contain_text("Emile donne un indice à ")
    # The bot answers: the page follows the game until it is Emile's turn again.
    expect(page.locator(".status-line")).to_contain_text("C'est ton tour.", timeout=15_000)
    page.reload()
    history = page.locator(".history").inner_text()
    assert re.search(r"Emile donne un indice à .+ : ", history), history
    assert re.search(r"Bot \d (donne un indice à Emile :|joue|défausse) ", history), history
    board = page.locator(".board")
    for label in ("Jetons indice", "Jetons orage", "Pioche", "Efficacité"):
        expect(board.locator("dt", has_text=label)).to_be_visible()
    expect(page.get_by_role("heading", name="Défausse")).to_be_visible()
    expect(page.get_by_role("heading", name="Historique")).to_be_visible()
    expect(page.get_by_role("heading", name="Ta main")).to_be_visible()
    expect(page.locator(".last-action")).to_contain_text("Dernier coup : ")
    screenshot(page, "table-fr")
    assert_accessible(page, "the French table")
    # On a phone the longer words still fit: nothing runs off the side of the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    expect(page.get_by_role("heading", name="Ta main")).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    screenshot(page, "table-fr-phone")
