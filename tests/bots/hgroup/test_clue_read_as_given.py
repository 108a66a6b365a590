"""A giver reads the clue it considers as its receiver will read it (issue 30).

The giver's reading of a clue it might give is the next turn's. Before, it was read as the
last turn's, so a card clued on the last turn counted as new to it: here a 5 clue that
touches a new 5 two cards from the chop and, between them, a 5 clued the turn before, was
a 5's Chop Move to the giver (the 5 clued last turn being "one away from the chop") but not
to its receiver (seed 18, game 37, level 5: the receiver blind-played and misplayed).
"""

from games.engine import view_for
from tests.bots.hgroup.positions import Position


def test_a_card_clued_last_turn_is_not_new_to_the_next_clue():
    # Cathy: r5 w4 b5 g3 y1. Alice clues her y1, which she plays; Alice clues her b5
    # (blue: blue is at 4). Bob considers cluing 5: it touches her r5 (new, slot 2) and b5
    # (slot 4), with w4 and the chop g3 unclued right of the r5: no 5's Chop Move.
    p = Position(
        [
            ["r3", "y3", "w3", "r4", "y4"],
            ["g4", "r4", "w4", "y3", "g3"],
            ["r5", "w4", "b5", "g3", "y1"],
        ],
        stacks={"b": 4},
        discards=["g4"],
        level=4,
    )
    p.clue("Alice", "Cathy", 1)
    p.discard("Bob", 5)
    p.play("Cathy", 5)
    p.clue("Alice", "Cathy", "blue")
    bob = p.turn_class(view_for(p.state, p.seat("Bob")))
    cathy = p.seat("Cathy")
    option = next(o for o in bob.legal["clues"] if o["target"] == cathy and o.get("rank") == 5)
    twin = bob.notes.copy()
    given = twin.apply_clue(cathy, option)

    p.clue("Bob", "Cathy", 5)
    read = p.notes("Cathy").readings[-1]
    assert (given.kind, given.focus) == (read.kind, read.focus)
    assert given.kind != "chop move"
    assert not any(twin.notes[c].chop_moved for c in twin.hands[cathy])
