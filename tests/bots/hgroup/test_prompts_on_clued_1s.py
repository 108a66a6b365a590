"""Prompts on clued 1s, at levels 3 to 5: what the bench's self-play games showed going
wrong (issue 30), each written as a position on the real engine.

- A player whose clued 1s two later clues both prompt plays them in level 3's order
  (oldest first from the starting hand), as the prompts were read: at level 4 the others
  read a 1 played out of that order as an Order Chop Move.
- A 2 clued behind the receiver's own unknown 1s is the 2 of the suit its prompted 1 turns
  out to be; before, it stayed "any 2", and a later clue counting on it waited forever.
- A giver does not count on a finesse behind a player's clued 1s when the 1 that player
  plays first is another suit's: that player takes the clue for a prompt on it.
"""

import pytest

from games.engine.cards import Card
from tests.bots.hgroup.positions import Position, code
from tests.bots.hgroup.test_level3_positions import At3


class Drawn(At3):
    """At3's position (``draws`` are the cards drawn after the setup) at any level."""

    def __init__(self, hands, draws, level) -> None:
        self.draws = [Card.parse(code(c)) for c in draws]
        Position.__init__(self, hands, level=level)


def two_prompted_ones(level: int) -> Position:
    """Alice clues Bob's two 1s (y1 slot 2, b1 slot 3); Cathy clues Alice's y2 (after
    Bob's y1), Alice clues Cathy's b2 (after Bob's b1). Both of Bob's 1s are prompted."""
    p = Position(
        [
            ["g4", "r3", "r3", "g3", "y2"],
            ["g3", "y1", "b1", "w4", "w2"],
            ["b2", "r2", "y3", "w3", "r1"],
        ],
        level=level,
    )
    p.clue("Alice", "Bob", 1)
    p.clue("Bob", "Cathy", "red")
    p.clue("Cathy", "Alice", "yellow")
    p.clue("Alice", "Cathy", "blue")
    return p


@pytest.mark.parametrize("level", [3, 4, 5])
def test_two_prompted_1s_are_played_oldest_first(level):
    p = two_prompted_ones(level)
    assert p.action("Bob") == ("play", 3)


def test_the_1s_played_in_order_move_no_chop():
    p = two_prompted_ones(4)
    p.play("Bob", 3)
    notes = p.notes("Cathy")
    assert not any(notes.notes[c].chop_moved for c in p.state.hand(p.seat("Cathy")))


@pytest.mark.parametrize("level", [3, 4, 5])
def test_a_2_behind_its_own_prompted_1_is_that_suits_2(level):
    # Alice clues Bob's 1s (r1 slot 4, y1 slot 5), Bob saves Alice's y5, Cathy clues Bob's
    # y2 (slot 1): a prompt on the 1 Bob plays first, slot 5. Bob plays it: y1. His 2 (now
    # slot 2) is y2, not "any 2": the prompt went to that 1 whatever the 2's suit.
    p = Position(
        [
            ["r3", "b3", "w3", "g3", "y5"],
            ["y2", "g4", "w4", "r1", "y1"],
            ["r4", "y4", "g4", "b4", "w4"],
        ],
        level=level,
    )
    p.clue("Alice", "Bob", 1)
    p.clue("Bob", "Alice", 5)
    p.clue("Cathy", "Bob", 2)
    p.discard("Alice", 4)
    p.play("Bob", 5)
    assert p.inferred("Bob", "Bob", 2) == {"Y2"}


@pytest.mark.parametrize("level", [3, 4, 5])
def test_no_finesse_behind_a_clued_1_that_would_be_taken_for_the_prompt(level):
    # Alice clues Bob's 1s (y1 slot 3, r1 slot 4); Bob discards his chop and draws b1 into
    # his finesse position; Cathy saves Alice's y5. Cathy's b2 would be a finesse on Bob's
    # b1 -- but Bob plays his clued 1s first (r1 first, his oldest): he would take a clue on
    # b2 for a prompt on that r1, so Alice does not give it.
    p = Drawn(
        [
            ["r3", "b3", "w3", "g3", "y5"],
            ["g4", "w4", "y1", "r1", "b3"],
            ["b2", "r4", "y4", "w4", "g4"],
        ],
        draws=["b1"],
        level=level,
    )
    p.clue("Alice", "Bob", 1)
    p.discard("Bob", 5)
    p.clue("Cathy", "Alice", 5)
    assert p.state.card(p.card("Bob", 1)).code == "B1"
    assert p.action("Alice") not in {("clue", "Cathy", "blue"), ("clue", "Cathy", 2)}
