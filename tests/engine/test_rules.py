"""A turn: exactly one action (RULES.md, "A turn"). Two players unless said otherwise:
seat 0 holds cards 0-4, seat 1 holds cards 5-9, and card 10 is the next to draw."""

import pytest

from games.engine import (
    Clue,
    Discard,
    GameOptions,
    IllegalAction,
    MalformedAction,
    Play,
    new_game,
)

from .helpers import deck_with_top

TWO = GameOptions(2)


def game(top: str, options: GameOptions = TWO):
    return new_game(options, deck=deck_with_top(options, top))


def assert_refused(state, action, match):
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match=match):
        state.apply(action)
    assert state.fingerprint() == before, "an illegal action changed the state"


# -- clues --------------------------------------------------------------------------------------


def test_a_clue_costs_a_token_and_touches_every_matching_card():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    event = state.apply(Clue(1, colour="red"))
    assert event.kind == "clue" and event.target == 1
    assert set(event.touched) == {5, 7}
    assert event.hand == (9, 8, 7, 6, 5)
    assert state.clue_tokens == 7
    assert state.turn == 1 and state.current_seat == 1
    # no card moves and nothing is drawn
    assert state.hands == ((4, 3, 2, 1, 0), (9, 8, 7, 6, 5))
    assert state.deck_size == 40


def test_a_rank_clue_touches_every_card_of_that_rank():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    assert set(state.apply(Clue(1, rank=3)).touched) == {5, 6}


def test_clue_at_zero_tokens_is_illegal():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    for _ in range(8):
        target = 1 - state.current_seat
        state.apply(Clue(target, rank=1 if target == 0 else 3))
    assert state.clue_tokens == 0
    assert_refused(state, Clue(1, rank=3), "no clue token")
    assert not any(isinstance(action, Clue) for action in state.legal_actions())


def test_a_player_cannot_clue_themselves_or_a_missing_seat():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    assert_refused(state, Clue(0, colour="red"), "themselves")
    assert_refused(state, Clue(2, colour="red"), "no player 3")


def test_a_clue_must_touch_a_card_when_empty_clues_are_off():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    assert_refused(state, Clue(1, colour="green"), "at least one card")
    assert_refused(state, Clue(1, rank=5), "at least one card")


def test_multicolour_cannot_be_clued_without_a_sixth_suit():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    assert_refused(state, Clue(1, colour="multicolour"), "no multicolour suit")


def test_a_clue_names_one_colour_or_one_rank():
    with pytest.raises(MalformedAction):
        Clue(1)
    with pytest.raises(MalformedAction):
        Clue(1, colour="red", rank=2)
    with pytest.raises(MalformedAction):
        Clue(1, colour="purple")
    with pytest.raises(MalformedAction):
        Clue(1, rank=6)
    with pytest.raises(MalformedAction):
        Clue(-1, rank=1)


# -- discards -----------------------------------------------------------------------------------


def test_discard_at_eight_tokens_is_illegal():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    assert state.clue_tokens == 8
    assert_refused(state, Discard(0), "all 8 clue tokens")
    assert not any(isinstance(action, Discard) for action in state.legal_actions())


def test_discard_returns_a_token_and_draws_into_slot_one():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2  G5")
    state.apply(Clue(1, colour="red"))
    state.apply(Clue(0, rank=1))
    assert state.clue_tokens == 6
    event = state.apply(Discard(2))
    assert event.kind == "discard" and event.card_id == 2 and event.drawn == 10
    assert state.clue_tokens == 7
    assert state.discards == (2,)
    assert state.hand(0) == (10, 4, 3, 1, 0)
    assert state.deck_size == 39


# -- plays --------------------------------------------------------------------------------------


def test_a_playable_card_joins_its_firework_and_is_replaced():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    event = state.apply(Play(0))
    assert event.placed is True and event.drawn == 10
    assert state.fireworks == (1, 0, 0, 0, 0)
    assert state.played == (0,)
    assert state.score == 1
    assert state.clue_tokens == 8 and state.fuses_left == 3
    assert state.hand(0) == (10, 4, 3, 2, 1)


def test_a_one_starts_a_firework_and_each_rank_comes_once_in_order():
    state = game("R1 R1 R2 R3 B1  Y1 Y2 W1 W2 G1")
    state.apply(Play(0))  # red 1
    state.apply(Play(5))  # yellow 1
    event = state.apply(Play(1))  # a second red 1: misplay
    assert event.placed is False
    assert state.fuses_left == 2
    assert state.fireworks[0] == 1


def test_a_misplay_burns_a_fuse_goes_to_the_discards_and_keeps_the_tokens():
    state = game("R2 R3 Y1 G1 B1  R1 Y3 R4 W1 W2")
    state.apply(Clue(1, colour="red"))
    event = state.apply(Play(5))  # seat 1 plays red 1: fine
    assert event.placed
    event = state.apply(Play(1))  # seat 0 plays red 3 on red 1: misplay
    assert event.placed is False and event.drawn == 11
    assert state.fuses_left == 2
    assert state.clue_tokens == 7
    assert state.discards == (1,)
    assert state.fireworks[0] == 1


def test_a_five_played_at_eight_tokens_gains_nothing():
    state = game("R1 R2 R3 R4 R5  Y1 Y2 Y3 Y4 Y5  G1 G2 G3 G4 G5 B1 B2 B3 B4 B5")
    for red, yellow in zip(range(4), range(5, 9), strict=True):
        state.apply(Play(red))
        state.apply(Play(yellow))
    assert state.fireworks == (4, 4, 0, 0, 0) and state.clue_tokens == 8
    event = state.apply(Play(4))  # red 5 at 8 tokens
    assert event.placed and not event.bonus
    assert state.clue_tokens == 8
    assert state.fireworks[0] == 5


def test_a_five_played_below_eight_tokens_returns_one():
    state = game("R1 R2 R3 R4 R5  Y1 Y2 Y3 Y4 Y5  G1 G2 G3 G4 G5 B1 B2 B3 B4 B5")
    for red, yellow in zip(range(4), range(5, 9), strict=True):
        state.apply(Play(red))
        state.apply(Play(yellow))
    state.apply(Play(4))  # red 5 at 8 tokens
    state.apply(Clue(0, colour="green"))  # 7 tokens
    state.apply(Play(10))  # seat 0 plays green 1
    event = state.apply(Play(9))  # yellow 5 at 7 tokens
    assert event.bonus
    assert state.clue_tokens == 8


# -- naming cards -------------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", [5, 10, 49, 50, 1000])
def test_a_card_not_in_the_movers_hand_cannot_be_played_or_discarded(card_id):
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    state.apply(Clue(1, colour="red"))
    state.apply(Clue(0, rank=1))
    assert_refused(state, Play(card_id), "not in your hand")
    assert_refused(state, Discard(card_id), "not in your hand")


def test_the_message_for_a_hidden_card_reveals_nothing():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    with pytest.raises(IllegalAction) as caught:
        state.apply(Play(7))
    assert str(caught.value) == "card 7 is not in your hand"


def test_nothing_is_legal_after_the_end():
    state = game("R2 R3 R4 R5 Y5  Y4 Y3 Y2 W5 W4", GameOptions(2, fuses=1))
    state.apply(Play(0))
    assert state.is_over
    assert state.legal_actions() == []
    assert state.current_seat is None
    assert_refused(state, Clue(0, rank=2), "over")


# -- turns and legal actions -----------------------------------------------------------------


def test_turns_rotate_through_the_seats_in_order():
    state = new_game(GameOptions(4), seed=3)
    seats = []
    for _ in range(8):
        seats.append(state.current_seat)
        clue = next(a for a in state.legal_actions() if isinstance(a, Clue))
        if state.clue_tokens == 0:
            break
        state.apply(clue)
    assert seats == [0, 1, 2, 3, 0, 1, 2, 3]


def test_legal_actions_are_exactly_the_actions_apply_accepts():
    state = new_game(GameOptions(3, multicolour=3), seed=11)
    state.apply(Clue(1, rank=next(state.card(c).rank for c in state.hand(1))))
    candidates = [Play(c) for c in range(20)] + [Discard(c) for c in range(20)]
    colours = ["red", "yellow", "green", "blue", "white", "multicolour"]
    candidates += [Clue(t, colour=c) for t in range(3) for c in colours]
    candidates += [Clue(t, rank=r) for t in range(3) for r in range(1, 6)]
    legal = set(state.legal_actions())
    for action in candidates:
        assert state.is_legal(action) == (action in legal), action
    assert len(legal) == len(state.legal_actions())


def test_copy_is_independent():
    state = new_game(TWO, seed=5)
    other = state.copy()
    other.apply(Play(other.hand(0)[0]))
    assert state.turn == 0 and other.turn == 1
    assert state.hands != other.hands
    assert new_game(TWO, seed=5).fingerprint() == state.fingerprint()


def test_apply_is_atomic_for_every_kind_of_illegal_action():
    state = new_game(TWO, seed=8)
    for action in [Discard(0), Clue(0, rank=1), Play(7), Clue(9, rank=1), "play"]:
        before = state.fingerprint()
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert state.fingerprint() == before
