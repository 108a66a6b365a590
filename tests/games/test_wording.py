"""The engine's sentences in German and French (games/wording.py, issue 29), English as the
engine writes them."""

import pytest
from django.utils import translation

from games import wording
from games.engine import GameOptions, GameState, describe, end_text, rating_word
from games.engine.actions import Clue, Discard, Play
from games.engine.state import new_game

pytestmark = pytest.mark.usefixtures("translated")


def options(**changes) -> GameOptions:
    return GameOptions(players=3, **changes)


@pytest.mark.parametrize(
    "language, changes, text",
    [
        ("en", {}, "3 players"),
        ("de", {}, "3 Spieler"),
        ("fr", {}, "3 joueurs"),
        (
            "de",
            {"multicolour": 1, "fuses": 1},
            "3 Spieler, sechste Farbe (bunt), 1 Gewitterplättchen",
        ),
        (
            "fr",
            {"until_perfect": True, "fuses": 2},
            "3 joueurs, jusqu'à la perfection, 2 jetons orage",
        ),
    ],
)
def test_the_options_in_words(language, changes, text):
    with translation.override(language):
        assert wording.options_text(options(**changes)) == text
    if language == "en":
        assert text == options(**changes).describe()


@pytest.mark.parametrize(
    "language, score, text",
    [
        ("en", 24, "1 short of perfect"),
        ("de", 24, "1 Punkt unter perfekt"),
        ("de", 20, "5 Punkte unter perfekt"),
        ("fr", 24, "à 1 point de la perfection"),
        ("fr", 25, "parfait"),
    ],
)
def test_the_rating_in_words_with_its_plural(language, score, text):
    with translation.override(language):
        assert wording.rating(score, options()) == text
    if language == "en":
        assert text == rating_word(score, options())


def a_game() -> GameState:
    return new_game(options(), seed=7)


def test_each_move_in_words_names_cards_and_colours_as_the_edition_does():
    state = a_game()
    names = ["Ann", "Ben", "Cid"]
    target_hand = state.hand(1)
    colour = state.card(target_hand[0]).suit_name
    state.apply(Clue(target=1, colour=colour, rank=None))
    state.apply(Discard(state.hand(1)[-1]))
    state.apply(Play(state.hand(2)[0]))
    english = [describe(event, state, names) for event in state.events]
    with translation.override("en"):
        assert [wording.event_sentence(e, state, names) for e in state.events] == english
    with translation.override("de"):
        german = [wording.event_sentence(e, state, names) for e in state.events]
    with translation.override("fr"):
        french = [wording.event_sentence(e, state, names) for e in state.events]
    assert german[0].startswith("Ann gibt Ben einen Hinweis: ") and "berührt" in german[0]
    assert german[1].startswith("Ben wirft ") and german[1].endswith(" ab (Platz 5)")
    assert french[0].startswith("Ann donne un indice à Ben : ") and "touche" in french[0]
    assert french[1].startswith("Ben défausse ") and french[1].endswith("(position 5)")
    for sentence in german + french:
        assert not any(suit in sentence for suit in ("red", "yellow", "green", "blue", "white"))
    assert end_text(state) is None
