"""Rearranging one's hand (issue 27; RULES.md, "Rearranging one's hand"): an option, off by
default; free (no turn, no token, no fuse); any seat, on anyone's turn, while the game goes
on; a card moves to a slot and the cards between shift over, as a drag does; kept in the
actions, the record and the history (by slots only); refused by hanab.live's export."""

import random

import pytest

from games.engine import (
    Clue,
    Discard,
    ExportError,
    GameOptions,
    IllegalAction,
    MalformedAction,
    Play,
    Rearrange,
    action_from_dict,
    action_to_dict,
    from_record,
    history_text,
    new_game,
    rearranged,
    replay,
    takes_turn,
    to_hanablive,
    to_record,
    view_for,
)

NAMES = ["Ann", "Bob", "Cid"]


def game(players: int = 3, **options):
    return new_game(GameOptions(players, rearrange=True, **options), seed=7)


def test_the_option_is_off_by_default_and_absent_from_the_dict_then():
    assert GameOptions(3).rearrange is False
    assert "rearrange" not in GameOptions(3).to_dict()
    on = GameOptions(3, rearrange=True)
    assert on.to_dict()["rearrange"] is True
    assert GameOptions.from_dict(on.to_dict()) == on
    assert on.describe() == "3 players, rearranging"
    with pytest.raises(ValueError, match="rearrange"):
        GameOptions(3, rearrange="yes")


def test_without_the_option_a_rearrangement_is_refused_and_changes_nothing():
    state = new_game(GameOptions(3), seed=7)
    before = state.fingerprint()
    card = state.hand(0)[4]
    with pytest.raises(IllegalAction, match="not an option of this game"):
        state.apply(Rearrange(0, card, 1))
    assert state.fingerprint() == before and state.actions == []


def test_a_card_moves_as_a_drag_does():
    assert rearranged([10, 11, 12, 13, 14], 13, 1) == [13, 10, 11, 12, 14]
    assert rearranged([10, 11, 12, 13, 14], 10, 5) == [11, 12, 13, 14, 10]
    assert rearranged([10, 11, 12, 13, 14], 11, 3) == [10, 12, 11, 13, 14]


def test_a_rearrangement_is_free_and_any_seats_on_anyones_turn():
    state = game()
    hand = state.hand(2)
    tokens, fuses, turn, seat = state.clue_tokens, state.fuses_left, state.turn, state.current_seat
    moved = state.apply(Rearrange(2, hand[3], 1))  # seat 2, during seat 0's turn
    assert state.hand(2) == (hand[3], hand[0], hand[1], hand[2], hand[4])
    assert (state.clue_tokens, state.fuses_left, state.turn, state.current_seat) == (
        tokens,
        fuses,
        turn,
        seat,
    )
    assert state.events == []
    assert (moved.turn, moved.seat, moved.from_slot, moved.to_slot) == (0, 2, 4, 1)
    # The current player too, then their move: one turn taken, the rearrangement none.
    state.apply(Rearrange(0, state.hand(0)[0], 5))
    state.apply(Clue(1, rank=state.card(state.hand(1)[0]).rank))
    assert state.turn == 1 and len(state.events) == 1 and len(state.rearrangements) == 2


@pytest.mark.parametrize(
    ("seat", "card", "slot", "message"),
    [
        (0, lambda s: s.hand(1)[0], 1, "is not in your hand"),  # another's card
        (0, lambda s: s.hand(0)[0], 6, "slots 1 to 5"),
        (0, lambda s: s.hand(0)[2], 3, "in slot 3 already"),
        (5, lambda s: s.hand(0)[0], 1, "no player 6"),
    ],
)
def test_a_bad_rearrangement_is_refused_with_why_and_changes_nothing(seat, card, slot, message):
    state = game()
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match=message):
        state.apply(Rearrange(seat, card(state), slot))
    assert state.fingerprint() == before and state.actions == []


def test_no_rearrangement_once_the_game_is_over():
    state = game(fuses=1)
    while not state.is_over:
        state.apply(Play(state.hand(state.current_seat)[0]))
    with pytest.raises(IllegalAction, match="over"):
        state.apply(Rearrange(0, state.hand(0)[0], 2))


def test_the_dict_round_trips_and_malformed_ones_are_refused():
    action = Rearrange(1, 7, 2)
    data = action_to_dict(action)
    assert data == {"type": "rearrange", "seat": 1, "card_id": 7, "slot": 2}
    assert action_from_dict(data) == action
    assert not takes_turn(action) and not takes_turn(data) and takes_turn(Play(1))
    with pytest.raises(MalformedAction, match="slot"):
        action_from_dict({"type": "rearrange", "seat": 1, "card_id": 7})
    with pytest.raises(MalformedAction, match="counts from 1"):
        action_from_dict({"type": "rearrange", "seat": 1, "card_id": 7, "slot": 0})
    with pytest.raises(MalformedAction, match="unexpected"):
        action_from_dict({"type": "rearrange", "seat": 1, "card_id": 7, "slot": 1, "x": 1})


def test_history_names_slots_only_and_the_next_move_names_the_new_slot():
    state = game()
    card = state.hand(0)[4]
    state.apply(Rearrange(0, card, 1))
    state.apply(Play(card))  # now in slot 1
    lines = history_text(state, NAMES)
    assert lines[0] == "Ann moves a card from slot 5 to slot 1"
    assert lines[1].startswith("Ann ") and "(slot 1" in lines[1]
    name = state.card(card).name
    assert name not in lines[0]
    # The owner's view: the entry says the slots, never the card.
    view = view_for(new_state_with_move(), 0, NAMES)
    entry = view["history"][0]
    assert entry["type"] == "rearrange" and (entry["from_slot"], entry["to_slot"]) == (5, 1)
    assert not {"card", "suit", "rank", "code"} & set(entry)
    assert view["hands"][0]["cards"][0]["id"] == new_state_with_move().hand(0)[0]


def new_state_with_move():
    state = game()
    state.apply(Rearrange(0, state.hand(0)[4], 1))
    return state


def test_every_seat_sees_the_rearrangement_in_the_history_and_the_hand():
    state = new_state_with_move()
    for seat in range(3):
        view = view_for(state, seat, NAMES)
        assert view["history"][0]["text"] == "Ann moves a card from slot 5 to slot 1"
        assert [card["id"] for card in view["hands"][0]["cards"]] == list(state.hand(0))


def test_replay_rebuilds_the_order_and_upto_counts_turns():
    state = game()
    state.apply(Rearrange(1, state.hand(1)[4], 1))
    state.apply(Clue(1, rank=state.card(state.hand(1)[0]).rank))
    after_first = state.hands
    state.apply(Rearrange(0, state.hand(0)[0], 3))
    state.apply(Discard(state.hand(1)[2]))
    actions = [action_to_dict(action) for action in state.actions]
    assert len(actions) == 4
    assert replay(state.options, 7, actions).fingerprint() == state.fingerprint()
    # upto: the state the n-th move left, without the rearrangements made after it.
    assert replay(state.options, 7, actions, upto=1).hands == after_first
    assert replay(state.options, 7, actions, upto=0).hands == new_game(state.options, 7).hands
    with pytest.raises(ValueError, match="between 0 and 2"):
        replay(state.options, 7, actions, upto=3)


def test_hanablive_cannot_hold_it_and_the_engines_record_does():
    state = game(players=2)
    state.apply(Rearrange(0, state.hand(0)[4], 1))
    state.apply(Play(state.hand(0)[0]))
    with pytest.raises(ExportError, match="rearrang"):
        to_hanablive(state.options, state.deck, state.actions, ["Ann", "Bob"])
    record = to_record(state.options, list(state.deck), state.actions, ["Ann", "Bob"])
    read = from_record(record)
    assert read.options == state.options and read.actions == state.actions
    assert read.replay().fingerprint() == state.fingerprint()


def test_random_rearrangements_change_only_the_order():
    """The same turns with and without rearrangements in between: the same cards played,
    tokens, fuses, score and ending; only the hands' order differs."""
    rng = random.Random(27)
    for seed in range(30):
        options = GameOptions(rng.randint(2, 6), rearrange=True)
        with_moves = new_game(options, seed=seed)
        plain = new_game(options, seed=seed)
        while not plain.is_over:
            for _ in range(rng.randint(0, 2)):
                seat = rng.randrange(options.players)
                hand = with_moves.hand(seat)
                if len(hand) > 1:
                    card = rng.choice(hand)
                    slot = rng.choice([s for s in range(1, len(hand) + 1) if hand[s - 1] != card])
                    with_moves.apply(Rearrange(seat, card, slot))
            action = rng.choice(plain.legal_actions())
            plain.apply(action)
            with_moves.apply(action)
            for seat in range(options.players):
                assert sorted(plain.hand(seat)) == sorted(with_moves.hand(seat))
            assert (plain.clue_tokens, plain.fuses_left, plain.score, plain.turn) == (
                with_moves.clue_tokens,
                with_moves.fuses_left,
                with_moves.score,
                with_moves.turn,
            )
        assert with_moves.is_over and with_moves.end == plain.end


def test_an_illegal_rearrangement_in_a_replay_names_its_mover():
    options = GameOptions(3, rearrange=True)
    actions = [{"type": "rearrange", "seat": 2, "card_id": 0, "slot": 1}]  # seat 0's card
    with pytest.raises(IllegalAction) as refused:
        replay(options, 7, actions)
    assert "player 3 moves card 0 to slot 1" in str(refused.value)
    assert refused.value.index == 0
