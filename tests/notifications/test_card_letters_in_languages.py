"""A card's letter in the reader's language (issue 29): a German reader takes "G" for gelb
and a French one "B" for blanc, as their replies are read, so the emails write the cards
with those letters: grün is "Gr", bleu "Bl". The same letters are read back in a reply."""

import pytest
from django.utils import translation

from games.emails import _could_be, _local_code
from games.text_commands import VOCABULARIES, local_letters

LETTERS = {
    "en": {"R": "R", "Y": "Y", "G": "G", "B": "B", "W": "W", "M": "M"},
    "de": {"R": "R", "Y": "G", "G": "Gr", "B": "B", "W": "W", "M": "M"},
    "fr": {"R": "R", "Y": "J", "G": "V", "B": "Bl", "W": "B", "M": "M"},
}
SUIT_OF = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "W": "white", "M": "multicolour"}


@pytest.mark.parametrize("language", sorted(LETTERS))
def test_each_language_writes_its_editions_letters(language):
    assert local_letters(language) == LETTERS[language]
    # Distinct within the language, so no two suits read the same.
    assert len(set(LETTERS[language].values())) == 6


@pytest.mark.parametrize("language", sorted(LETTERS))
def test_a_letter_shown_is_read_back_as_its_suit_in_that_language(language):
    colours = VOCABULARIES[language].colours
    for engine_letter, shown in LETTERS[language].items():
        assert colours.get(shown.lower(), SUIT_OF.get(shown)) == SUIT_OF[engine_letter]


@pytest.mark.parametrize("language", ["de", "fr"])
def test_what_a_card_can_be_is_written_in_the_readers_letters(language, translated):
    every = [f"{letter}{rank}" for letter in "RYGBW" for rank in range(1, 6)]
    with translation.override(language):
        only_yellow_and_green = _could_be(["Y1", "G1"], 5)
        all_but_two = _could_be([code for code in every if code not in ("G5", "W5")], 5)
        assert _local_code("G3") == LETTERS[language]["G"] + "3"
    green, yellow, white = LETTERS[language]["G"], LETTERS[language]["Y"], LETTERS[language]["W"]
    assert only_yellow_and_green.endswith(f"{yellow}1 {green}1")
    assert all_but_two.endswith(f"{green}5 {white}5")
