"""Replies to turn emails in German and French make their moves the whole way a reply takes
(stored, processed by its outbox row, answered), and a colour letter that means another
colour in another language is read in the language of the seat's player (issue 29)."""

import pytest
from django.conf import settings

from accounts.models import User
from games.engine import GameOptions
from games.models import ChatMessage, ChatPolicy, Game, Move
from games.text_commands import VOCABULARIES
from mailplay.models import InboundMessage
from tests.engine.helpers import deck_with_top
from tests.games.conftest import current_user, start_game
from tests.mailplay.conftest import send_reply

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once", "translated")]

# "Done: clue Bob: blue." in each language, the colour as its edition names it (issue 29).
DONE_CLUE = {
    "en": "Done: clue {name}: {colour}.",
    "de": "Erledigt: Hinweis an {name}: {colour}.",
    "fr": "C'est fait : indice à {name} : {colour}.",
}

# Every hand holds a blue and a white card: seat 0 deals ids 0-4, seat 1 ids 5-9, and so on;
# slot 1 is the newest card, the last dealt.
TOP = "R1 B1 W1 Y1 G1  R1 B2 W2 Y2 G2  R1 B3 W3 Y3 G3"


@pytest.fixture
def game(alice, bob, carol) -> Game:
    deck = [list(card) for card in deck_with_top(GameOptions(3), TOP)]
    return start_game(alice, bob, carol, deck=deck, chat_policy=ChatPolicy.DURING)


def speaks(user: User, language: str) -> User:
    user.language = language
    user.save(update_fields=["language"])
    return user


def the_move(game: Game, turn: int) -> dict:
    return Move.objects.get(game=game, turn=turn).action


def next_seat(game: Game) -> int:
    game.refresh_from_db()
    return (game.current_seat + 1) % 3


def answer_to(mailoutbox, user: User):
    (answer,) = [m for m in mailoutbox if m.to == [user.email] and "Hanabi" in m.subject]
    return answer


def test_a_language_is_one_of_the_sites_and_the_sites_by_default(alice):
    assert [code for code, _ in settings.LANGUAGES] == ["en", "de", "fr"]
    assert alice.language == settings.LANGUAGE_CODE == "en"
    assert [code for code, _ in User._meta.get_field("language").choices] == ["en", "de", "fr"]


@pytest.mark.parametrize(
    "language, command, colour",
    [
        ("en", "clue {seat} b", "blue"),
        ("de", "hinweis {seat} b", "blue"),
        ("fr", "indice {seat} b", "white"),
        # The letter is the reader's, whatever the language of the verb.
        ("fr", "clue {seat} b", "white"),
        ("de", "indice {seat} B", "blue"),
        ("de", "clue {seat} g", "yellow"),
        ("en", "hinweis {seat} g", "green"),
    ],
)
def test_a_colour_letter_is_read_in_the_players_language(
    game, mailoutbox, language, command, colour
):
    mover = speaks(current_user(game), language)
    target = next_seat(game)
    message = send_reply(game, mover, command.format(seat=target + 1))
    assert message.status == InboundMessage.Status.MOVED, message.outcome
    assert the_move(game, 0) == {"type": "clue", "target": target, "colour": colour}
    name = game.seats.get(position=target).name
    shown = VOCABULARIES[language].colour_names[colour]
    assert DONE_CLUE[language].format(name=name, colour=shown) in answer_to(mailoutbox, mover).body


def test_a_game_played_by_replies_in_german_and_in_french(game, mailoutbox):
    """Four turns: a German clue, a French clue, a German discard (wirf … ab), a French play,
    each from a player whose language it is, each a move made and answered."""
    hands = {seat: game.load_state().hand(seat) for seat in range(3)}
    first = speaks(current_user(game), "de")
    target = next_seat(game)
    assert (
        send_reply(game, first, f"Hinweis {target + 1} rot").status == InboundMessage.Status.MOVED
    )
    assert the_move(game, 0) == {"type": "clue", "target": target, "colour": "red"}
    assert "Erledigt: Hinweis an " in answer_to(mailoutbox, first).body

    mailoutbox.clear()
    second = speaks(current_user(game), "fr")
    target = next_seat(game)
    assert (
        send_reply(game, second, f"indice {target + 1} trois").status == InboundMessage.Status.MOVED
    )
    assert the_move(game, 1) == {"type": "clue", "target": target, "rank": 3}

    mailoutbox.clear()
    third = speaks(current_user(game), "de")
    seat = game.current_seat
    assert send_reply(game, third, "Wirf die 5 ab.").status == InboundMessage.Status.MOVED
    assert the_move(game, 2) == {"type": "discard", "card_id": hands[seat][4]}
    assert "Erledigt: wirf Platz 5 ab." in answer_to(mailoutbox, third).body

    mailoutbox.clear()
    fourth = speaks(current_user(game), "fr")
    seat = game.current_seat
    assert fourth == first
    message = send_reply(game, fourth, "Joue la carte 2\nchat: à toi !")
    assert message.status == InboundMessage.Status.MOVED, message.outcome
    assert the_move(game, 3) == {"type": "play", "card_id": hands[seat][1]}
    assert "C'est fait : joue la position 2." in answer_to(mailoutbox, fourth).body
    assert ChatMessage.objects.get(game=game, author=fourth).text == "à toi !"


@pytest.mark.parametrize("text", ["hilfe", "aide"])
def test_help_in_german_or_french_answers_with_the_commands(game, mailoutbox, text):
    mover = speaks(current_user(game), "de")
    message = send_reply(game, mover, text)
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.filter(game=game).exists()
    assert "Antworte mit einem Befehl" in answer_to(mailoutbox, mover).body


def test_a_letter_no_language_of_the_player_settles_moves_nothing(game, mailoutbox):
    # "g" is green in English and gelb (yellow) in German; French has no colour with G.
    mover = speaks(current_user(game), "fr")
    message = send_reply(game, mover, f"indice {next_seat(game) + 1} g")
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.filter(game=game).exists()
    body = answer_to(mailoutbox, mover).body
    # In the player's language: "vert en anglais", "jaune en allemand".
    assert "vert en anglais" in body and "jaune en allemand" in body
