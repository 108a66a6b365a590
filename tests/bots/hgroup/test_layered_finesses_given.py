"""Where level 5 gives a layered finesse (issue 30): at 2 and 3 players, as the documents'
example; at 4 and 5 it reads them but does not give them, since the other players' clues
land on the cards a layered finesse digs through (bench figures in level5.py)."""

from tests.bots.hgroup.positions import Position
from tests.bots.hgroup.test_level5_positions import At5

LAYERED = {("clue", "Bob", "red"), ("clue", "Bob", 2)}


def test_at_three_players_the_documents_layered_finesse_is_given():
    # docs/level-5.mdx "The Layered Finesse" (test_level5_positions has it too): Bob's r2
    # behind Cathy's b1 and r1.
    p = At5(
        [
            ["y4", "g4", "w4", "y3", "g3"],
            ["r2", "y4", "g4", "w3", "b3"],
            ["b1", "r1", "w4", "g3", "y3"],
        ]
    )
    assert p.action("Alice") in LAYERED


def test_at_four_players_it_is_read_but_not_given():
    p = At5(
        [
            ["y4", "g4", "w4", "y3"],
            ["r2", "y4", "g4", "w3"],
            ["b1", "r1", "w4", "g3"],
            ["y3", "g3", "b3", "w3"],
        ]
    )
    assert p.action("Alice") not in LAYERED
    p.clue("Alice", "Bob", "red")  # given by another player all the same: it is read
    assert p.finessed("Donald", "Cathy", 1)  # the first layer, b1, as Cathy takes it


def test_a_layer_shifts_a_second_finesse_on_the_same_player():
    # Alice clues Bob's w2 (2): a finesse on Cathy's slot 1 for w1 (it is y1, a layer).
    # Bob clues Alice's b2 (blue): Cathy's next finesse position for b1. Cathy plays slot
    # 1: y1. The w1 moves on to her slot 2, and the b1 behind it to slot 3 (before, the
    # w1 went past the b1 to slot 3, and she blind-played the wrong card; seed 19, game
    # 130, level 5: 14 before, 25 after).
    p = Position(
        [
            ["r3", "g4", "b2", "r4", "g3"],
            ["r4", "g4", "w2", "b4", "y4"],
            ["y1", "w1", "b1", "r3", "g3"],
        ],
        level=5,
    )
    p.clue("Alice", "Bob", 2)
    p.clue("Bob", "Alice", "blue")
    assert (p.inferred("Cathy", "Cathy", 1), p.inferred("Cathy", "Cathy", 2)) == ({"W1"}, {"B1"})
    p.play("Cathy", 1)
    assert p.inferred("Cathy", "Cathy", 2) == {"W1"}
    assert p.inferred("Cathy", "Cathy", 3) == {"B1"}
