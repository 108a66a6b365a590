"""What each player knows (RULES.md), the per-seat views built on it (perspectives.py), and the
history in words."""

import json

import pytest

from games.engine import (
    Clue,
    Discard,
    GameOptions,
    Play,
    describe,
    end_text,
    finished_view,
    history_text,
    new_game,
    spectator_view,
    view_for,
)

from .helpers import deck_with_top

NAMES = ["Ann", "Bob", "Cid"]


def game(top: str, players: int = 2, **options):
    opts = GameOptions(players, **options)
    return new_game(opts, deck=deck_with_top(opts, top))


def own_cards(view):
    return {card["id"]: card for card in view["hands"][view["viewer"]]["cards"]}


# -- the per-seat view ----------------------------------------------------------------------------


def test_a_player_sees_other_hands_but_not_their_own():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    view = view_for(state, 0, NAMES[:2])
    mine, theirs = view["hands"]
    assert mine["is_viewer"] and not theirs["is_viewer"]
    assert [card["id"] for card in mine["cards"]] == [4, 3, 2, 1, 0]
    for card in mine["cards"]:
        assert not {"suit", "rank", "code"} & set(card)
    assert [card["code"] for card in theirs["cards"]] == ["W2", "W1", "R4", "Y3", "R3"]
    assert [card["slot"] for card in theirs["cards"]] == [1, 2, 3, 4, 5]


def test_the_view_shows_the_table():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    state.apply(Play(0))
    state.apply(Clue(0, rank=2))
    state.apply(Discard(1))
    view = view_for(state, 1, NAMES[:2])
    assert view["turn"] == 3 and view["current_seat"] == 1 and view["your_turn"]
    assert view["clue_tokens"] == 8 and view["fuses_left"] == 3 and view["fuses"] == 3
    assert view["deck_size"] == 38
    assert view["fireworks"][0] == {"suit": "red", "letter": "R", "height": 1}
    assert view["discards"] == [{"id": 1, "suit": "red", "rank": 2, "code": "R2"}]
    assert view["score"] == 1 and view["max_score"] == 25 and view["max_reachable_score"] == 25
    assert view["names"] == ["Ann", "Bob"]
    assert [entry["text"] for entry in view["history"]] == [
        "Ann plays red 1 (slot 5)",
        "Bob clues Ann: 2s, touching 1 card (slot 5)",
        "Ann discards red 2 (slot 5)",
    ]
    assert view["is_over"] is False and view["end"] is None and view["rating"] is None
    json.dumps(view)


def test_own_cards_carry_the_clues_that_touched_and_missed_them():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    state.apply(Clue(1, colour="red"))
    state.apply(Discard(9))  # Bob discards white 2: the new card 10 saw no clue
    state.apply(Clue(1, rank=3))
    mine = own_cards(view_for(state, 1))
    assert [(c["touched"], c["colour"], c["rank"]) for c in mine[5]["clues"]] == [
        (True, "red", None),
        (True, None, 3),
    ]
    assert mine[5]["clued"] is True
    assert mine[5]["possible"] == ["R3"]
    assert [(c["touched"], c["colour"], c["rank"]) for c in mine[6]["clues"]] == [
        (False, "red", None),
        (True, None, 3),
    ]
    assert set(mine[6]["possible"]) == {"Y3", "G3", "B3", "W3"}
    assert [c["touched"] for c in mine[10]["clues"]] == [False]  # only the clue after it came
    assert mine[8]["clued"] is False


def test_possible_identities_with_and_without_counting_visible_cards():
    # Ann holds two 5s; Bob holds red 5 and blue 5, which Ann can see.
    state = game("Y5 G5 Y1 G1 B1  R5 B5 R4 W1 W2")
    state.apply(Clue(1, rank=1))  # Ann's turn used; Bob now clues Ann's 5s
    state.apply(Clue(0, rank=5))
    mine = own_cards(view_for(state, 0))
    assert set(mine[0]["possible"]) == {"R5", "Y5", "G5", "B5", "W5"}
    assert mine[0]["possible_counted"] == {"Y5": 1, "G5": 1, "W5": 1}
    # counting also uses discards and fireworks
    assert set(mine[2]["possible"]) == {"R1", "Y1", "G1", "B1", "W1"} | {
        f"{s}{r}" for s in "RYGBW" for r in (2, 3, 4)
    }
    assert mine[2]["possible_counted"]["W1"] == 2  # Bob holds one white 1
    assert mine[2]["possible_counted"]["R4"] == 1  # Bob holds one red 4


def test_others_cards_carry_only_public_knowledge():
    state = game("Y5 G5 Y1 G1 B1  R5 B5 R4 W1 W2")
    state.apply(Clue(1, rank=5))
    theirs = view_for(state, 0)["hands"][1]["cards"]
    for card in theirs:
        assert "possible_counted" not in card
    assert {c["id"]: c["clued"] for c in theirs} == {9: False, 8: False, 7: False, 6: True, 5: True}


def test_legal_choices_only_on_your_turn():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    assert view_for(state, 1)["legal"] is None
    legal = view_for(state, 0)["legal"]
    assert legal["play"] == [4, 3, 2, 1, 0]
    assert legal["discard"] == []  # 8 tokens
    assert {"target": 1, "colour": "red", "touches": [7, 5]} in legal["clues"]
    assert all(option["touches"] for option in legal["clues"])
    assert not any(option.get("colour") == "green" for option in legal["clues"])


def test_view_for_an_unknown_seat_fails():
    state = game("R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2")
    with pytest.raises(ValueError):
        view_for(state, 2)


def test_the_seat_view_keeps_hiding_after_the_end():
    state = game("R2 R3 R4 R5 Y5  Y4 Y3 Y2 W5 W4", fuses=1)
    state.apply(Play(0))
    view = view_for(state, 0)
    assert view["is_over"] and view["end"] == "strikeout"
    assert view["rating"] == "25 short of perfect"
    for card in own_cards(view).values():
        assert "code" not in card


# -- spectators and finished games -------------------------------------------------------------


def test_the_spectator_sees_every_hand_with_each_holders_knowledge_but_not_the_deck():
    state = game("Y5 G5 Y1 G1 B1  R5 B5 R4 W1 W2")
    state.apply(Clue(1, rank=5))
    view = spectator_view(state, NAMES[:2])
    assert view["kind"] == "spectator"
    for hand in view["hands"]:
        for card in hand["cards"]:
            assert {"id", "code", "possible", "possible_counted", "clues"} <= set(card)
    bob = {card["id"]: card for card in view["hands"][1]["cards"]}
    assert bob[5]["possible_counted"] == {"R5": 1, "B5": 1, "W5": 1}  # he sees Y5 and G5
    assert "deck" not in view
    assert len(spectator_view(state, include_deck=True)["deck"]) == 50
    json.dumps(view)


def test_the_finished_view_shows_everything_only_after_the_end():
    state = game("R2 R3 R4 R5 Y5  Y4 Y3 Y2 W5 W4", fuses=1)
    with pytest.raises(ValueError, match="not over"):
        finished_view(state)
    state.apply(Play(0))
    view = finished_view(state, NAMES[:2])
    assert view["kind"] == "finished"
    assert [card["code"] for card in view["deck"][:5]] == ["R2", "R3", "R4", "R5", "Y5"]
    assert view["end_text"] == "The last fuse burned: the game is lost and scores 0."
    json.dumps(view)


# -- history in words ---------------------------------------------------------------------------


def test_history_sentences():
    options = GameOptions(3, fuses=2)
    top = "R1 R2 Y1 G1 B1  B3 Y3 B4 W1 W2  Y4 B2 Y2 G2 G3"
    state = new_game(options, deck=deck_with_top(options, top))
    state.apply(Clue(1, colour="blue"))
    state.apply(Play(5))  # Bob plays blue 3: misplay
    state.apply(Discard(13))  # Cid discards green 2
    state.apply(Play(0))  # Ann plays red 1
    state.apply(Clue(2, rank=3))  # touches green 3
    state.apply(Play(10))  # Cid misplays yellow 4: the last of 2 fuses
    assert history_text(state, NAMES) == [
        "Ann clues Bob: blue, touching 2 cards (slots 3, 5)",
        "Bob misplays blue 3 (slot 5; fuse burns)",
        "Cid discards green 2 (slot 2)",
        "Ann plays red 1 (slot 5)",
        "Bob clues Cid: 3s, touching 1 card (slot 2)",
        "Cid misplays yellow 4 (slot 5; last fuse burns)",
    ]
    assert describe(state.events[0], state) == (
        "Player 1 clues Player 2: blue, touching 2 cards (slots 3, 5)"
    )
    assert end_text(state, NAMES) == "The last fuse burned: the game is lost and scores 0."


def test_history_of_fives_and_empty_clues():
    options = GameOptions(2, empty_clues=True)
    top = "R1 R2 R3 R4 R5  Y1 Y2 Y3 Y4 Y5  G1"
    state = new_game(options, deck=deck_with_top(options, top))
    for red, yellow in zip(range(4), range(5, 9), strict=True):
        state.apply(Play(red))
        state.apply(Play(yellow))
    state.apply(Play(4))  # red 5 at 8 tokens
    state.apply(Clue(0, colour="white"))  # empty clue
    state.apply(Clue(1, rank=1))
    state.apply(Play(9))  # yellow 5 at 6 tokens
    lines = history_text(state, NAMES)
    assert lines[8] == (
        "Ann plays red 5 (slot 5; the red firework is complete; all 8 clue tokens were already "
        "available)"
    )
    assert lines[9] == "Bob clues Ann: white, touching no cards"
    assert (
        lines[11]
        == "Bob plays yellow 5 (slot 5; the yellow firework is complete: a clue token comes back)"
    )
