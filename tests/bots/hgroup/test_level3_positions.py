"""Level-3 H-Group positions ("Basic Strategy"), re-encoded from the H-Group documents
(hanabi.github.io, docs/level-3.mdx and its examples docs/level-3/playing-multiple-1s-1..3,
fix-clue-1..4 and sarcastic-discard-1..2) and from will-bot's level-3 tests
(WillFlame14/hanabi-bot, test/h-group/level-3.js: "playing 1s in the correct order",
"sarcastic discard"): the facts of each position (hands, who clued what, the cards drawn
when the position names them, what must be concluded or done), written for this project's
engine and read by the bot at level 3. Purple is white here. Where a position starts with
another player to move, the names are turned so that the same seats play the same roles and
Alice moves first (the comment names the source's players).

The documents' examples show only the hands that matter; where a mistaken clue must come
before the fix or the Sarcastic Discard it is about, that clue is given in the test (and a
third player is seated to give it), so that the card's holder has not played it yet. A
player with nothing to do discards its chop, or at 8 clue tokens gives a 5 Save (a 5 is put
on a chop for it); the hands that do not matter ask for no clue (no card to play or save).
A card drawn after the deal is "fresh": in these positions, a hand's slot 1 after the setup
(when its seat played or discarded during the setup) and every card drawn during the test.
The positions are read by level 3's turn (``Turn3``) for the notes as for the moves.

Skipped from will-bot's level-3.js, and why:
- "recognizes the correct focus of a 1 clue": it asserts what the internal
  ``determine_focus`` returns; Position has no focus API, and with two playable 1s the focus
  is not visible in the notes (the play order is: test_starting_hand_1s_play_right_to_left).
- "prefers playing if that would reveal duplicate is trash in endgame": its ``init`` edits
  the internal state (the deck's size for the pace, clued flags and thoughts set by hand).
- "prefers playing when holding both copies in endgame": a pace hack (``state.cardsLeft``
  set by hand to reach pace 0).
- "preserves information lock after a sarcastic discard" and "generates a link from a
  sarcastic discard": their ``init`` writes clues and thoughts into a card by hand (clues
  given "on turn -1"), and the second asserts will-bot's internal ``links``.
- "doesn't try to fix symmetric self-finesses connecting through self" (the "fix clues"
  block): it asserts the internal clue finder's ``fix_clues`` list, not a move or a note.
will-bot's "sarcastic discards without assuming position" starts at 6 clue tokens; here the
game starts at 8 (no effect on the reading it asserts).
"""

from games.engine.cards import Card
from tests.bots.hgroup.positions import Position, code

# A hand that asks for no clue: no card to play, to save (no 2, no 5, no last copy), or to fix.
QUIET = ["r4", "y4", "g4", "b4", "w4"]
ONES = {"R1", "Y1", "G1", "B1", "W1"}


class At3(Position):
    """A level-3 position; ``draws`` are the cards drawn after the setup, in order (will-bot
    names them: 'Bob discards y1', 'r1'); the later draws are the helper's quiet cards."""

    def __init__(self, hands, draws=(), **kwargs) -> None:
        self.draws = [Card.parse(code(c)) for c in draws]
        super().__init__(hands, level=3, **kwargs)

    def _deck(self, top):
        deck = super()._deck(top)
        head, rest = deck[: len(top)], list(deck[len(top) :])
        for card in reversed(self.draws):
            rest.remove(card)
            rest.insert(0, card)
        return head + rest


def idle(p: Position, name: str) -> None:
    """An unrelated move: a discard of the oldest card no clue touched."""
    assert p.state.clue_tokens < 8, f"{name} may not discard at 8 clue tokens"
    hand = p.state.hand(p.seat(name))
    for slot in range(len(hand), 0, -1):
        if not p.state.clue_turns(hand[slot - 1]):
            p.discard(name, slot)
            return
    raise AssertionError(f"no unrelated move for {name}")


# -- playing multiple 1s (docs/level-3.mdx "Playing Multiple 1's") ----------------------------


def test_starting_hand_1s_play_oldest_first():
    # playing-multiple-1s-1: on the first turn Alice clues 1 to Bob, touching three 1s in
    # slots 2, 3 and 4; Bob plays slot 4 first, then slot 3, then slot 2 (each slides one
    # slot right when he draws, so each is in slot 4 when its turn comes). Bob's chop is a
    # y5, for Alice's 5 Save at 8 clue tokens.
    p = At3([QUIET, ["xx", "g1", "b1", "r1", "y5"]])
    p.clue("Alice", "Bob", 1)
    assert p.action("Bob") == ("play", 4)  # r1, not the focus (slot 2)
    p.play("Bob", 4)
    idle(p, "Alice")
    assert p.action("Bob") == ("play", 4)  # b1, dealt in slot 3
    p.play("Bob", 4)
    p.clue("Alice", "Bob", 5)  # at 8 clue tokens: a 5 Save on Bob's chop
    assert p.action("Bob") == ("play", 4)  # g1, dealt in slot 2
    p.play("Bob", 4)
    assert p.state.fireworks[:4] == (1, 0, 1, 1)


def test_a_fresh_1_plays_before_the_starting_hand_1s():
    # playing-multiple-1s-2: the position above; Bob played r1 (slot 4) and drew a 1 (y1).
    # Alice clues 1 again: the fresh slot 1 and the re-touched slots 3 and 4. Bob plays
    # slot 1 first, then slot 4, then slot 3.
    p = At3([QUIET, ["xx", "g1", "b1", "r1", "xx"]], draws=["y1"])
    p.clue("Alice", "Bob", 1)
    p.play("Bob", 4)  # r1; y1 drawn in slot 1
    p.clue("Alice", "Bob", 1)  # y1 (new), b1 and g1 (re-touched)
    assert p.action("Bob") == ("play", 1)  # the fresh y1
    p.play("Bob", 1)
    idle(p, "Alice")
    assert p.action("Bob") == ("play", 4)  # b1
    p.play("Bob", 4)
    idle(p, "Alice")
    assert p.action("Bob") == ("play", 4)  # g1 (dealt in slot 2, then slot 3, now slot 4)


def test_a_chop_focus_1_plays_before_fresh_1s_and_starting_hand_1s():
    # playing-multiple-1s-3 (3 players): r2 and b2 played, r4 discarded. The clue of 1 (doc:
    # Bob to Alice; here Alice to Bob) touches four 1s, in slots 1, 2, 3 and 5; slot 1 was
    # drawn after the deal (fresh: Bob's seat played during the setup), slots 2 to 5 were
    # dealt. The order is 5 (chop focus),
    # 1 (fresh), 3, 2. Only y1, g1 and w1 can play on these stacks: the doc's fourth 1 is
    # bad, so the test follows the first three plays.
    p = At3(
        [
            ["g4", "y4", "w4", "g3", "w3"],
            ["g1", "b1", "w1", "b4", "y1"],
            ["r3", "g4", "w4", "y4", "y3"],
        ],
        stacks={"r": 2, "b": 2},
        discards=["r4"],
        draws=["g2", "w2", "g2", "w2", "y2"],
    )
    p.clue("Alice", "Bob", 1)
    assert p.action("Bob") == ("play", 5)  # the chop focus, y1
    p.play("Bob", 5)
    p.discard("Cathy", 5)
    p.clue("Alice", "Cathy", "red")  # at 8 clue tokens: a play clue on Cathy's r3
    assert p.action("Bob") == ("play", 2)  # the fresh g1 (slot 1 at the clue)
    p.play("Bob", 2)
    p.play("Cathy", 2)  # r3
    p.discard("Alice", 5)
    assert p.action("Bob") == ("play", 4)  # w1 (slot 3 at the clue), before b1 (slot 2)


def test_starting_hand_1s_play_right_to_left():
    # will-bot "plays 1s from right to left" (Bob clued Alice; here Alice clues Bob): 1s in
    # slots 3 and 4 of the starting hand; slot 4 plays first, then slot 3.
    p = At3([["r4", "b4", "g4", "y3", "w4"], ["xx", "xx", "r1", "y1", "xx"]])
    p.clue("Alice", "Bob", 1)
    assert p.action("Bob") == ("play", 4)  # y1
    p.play("Bob", 4)
    idle(p, "Alice")
    assert p.action("Bob") == ("play", 4)  # r1, dealt in slot 3


def test_a_fresh_1_plays_before_an_older_1():
    # will-bot "plays fresh 1s": Alice bombs b5 (slot 1) and draws a 1; Bob clues 1 to Alice
    # (slots 1 and 4): the fresh slot 1 plays first, then slot 4.
    p = At3([["b5", "xx", "xx", "r1", "xx"], ["r4", "b4", "g4", "y3", "w4"]], draws=["g1"])
    p.play("Alice", 1)  # b5 misplayed; g1 drawn
    p.clue("Bob", "Alice", 1)
    assert p.action("Alice") == ("play", 1)  # g1
    p.play("Alice", 1)
    p.discard("Bob", 5)
    assert p.action("Alice") == ("play", 4)  # r1


def test_a_chop_focus_1_plays_first_then_the_fresh_1():
    # will-bot "plays chop focus": Alice bombs b5 (slot 1) and draws a 1; Bob clues 1 to Alice
    # (slots 1, 2 and 5): slot 5 (the chop, the focus), then slot 1 (fresh), then slot 2.
    p = At3([["b5", "g1", "xx", "w5", "y1"], ["r4", "b4", "g4", "y3", "w4"]], draws=["r1"])
    p.play("Alice", 1)  # b5 misplayed; r1 drawn
    p.clue("Bob", "Alice", 1)
    assert p.action("Alice") == ("play", 5)  # y1
    p.play("Alice", 5)
    p.discard("Bob", 5)
    assert p.action("Alice") == ("play", 2)  # r1, the fresh 1 (slot 1 at the clue)
    p.play("Alice", 2)
    p.clue("Bob", "Alice", 5)  # at 8 clue tokens: a 5 Save on Alice's chop
    assert p.action("Alice") == ("play", 3)  # g1 (slot 2 at the clue)


def test_a_play_clue_does_not_prompt_clued_1s_as_its_connecting_1():
    # will-bot "does not prompt playable 1s" (Bob, Cathy, Alice there; Alice, Bob, Cathy
    # here): Alice clues 1 to Cathy (slots 2 and 3); Bob clues red to Alice (r2 in slot 2,
    # r5): Cathy's 1s are all playable anyway, so her slot 2 is still any 1, not r1.
    p = At3(
        [
            ["b2", "r2", "g3", "r5", "b3"],
            ["r4", "b4", "g4", "y3", "w4"],
            ["xx", "g1", "r1", "xx", "xx"],
        ]
    )
    p.clue("Alice", "Cathy", 1)
    p.clue("Bob", "Alice", "red")
    assert p.inferred("Cathy", "Cathy", 2) == ONES


# -- fix clues (docs/level-3.mdx "The Fix Clue") ----------------------------------------------


def test_a_fix_clue_fills_in_trash_and_the_holder_discards_it():
    # fix-clue-1: stacks r3 y2 g2 b2 w4. A white clue touched a white card alone: its holder
    # reads it as w5 (a play clue); it is w3. The next player gives the fix: 3. The holder
    # discards it. (Doc: Bob holds it, Alice fixes; here Alice gives the mistaken clue to
    # Cathy, Bob fixes, so that Cathy has not played it yet.)
    p = At3(
        [
            ["y4", "g4", "b4", "r1", "y1"],
            ["g4", "b4", "y4", "g1", "b1"],
            ["r1", "y1", "r2", "w3", "g2"],
        ],
        stacks=[3, 2, 2, 2, 4],
    )
    p.clue("Alice", "Cathy", "white")
    assert p.inferred("Cathy", "Cathy", 4) == {"W5"}
    fix = p.action("Bob")
    p.clue("Bob", "Cathy", 3)
    assert p.action("Cathy") == ("discard", 4)
    assert fix == ("clue", "Cathy", 3)  # the doc's fix: 3 fills the card in as w3


def test_a_fix_clue_that_touches_a_new_card_is_no_play_clue():
    # fix-clue-2: stacks r1 y1 g0 b1 w1. A 1 clue touched a 1 alone: its holder reads g1 (the
    # only playable 1); it is b1. The fix is blue, which also touches a new blue card in slot
    # 1: that card is not read as a play (b2), only as a good blue card (b2 to b5); the b1 is
    # discarded. (Doc: Bob holds it, Alice fixes; here Cathy holds it, Bob fixes.)
    p = At3(
        [
            ["r3", "y3", "w3", "r4", "y4"],
            ["w4", "r3", "y3", "w3", "g4"],
            ["b4", "g3", "r4", "b1", "y4"],
        ],
        stacks=[1, 1, 0, 1, 1],
    )
    p.clue("Alice", "Cathy", 1)
    assert p.inferred("Cathy", "Cathy", 4) == {"G1"}
    assert p.action("Bob") == ("clue", "Cathy", "blue")
    p.clue("Bob", "Cathy", "blue")
    assert p.inferred("Cathy", "Cathy", 1) == {"B2", "B3", "B4", "B5"}
    assert p.action("Cathy") == ("discard", 4)


def test_a_clue_re_touching_the_last_1_about_to_play_is_a_fix():
    # fix-clue-3: Alice clues 1 to Bob, three 1s (slots 2, 3, 4); Bob plays two of them; the
    # last one (a second y1) is bad: Alice clues 1 again, re-touching it alone, which tells
    # Bob nothing new. Bob does not play it: he discards it.
    p = At3([QUIET, ["xx", "y1", "r1", "y1", "xx"]])
    p.clue("Alice", "Bob", 1)
    p.play("Bob", 4)  # y1
    idle(p, "Alice")
    p.play("Bob", 4)  # r1
    kind, target, _ = p.action("Alice")
    assert (kind, target) == ("clue", "Bob")  # she stops the misplay
    p.clue("Alice", "Bob", 1)
    assert p.action("Bob") == ("discard", 4)


def test_a_stop_clue_on_two_1s_fixes_only_the_one_about_to_play():
    # fix-clue-4: Alice clues 1 to Bob, three 1s (slots 2, 3, 4); Bob plays one (slot 4).
    # The 1 he would play next (slot 4 now) is bad (a second r1): Alice clues 1 again,
    # re-touching the two 1s left. Bob skips the slot-4 1 and plays slot 3.
    p = At3([QUIET, ["xx", "g1", "r1", "r1", "xx"]])
    p.clue("Alice", "Bob", 1)
    p.play("Bob", 4)  # r1
    p.clue("Alice", "Bob", 1)  # slots 3 (g1) and 4 (the other r1)
    assert p.action("Bob") == ("play", 3)
    p.play("Bob", 3)
    idle(p, "Alice")
    assert p.action("Bob") == ("discard", 4)  # "Bob can safely discard it"


# -- the Sarcastic Discard (docs/level-3.mdx "The Sarcastic Discard") -------------------------


def sarcastic_position(cathy: list[str]) -> At3:
    """r2 and g2 played. Alice clues 3 to Cathy: a play clue whose focus (slot 2) is r3 or
    g3; the other 3s it touches are any good 3. Cathy plays her focus, g3: her r3 (slot 3)
    is left clued 3, its suit unknown to her (the doc's "clued with just number 3"). Later
    Cathy clues 3 to Alice, touching Alice's r3 alone: the only playable 3 is r3, and Alice
    sees Cathy's clued r3 (docs: "This is a mistake")."""
    p = At3(
        [
            ["g4", "r3", "b4", "w4", "y4"],
            ["g4", "b4", "w4", "b5", "r4"],
            cathy,
        ],
        stacks={"r": 2, "g": 2},
        draws=["y2", "y2", "b2", "b2"],
    )
    p.clue("Alice", "Cathy", 3)
    p.discard("Bob", 5)  # r4
    p.play("Cathy", 2)  # g3
    p.clue("Alice", "Bob", 5)  # at 8 clue tokens: a 5 Save on Bob's chop
    p.discard("Bob", 4)  # w4
    p.clue("Cathy", "Alice", 3)
    return p


def test_a_player_who_knows_its_clued_card_is_a_duplicate_discards_it_sarcastically():
    # sarcastic-discard-1 (doc: Alice holds the clued 3, Bob is clued 3 and discards; here
    # Cathy holds it and Alice discards). Then Cathy's only 3 that may be r3 is r3.
    p = sarcastic_position(["r4", "g3", "r3", "y4", "w2"])
    assert p.action("Alice") == ("discard", 2)
    p.discard("Alice", 2)
    assert p.inferred("Cathy", "Cathy", 3) == {"R3"}


def test_a_sarcastic_discard_does_not_say_which_of_two_3s_it_is():
    # sarcastic-discard-2: Alice discards her r3; Cathy has two clued 3s with no colour
    # (slots 3 and 4): one of them is r3, she does not know which.
    p = sarcastic_position(["r4", "g3", "r3", "b3", "w2"])
    p.discard("Alice", 2)
    third, fourth = p.inferred("Cathy", "Cathy", 3), p.inferred("Cathy", "Cathy", 4)
    assert "R3" in third and "R3" in fourth
    assert third != {"R3"} and fourth != {"R3"}


def test_a_sarcastic_discard_is_preferred_to_playing():
    # will-bot "prefers sarcastic discard over playing": Alice clues 1 to Bob (his y1); Bob
    # clues yellow to Alice's chop: a y1 too. Alice discards it (slot 5).
    p = At3([["b4", "g4", "r4", "w4", "y1"], ["r4", "b4", "g4", "y1", "w4"]])
    p.clue("Alice", "Bob", 1)
    p.clue("Bob", "Alice", "yellow")
    assert p.action("Alice") == ("discard", 5)


def test_a_sarcastic_discard_tells_the_other_player_its_card():
    # will-bot "understands a sarcastic discard" (Bob, Alice there; Alice, Bob here): Alice
    # clues 1 to Bob (slot 4); Bob clues yellow to Alice (y3, and y1 on her chop); Alice
    # discards y1 (drawing r1): Bob's slot 4 is y1.
    p = At3([["r4", "b4", "g4", "y3", "y1"], ["xx", "xx", "xx", "y1", "xx"]], draws=["r1"])
    p.clue("Alice", "Bob", 1)
    p.clue("Bob", "Alice", "yellow")
    p.discard("Alice", 5)
    assert p.inferred("Bob", "Bob", 4) == {"Y1"}


def test_a_sarcastic_discard_leaves_every_clued_2_possibly_it():
    # will-bot "sarcastic discards without assuming position": r1 y1 b1 played. Alice clues 2
    # to Bob (g2, b2, w2 in slots 2, 3, 5); Bob clues blue to Alice (slot 1); Alice discards
    # it (b2): any of Bob's three 2s may still be b2.
    p = At3(
        [["b2", "g4", "y4", "r3", "y3"], ["w4", "g2", "b2", "r4", "w2"]], stacks=[1, 1, 0, 1, 0]
    )
    p.clue("Alice", "Bob", 2)
    p.clue("Bob", "Alice", "blue")
    p.discard("Alice", 1)
    for slot in (2, 3, 5):
        assert "B2" in p.inferred("Bob", "Bob", slot), slot


def test_a_sarcastic_discard_corrects_a_good_touch_reading():
    # will-bot "correctly interprets a sarcastic discard against gtp" (4 players, y1 g1
    # played; will-bot's Donald, Alice, Bob, Cathy are Alice, Bob, Cathy, Donald here).
    # Alice clues green to Bob (g2, g4); Bob plays g2 and draws a 5; Cathy 5-clues it;
    # Donald clues 4 to Cathy (g4, and y4 on her chop: a finesse on Bob's y2, y3), so by good
    # touch Bob's green card is g3; Alice clues 5 to Cathy; Bob plays y2; Cathy discards her
    # g4 (drawing y1): Bob's green card is g4.
    p = At3(
        [
            ["w4", "r3", "r5", "r1"],
            ["g2", "g4", "y2", "y3"],
            ["g1", "g4", "w5", "y4"],
            ["y3", "w3", "r2", "w2"],
        ],
        stacks={"y": 1, "g": 1},
        draws=["b5", "r4", "y1"],
    )
    p.clue("Alice", "Bob", "green")
    p.play("Bob", 1)  # g2; b5 drawn
    p.clue("Cathy", "Bob", 5)
    p.clue("Donald", "Cathy", 4)
    p.clue("Alice", "Cathy", 5)
    p.play("Bob", 3)  # y2
    p.discard("Cathy", 2)  # g4; y1 drawn
    assert p.inferred("Bob", "Bob", 3) == {"G4"}
