"""The game table in the reader's language (issue 29): its words, the cached table kept apart
per language, the table's messages and the services' refusals as the web shows them, and
what the keyboard script says. English is unchanged (every other test of the table)."""

import re

import pytest
from django.utils import timezone, translation
from django.utils.formats import date_format

from games.engine import action_to_dict
from games.models import Game
from games.services import play
from tests.games.conftest import current_user, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]


def speaking(user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    return user


def messages_after(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def other_player(game: Game, user):
    return game.seats.exclude(user=user).first().user


@pytest.mark.parametrize(
    "language, words",
    [
        ("de", ["Deine Hand", "Hinweisplättchen", "Ablagestapel", "Verlauf", "Du bist am Zug."]),
        ("fr", ["Ta main", "Jetons indice", "Défausse", "Historique", "C'est ton tour."]),
        ("en", ["Your hand", "Clue tokens", "Discard pile", "History", "It is your turn."]),
    ],
)
def test_the_table_speaks_the_readers_language(client, alice, bob, language, words):
    game = start_game(alice, bob, turn_time_limit=24)
    player = speaking(current_user(game), language)
    client.force_login(player)
    page = client.get(f"/games/{game.pk}/").content.decode()
    for word in words:
        assert word in page, word
    assert f'<main id="main" lang="{language}">' in page
    # The deadline by the language's named format: a weekday of that language.
    deadline = re.search(r'<time datetime="[^"]+">([^<]+)</time>', page)[1]
    game.refresh_from_db()
    with translation.override(language):
        shown = date_format(timezone.localtime(game.turn_deadline), "SHORT_DATETIME_FORMAT")
    assert deadline == shown


def test_the_cached_table_is_kept_per_language(client, alice, bob):
    """The same viewer, the same version of the game: a change of language is a new table,
    not the cached one in the other language."""
    game = start_game(alice, bob)
    player = current_user(game)
    client.force_login(player)
    assert "Your hand" in client.get(f"/games/{game.pk}/").content.decode()
    speaking(player, "de")
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Deine Hand" in page and "Your hand" not in page
    speaking(player, "en")
    assert "Your hand" in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.parametrize(
    "language, not_your_turn, stale",
    [
        (
            "de",
            "Du bist nicht am Zug.",
            "Die Partie ist weitergegangen, seit deine Seite geladen wurde",
        ),
        ("fr", "Ce n'est pas ton tour.", "La partie a avancé depuis le chargement de ta page"),
        (
            "en",
            "It is not your turn.",
            "The game moved on since your page was loaded, so that move was not made.",
        ),
    ],
)
def test_a_refused_move_says_why_in_the_readers_language(
    client, alice, bob, language, not_your_turn, stale
):
    game = start_game(alice, bob)
    mover = current_user(game)
    waiting = speaking(other_player(game, mover), language)
    client.force_login(waiting)
    card = game.load_state().hand(game.current_seat)[0]
    post = {"turn": game.turn, "kind": "discard", "card": card}
    response = client.post(f"/games/{game.pk}/move/", post, follow=True)
    assert messages_after(response) == [not_your_turn]

    # A page from before the last move: the move is not made, and the table says so.
    state = game.load_state()
    clue = next(a for a in state.legal_actions() if type(a).__name__ == "Clue")
    play.submit_action(game.pk, mover, {"type": "clue", **_clue(clue)}, game.turn)
    response = client.post(f"/games/{game.pk}/move/", {**post, "turn": 0}, follow=True)
    (message,) = messages_after(response)
    assert message.startswith(stale)


def _clue(clue) -> dict:
    return {k: v for k, v in action_to_dict(clue).items() if k != "type"}


@pytest.mark.parametrize(
    "language, refused, paused",
    [
        (
            "de",
            "Diese Partie hat kein Zeitlimit: es gibt keine Uhr anzuhalten.",
            "Du hast um eine Pause gebeten.",
        ),
        (
            "fr",
            "Cette partie n'a pas de limite de temps : il n'y a pas d'horloge à arrêter.",
            "Tu as demandé une pause.",
        ),
        (
            "en",
            "This game has no time limit: there is no clock to pause.",
            "You asked for a pause.",
        ),
    ],
)
def test_the_clock_buttons_answer_in_the_readers_language(
    client, alice, bob, carol, language, refused, paused
):
    untimed = start_game(alice, bob)
    speaking(alice, language)
    client.force_login(alice)
    response = client.post(f"/games/{untimed.pk}/pause/", {"wants_pause": "yes"}, follow=True)
    assert messages_after(response) == [refused]
    timed = start_game(alice, carol, turn_time_limit=24)
    response = client.post(f"/games/{timed.pk}/pause/", {"wants_pause": "yes"}, follow=True)
    assert messages_after(response) == [paused]


def test_the_keyboard_scripts_words_are_on_the_page_in_the_readers_language(client, alice, bob):
    """static/js/keys.js reads its sentences from #keys-words: the reader's language, with
    the script's {slot} and {count} left for it to fill in."""
    game = start_game(alice, bob)
    client.force_login(speaking(alice, "de"))
    page = client.get(f"/games/{game.pk}/").content.decode()
    words = re.search(r'<div id="keys-words" hidden(.*?)></div>', page, re.S)[1]
    assert 'data-not-your-turn="Du bist nicht am Zug."' in words
    assert 'data-enter-plays="Enter spielt Platz {slot} aus, Esc vergisst die Wahl."' in words
    assert 'data-rank-clue="{rank}er"' in words
    assert 'data-colour-multicolour="bunt"' in words


@pytest.mark.parametrize(
    ("language", "green", "yellow", "white", "blue"),
    [("de", "Gr", "G", "W", "B"), ("fr", "V", "J", "B", "Bl"), ("en", "G", "Y", "W", "B")],
)
def test_the_cards_letters_are_the_readers_as_in_their_emails(
    client, alice, bob, language, green, yellow, white, blue
):
    """A German reader takes "G" for gelb, as their emails and replies do: a teammate's
    green card shows "Gr", the board's yellow firework "G", the pips of one's own cards the
    same letters."""
    game = start_game(alice, bob)
    player = speaking(current_user(game), language)
    client.force_login(player)
    page = client.get(f"/games/{game.pk}/").content.decode()
    state = game.load_state()
    teammate = 1 - state.current_seat
    for cid in state.hand(teammate):
        card = state.card(cid)
        letter = {"green": green, "yellow": yellow, "white": white, "blue": blue}.get(
            card.suit_name
        )
        if letter:
            assert f'<span class="letter">{letter}</span>{card.rank}' in page, card
    board = page[page.index('class="board') :]
    for shown in (green, yellow, white, blue):
        assert f'<span class="letter">{shown}</span>' in board
    pips = re.findall(r'<span class="pip suit-(\w+)">(\w+)</span>', page)
    assert ("green", green) in pips and ("yellow", yellow) in pips
