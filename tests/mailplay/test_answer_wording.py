"""What the answer to a reply says: a command that was read but cannot be carried out is
refused with the reason ("no move was made"), never "not understood"; words that hold no
command are not understood, and get the commands (issue 27)."""

import pytest

from games.engine import SUITS
from games.models import Game, Move
from mailplay.models import InboundMessage
from tests.games.conftest import current_user, start_game
from tests.mailplay.conftest import send_reply

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once")]


@pytest.fixture
def game(alice, bob, carol) -> Game:
    return start_game(alice, bob, carol)


def the_answer(mailoutbox, user):
    (answer,) = [m for m in mailoutbox if m.to == [user.email] and "Hanabi game" in m.subject]
    return answer


def assert_refused(message, game, answer, reason: str) -> None:
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.filter(game=game).exists()
    assert answer.subject.endswith(": no move was made")
    assert "not understood" not in answer.subject + answer.body
    assert reason in answer.body
    assert "Nothing was played." in answer.body


def test_a_slot_the_hand_does_not_have_is_refused_with_the_slots_it_has(game, mailoutbox):
    mover = current_user(game)
    message = send_reply(game, mover, "play 9")
    answer = the_answer(mailoutbox, mover)
    assert_refused(message, game, answer, "There is no slot 9: your hand has slots 1 to 5.")


def test_a_player_not_at_the_table_is_refused_with_the_players_who_are(alice, bob, mailoutbox):
    game = start_game(alice, bob)
    mover = current_user(game)
    other = game.seat_names()[1 - game.current_seat]
    message = send_reply(game, mover, "clue carol red")
    answer = the_answer(mailoutbox, mover)
    assert_refused(message, game, answer, "There is no player “carol”")
    assert other in message.outcome


def test_a_clue_that_touches_no_card_is_refused_with_the_rule(game, mailoutbox):
    mover = current_user(game)
    state = game.load_state()
    target = (game.current_seat + 1) % state.players
    held = {state.card(card_id).suit_name for card_id in state.hand(target)}
    missing = next(colour for colour in SUITS[:5] if colour not in held)
    message = send_reply(game, mover, f"clue {target + 1} {missing}")
    answer = the_answer(mailoutbox, mover)
    assert_refused(message, game, answer, f"clue {game.seat_names()[target]}: {missing}")
    assert "touch" in message.outcome  # the engine's reason: a clue must touch a card


def test_a_clue_to_oneself_is_refused(game, mailoutbox):
    mover = current_user(game)
    message = send_reply(game, mover, f"clue {game.current_seat + 1} red")
    answer = the_answer(mailoutbox, mover)
    assert_refused(message, game, answer, "You cannot clue yourself.")


def test_words_without_a_command_are_not_understood_and_get_the_commands(game, mailoutbox):
    mover = current_user(game)
    message = send_reply(game, mover, "I will pass this time")
    answer = the_answer(mailoutbox, mover)
    assert message.status == InboundMessage.Status.ANSWERED
    assert answer.subject.endswith(": your reply was not understood")
    assert "is not a command" in answer.body
    assert "Reply with one command" in answer.body  # the commands, for this game
