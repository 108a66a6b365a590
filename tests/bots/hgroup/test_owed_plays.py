"""Plays the table waits on, from the bench's self-play games (issue 30), each written as a
position on the real engine.

- A player finessed by a clue blind-plays before making a Sarcastic Discard: the clue's
  receiver reads any other move as "not a finesse on that player" and misplays (seed 18,
  game 122, where level 5 scored 11 and level 2 22).
- A giver does not count on a clued card it sees is the one needed when the card's holder
  does not know it: the holder takes the clue for a prompt and plays its leftmost clued card
  that may be the one needed, maybe another (seed 18, game 104: 11 before, 23 after).
- A finessed player blind-plays before playing a clued card another clue waits on (seed 20,
  game 4, level 5: 13 before, 25 after).
- A player whose clued card may wait on a finesse does not clue another copy of the
  finessed card: it may be gotten already (seed 20, game 23: 12 before, 24 after).
- A giver gives no finesse on a player who sees the card it needs on the receiver's own
  finesse position: that player takes it for a self-finesse and does not blind-play
  (seed 20, game 111, level 5: 13 before, 18 after).
"""

import pytest

from tests.bots.hgroup.positions import Position
from tests.bots.hgroup.test_prompts_on_clued_1s import Drawn


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


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_no_copy_of_a_card_a_finesse_may_have_gotten_is_clued(level):
    # Alice clues Cathy's 1s (b1 slot 2, w1 slot 5), Bob her w2 and w1 (white), which she
    # plays; she draws b2. Alice clues Bob's blue b3 (slot 5) and b4: b3 through Cathy's
    # b1 (a prompt) and a finesse on her b2 -- or, as Bob sees it, b2 through the prompt
    # alone. Either way, Alice's b2 is a copy of a card already gotten: Bob does not clue it.
    p = Drawn(
        [
            ["r3", "g4", "r4", "b2", "b4"],
            ["y1", "g3", "b4", "r2", "b3"],
            ["r4", "b1", "y3", "w2", "w1"],
        ],
        draws=["b2"],
        level=level,
    )
    p.clue("Alice", "Cathy", 1)
    p.clue("Bob", "Cathy", "white")
    p.play("Cathy", 5)
    p.clue("Alice", "Bob", "blue")
    assert p.state.card(p.card("Cathy", 1)).code == "B2"
    assert p.action("Bob") not in {("clue", "Alice", 2), ("clue", "Alice", "blue")}


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_a_blind_play_comes_before_a_clued_card_a_clue_waits_on(level):
    # Alice clues Bob's g1; Bob discards and draws r1 (his finesse position); Cathy clues
    # Alice's g2 (after Bob's g1); Alice clues Cathy's r2: a finesse on Bob's r1. Both of
    # Bob's plays are owed, but Cathy reads anything but the blind play as "no finesse"
    # and would play her r2 as r1, while Alice's g2 waits for the g1 whenever it comes
    # (seed 20, game 4, level 5: 13 before, 25 after).
    p = Drawn(
        [
            ["g2", "y3", "w3", "b3", "y4"],
            ["w4", "g1", "b4", "y4", "w3"],
            ["r2", "b4", "w4", "y3", "b3"],
        ],
        draws=["r1"],
        level=level,
    )
    p.clue("Alice", "Bob", "green")
    p.discard("Bob", 5)
    p.clue("Cathy", "Alice", "green")
    p.clue("Alice", "Cathy", "red")
    assert p.state.card(p.card("Bob", 1)).code == "R1"
    assert p.action("Bob") == ("play", 1)


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_no_finesse_its_player_takes_for_the_receivers_self_finesse(level):
    # Bob's y2 (slot 3) would be a finesse on Cathy's y1 (slot 1); but Cathy sees Bob's
    # own y1 on his finesse position, not hers.
    p = Position(
        [
            ["r3", "b3", "g3", "w3", "r4"],
            ["y1", "r4", "y2", "b4", "g4"],
            ["y1", "w4", "b3", "r3", "g3"],
        ],
        level=level,
    )
    assert p.action("Alice") not in {("clue", "Bob", 2)}
    # Why: given that clue, Cathy does not blind-play her y1.
    p.clue("Alice", "Bob", 2)
    p.discard("Bob", 5)
    assert p.action("Cathy") != ("play", 1)
