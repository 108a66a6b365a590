"""What the house bot believes, said in German and in French (issue 29): the remarks of the
history and the table's status line in the reader's language, every change the mixed games
produce worded whole in each (no English left, every value filled in), and the card named
as that language's edition names it."""

import re

import pytest
from django.utils import translation

from games.bot_remarks import Voice, remark
from games.bots.beliefs import changes
from games.engine import view_for
from tests.bots.test_beliefs import OFF, _game, _mixed_games, _said
from tests.test_every_page_in_languages import ENGLISH

pytestmark = pytest.mark.usefixtures("translated")

SAID = {
    "de": (
        "Bot 2 liest die Hinweise von Alice ab jetzt wörtlich: Bot 2 hat rot 3 falsch "
        "ausgespielt, die der Hinweis von Alice als spielbar markiert hatte.",
        "Bot 2 liest deine Hinweise wörtlich (seit Zug 4).",
    ),
    "fr": (
        "Bot 2 lit désormais les indices d'Alice à la lettre : Bot 2 a joué rouge 3 par "
        "erreur, que l'indice d'Alice avait désignée comme jouable.",
        "Bot 2 lit tes indices à la lettre (depuis le tour 4).",
    ),
}


@pytest.mark.parametrize("language", sorted(SAID))
def test_a_misleading_clue_is_told_in_the_readers_language(language):
    state = _game(*OFF)
    with translation.override(language):
        remarks, _lines = _said(state)
        _remarks, lines = _said(state, viewer=0)
    remark_said, line_said = SAID[language]
    assert remarks == {3: [remark_said]}  # French elides: "d'Alice", not "de Alice"
    assert lines == [line_said]


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_change_is_worded_whole_in_each_language(language):
    worded = 0
    for state in _mixed_games(9):
        view = view_for(state, 0)
        names = [f"P{seat}" for seat in range(state.players)]
        found = changes(view["options"], view["history"])
        for viewer in (None, 0, 1):
            voice_args = (names, [], viewer)
            for change in found:
                with translation.override(language):
                    text = remark(Voice(*voice_args), change)
                assert "%(" not in text and ENGLISH.search(re.sub(r"P\d", "", text)) is None, text
                worded += 1
    assert worded > 20
