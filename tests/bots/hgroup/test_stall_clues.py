"""A stall at 8 clue tokens (issue 30): when every clue breaks something, the bot picks one
that breaks good touch over one that makes a card misplay. The position is the first turn of
a self-play game of the bench (seed 19, game 118) where level 5 clued Bob's two yellow 4s as
a stall and Bob played one as a yellow 1."""

import pytest

from tests.bots.hgroup.positions import Position


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_a_stall_makes_nobody_misplay(level):
    p = Position(
        [
            ["b1", "g2", "w3", "r1", "b2"],
            ["y4", "y4", "w2", "w4", "r3"],
            ["r4", "r3", "g1", "r2", "g1"],
        ],
        level=level,
    )
    assert p.state.clue_tokens == 8
    action = p.action("Alice")
    assert action[0] == "clue"
    assert action not in {("clue", "Bob", "yellow"), ("clue", "Bob", "white")}
