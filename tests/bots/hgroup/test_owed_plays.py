"""Plays the table waits on, from the bench's self-play games (issue 30), each written as a
position on the real engine.

- A player finessed by a clue blind-plays before making a Sarcastic Discard: the clue's
  receiver reads any other move as "not a finesse on that player" and misplays (seed 18,
  game 122, where level 5 scored 11 and level 2 22).
- A giver does not count on a clued card it sees is the one needed when the card's holder
  does not know it: the holder takes the clue for a prompt and plays its leftmost clued card
  that may be the one needed, maybe another (seed 18, game 104: 11 before, 23 after).
"""

import pytest

from tests.bots.hgroup.positions import Position


@pytest.mark.parametrize("level", [3, 4, 5])
def test_a_finessed_player_blind_plays_before_a_sarcastic_discard(level):
    # Alice clues Bob's g3 (3, a play clue: green is at 2); Bob clues Cathy's g3 (green);
    # Cathy discards. Bob now knows his g3 and sees Cathy's: a Sarcastic Discard is there
    # for him. Alice clues Cathy's b2: a finesse on Bob's b1 (slot 1), which comes first.
    p = Position(
        [
            ["r3", "y3", "w3", "r4", "y4"],
            ["b1", "r4", "w4", "g3", "y4"],
            ["b2", "w4", "b4", "y3", "g3"],
        ],
        stacks={"g": 2},
        level=level,
    )
    p.clue("Alice", "Bob", 3)
    p.clue("Bob", "Cathy", "green")
    p.discard("Cathy", 4)
    p.clue("Alice", "Cathy", "blue")
    assert p.state.card(p.card("Bob", 1)).code == "B1"
    assert p.action("Bob") == ("play", 1)


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_no_clue_counts_on_a_card_its_holder_does_not_know(level):
    # Alice saves Bob's w2 on chop with 2, which touches his r2 (slot 2) too; Bob clues
    # Cathy's w1, which she plays. Cathy's w3 would need Bob's w2, which Bob does not know
    # from his r2: he would take a clue on w3 for a prompt on his leftmost 2, the r2. (Bob's
    # w2 cannot be clued white either: that touches his w1, trash.)
    p = Position(
        [
            ["r3", "b3", "g3", "y3", "g4"],
            ["g4", "r2", "w1", "b4", "w2"],
            ["y4", "w3", "b4", "r4", "w1"],
        ],
        level=level,
    )
    p.clue("Alice", "Bob", 2)
    p.clue("Bob", "Cathy", 1)
    p.play("Cathy", 5)
    assert p.action("Alice") not in {("clue", "Cathy", "white"), ("clue", "Cathy", 3)}
    # Why: given that clue, Bob plays his r2.
    p.clue("Alice", "Cathy", "white")
    assert p.action("Bob") == ("play", 2)
