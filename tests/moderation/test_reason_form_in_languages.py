"""The moderators' reason form in German and French (issue 29): the admin action asks why
in the moderator's language, and says in it that it is done. English is unchanged
(tests/games/test_moderation.py)."""

from html import unescape

import pytest

from tests.conftest import make_moderator
from tests.games.conftest import start_game
from tests.games.test_moderation import admin_action

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]


@pytest.mark.parametrize(
    "language, expected, done",
    [
        (
            "de",
            [
                "Warum",
                "So viele Stunden mehr für den aktuellen Zug",
                "Spieler sehen die Begründung im Verlauf der Partie",
                'value="Dem aktuellen Zug mehr Zeit geben"',
                "Für: ",
            ],
            ": erledigt.",
        ),
        (
            "fr",
            [
                "Pourquoi",
                "Donner ce nombre d'heures de plus au tour en cours",
                "Les joueurs voient la raison dans l'historique de la partie",
                'value="Donner plus de temps au tour en cours"',
                "Pour : ",
            ],
            " : fait.",
        ),
    ],
)
def test_the_reason_form_in_the_moderators_language(client, alice, bob, language, expected, done):
    moderator = make_moderator()
    moderator.language = language
    moderator.save(update_fields=["language"])
    client.force_login(moderator)
    game = start_game(alice, bob, turn_time_limit=24)
    html = unescape(admin_action(client, "game", "extend", game.pk).content.decode())
    assert [text for text in expected if text not in html] == []
    response = admin_action(client, "game", "extend", game.pk, "late", hours=2)
    assert [str(m) for m in response.context["messages"]] == [f"{game}{done}"]
