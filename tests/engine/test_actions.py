"""Actions as values and as JSON, replay's error messages, and the state summary."""

import pytest

from games.engine import (
    Clue,
    Discard,
    GameOptions,
    IllegalAction,
    MalformedAction,
    Play,
    action_from_dict,
    action_text,
    action_to_dict,
    new_game,
    replay,
)


@pytest.mark.parametrize(
    ("action", "data"),
    [
        (Clue(1, colour="blue"), {"type": "clue", "target": 1, "colour": "blue"}),
        (Clue(2, rank=3), {"type": "clue", "target": 2, "rank": 3}),
        (Play(7), {"type": "play", "card_id": 7}),
        (Discard(0), {"type": "discard", "card_id": 0}),
    ],
)
def test_actions_to_and_from_json(action, data):
    assert action_to_dict(action) == data
    assert action_from_dict(data) == action
    assert hash(action_from_dict(data)) == hash(action)


def test_actions_are_immutable_values():
    assert Play(3) == Play(3) and Play(3) != Discard(3)
    assert Clue(1, colour="red") != Clue(1, rank=1)
    assert len({Play(3), Play(3), Discard(3)}) == 2
    with pytest.raises(AttributeError):
        Play(3).card_id = 4
    assert repr(Clue(1, colour="red")) == "Clue(target=1, colour='red')"


def test_action_from_dict_accepts_a_capitalised_colour():
    assert action_from_dict({"type": "clue", "target": 0, "colour": "Red"}) == Clue(0, colour="red")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("play", "JSON object"),
        ({"type": "pass"}, "clue, play or discard"),
        ({"type": "play"}, "card_id"),
        ({"type": "play", "card_id": "3"}, "card_id"),
        ({"type": "play", "card_id": True}, "card_id"),
        ({"type": "play", "card_id": -1}, "card_id"),
        ({"type": "play", "card_id": 3, "slot": 1}, "unexpected"),
        ({"type": "clue", "colour": "red"}, "target"),
        ({"type": "clue", "target": 1}, "exactly one"),
        ({"type": "clue", "target": 1, "colour": "pink"}, "not a colour"),
        ({"type": "clue", "target": 1, "rank": 0}, "rank"),
    ],
)
def test_malformed_action_dicts_say_what_is_wrong(data, message):
    with pytest.raises(MalformedAction, match=message):
        action_from_dict(data)


def test_a_malformed_action_is_also_an_illegal_action():
    assert issubclass(MalformedAction, IllegalAction)


def test_action_text_reveals_no_identity():
    names = ["Ann", "Bob"]
    assert action_text(Play(12), names, 0) == "Ann plays card 12"
    assert action_text(Discard(3), names, 1) == "Bob discards card 3"
    assert action_text(Clue(1, rank=2), names, 0) == "Ann clues Bob: 2s"
    assert action_text(Clue(0, colour="red")) == "clues player 1: red"


def test_replay_names_the_illegal_action():
    options = GameOptions(2)
    actions = [Clue(1, rank=1), {"type": "discard", "card_id": 99}]
    state = new_game(options, seed=1)
    rank = state.card(state.hand(1)[0]).rank
    actions[0] = Clue(1, rank=rank)
    with pytest.raises(IllegalAction) as caught:
        replay(options, 1, actions)
    assert caught.value.index == 1
    assert str(caught.value).startswith("action 1: card 99 is not in your hand")
    assert "discards card 99" in str(caught.value)
    with pytest.raises(MalformedAction) as caught:
        replay(options, 1, [{"type": "play"}])
    assert caught.value.index == 0


def test_replay_upto_and_its_bounds():
    options = GameOptions(2)
    state = new_game(options, seed=1)
    actions = [Play(state.hand(0)[0])]
    assert replay(options, 1, actions, upto=0).turn == 0
    assert replay(options, 1, actions, upto=1).turn == 1
    with pytest.raises(ValueError):
        replay(options, 1, actions, upto=2)


def test_summary_and_card_location():
    options = GameOptions(2)
    state = new_game(options, seed=1)
    assert state.summary() == {
        "turn": 0,
        "current_seat": 0,
        "is_over": False,
        "end": None,
        "score": 0,
        "max_score": 25,
        "max_reachable_score": 25,
        "clue_tokens": 8,
        "fuses_left": 3,
        "deck_size": 40,
        "turns_left": None,
    }
    assert state.card_location(0) == ("hand", 0)
    assert state.card_location(5) == ("hand", 1)
    assert state.card_location(10) == ("deck", None)
    played = state.hand(0)[0]
    state.apply(Play(played))
    assert state.card_location(played) in (("fireworks", None), ("discards", None))
