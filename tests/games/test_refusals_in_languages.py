"""The lobby's and the spectators' refusals as the site shows them, in the reader's language
(issue 29): the services word them when they refuse, in the language of the request. English
is unchanged (tests/games/test_refusals.py and the services' tests)."""

import pytest

from games import spectators
from games.engine import GameOptions
from games.models import Game, Spectator, SpectatorPolicy
from games.services import lobby
from tests.games.conftest import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]


def speaking(user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    return user


def messages_after(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


@pytest.mark.parametrize(
    "language, started, full",
    [
        (
            "de",
            "Diese Partie hat schon begonnen; du kannst nicht mehr beitreten.",
            "Alle Plätze an diesem Tisch sind besetzt.",
        ),
        (
            "fr",
            "Cette partie a déjà commencé ; tu ne peux plus la rejoindre.",
            "Toutes les places de cette table sont prises.",
        ),
        ("en", "This game has already started; you can no longer join it.", None),
    ],
)
def test_joining_too_late_is_refused_in_the_readers_language(
    client, alice, bob, carol, mallory, language, started, full
):
    game = start_game(alice, bob)
    client.force_login(speaking(carol, language))
    response = client.post(f"/games/{game.pk}/join/", follow=True)
    assert messages_after(response) == [started]
    if full is not None:
        table = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.PUBLIC)
        lobby.join_game(table.pk, mallory)
        response = client.post(f"/games/{table.pk}/join/", follow=True)
        assert messages_after(response) == [full]


@pytest.mark.parametrize(
    "language, refusal",
    [
        ("de", "Du hast dieser Partie zugesehen: Du kannst keinen Platz darin einnehmen."),
        ("fr", "Tu as regardé cette partie : tu ne peux pas y prendre place."),
    ],
)
def test_a_spectator_is_refused_a_seat_in_their_language(client, alice, bob, language, refusal):
    """The spectators' refusal is a constant, worded when it is shown (gettext_lazy)."""
    game = lobby.create_game(
        alice, GameOptions(players=3), Game.Visibility.PUBLIC, spectators=SpectatorPolicy.DURING
    )
    Spectator.objects.create(game=game, user=bob)
    client.force_login(speaking(bob, language))
    response = client.post(f"/games/{game.pk}/join/", follow=True)
    assert messages_after(response) == [refusal]
    assert str(spectators.WATCHED) == "You watched this game: you cannot take a seat in it."
