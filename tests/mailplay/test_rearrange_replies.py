"""Replies by email and rearranging (issue 27): "play 3" names a slot, and a rearrangement
changes what slot 3 holds. A reply for a turn in which the player rearranged their own hand
is refused with the reason and the hand as it is now; "play 3 now" plays what slot 3 holds
now; a rearrangement by another player, or in an earlier turn, changes nothing of it."""

import pytest

from games.models import Game, Move
from games.services import rearrange
from mailplay.models import InboundMessage
from tests.games.conftest import current_user, start_game, user_at
from tests.mailplay.conftest import send_reply

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once")]


def own_hand(game: Game, seat: int) -> list[int]:
    game.refresh_from_db()
    return list(game.load_state().hand(seat))


def answers_to(mailoutbox, user) -> list:
    return [m for m in mailoutbox if m.to == [user.email] and "Hanabi game" in m.subject]


def test_a_slot_reply_after_rearranging_this_turn_is_refused_then_now_plays(alice, bob, mailoutbox):
    game = start_game(alice, bob, rearrange=True)
    seat, mover = game.current_seat, current_user(game)
    before = own_hand(game, seat)
    rearrange.rearrange_hand(game.pk, mover, 5, 1, before)  # on the site, during the turn

    message = send_reply(game, mover, "play 3")
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.filter(game=game).exists()
    (answer,) = answers_to(mailoutbox, mover)
    body = " ".join(answer.body.split())
    assert "Your hand was rearranged during this turn" in body
    assert "reply “play 3 now”" in body and "Nothing was played." in body
    assert "Your hand (" in body  # the hand as it is now, to read the slots from

    mailoutbox.clear()
    now = own_hand(game, seat)
    message = send_reply(game, mover, "play 3 now")
    assert message.status == InboundMessage.Status.MOVED
    assert Move.objects.get(game=game, turn=0).action == {"type": "play", "card_id": now[2]}
    assert now[2] == before[1]  # the card the old slot 2 held: slot 3 as the hand is now


def test_another_players_rearrangement_changes_nothing_of_a_slot_reply(alice, bob):
    game = start_game(alice, bob, rearrange=True)
    seat, mover = game.current_seat, current_user(game)
    other = 1 - seat
    rearrange.rearrange_hand(game.pk, user_at(game, other), 5, 1, own_hand(game, other))
    own = own_hand(game, seat)
    message = send_reply(game, mover, "play 2")
    assert message.status == InboundMessage.Status.MOVED
    assert Move.objects.get(game=game, turn=0).action == {"type": "play", "card_id": own[1]}
