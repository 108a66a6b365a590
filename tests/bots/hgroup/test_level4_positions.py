"""Level-4 H-Group positions ("Chop Moves"), re-encoded from the H-Group documents
(hanabi.github.io, docs/level-4.mdx and its examples docs/level-4/trash-chop-move-1..3,
5s-chop-move-1..2, order-chop-move, chop-move-new and chop-move-prompt) and from will-bot's
level-4 tests (WillFlame14/hanabi-bot, test/h-group/level-4.js: "trash chop move", "giving
order chop move", "interpreting order chop move", "interpreting chop moves"): the facts of
each position (hands, stacks, discards, who clued what, the cards drawn when the position
names them, what must be concluded or done), written for this project's engine and read by
the bot at level 4. Purple is white here. Where a position starts with another player to
move, the names are turned so that the same seats play the same roles and Alice moves first
(the comment names the source's players).

A chop-moved card is marked in the notes (``Note.chop_moved``) by every player, the card's
holder as the others; ``notes.chop(seat)`` is the oldest card neither gotten nor chop-moved.

will-bot's "giving" tests ask its clue finder for the save clue it would give Bob (2
players, Alice's hand unknown, 8 clue tokens). Here the save is given on a turn, at fewer
than 8 clue tokens (so that the player to be saved could discard): a third player is seated,
Alice and Bob give two unrelated 5 Saves first (Bob's chop, then Cathy's), and Cathy gives
or does not give the Trash Chop Move to Alice, who holds will-bot's Bob's hand. The other
hands ask for no clue (trash, and the saved 5).

5's Chop Moves are read only when the 5 clue cannot be a 5 Stall: after the Early Game (a
trash 1 is discarded in the setup) and below 8 clue tokens (two unrelated 5 Saves first, as
above; the documents' Alice and Bob are Cathy and Alice there). The documents' Trash Chop
Moves have no discard.

Skipped, and why:
- docs/level-4/chop-move-new-exception.yml: a rainbow game (the exception is about filling in
  rainbow cards); this site's No Variant has no rainbow suit.
- will-bot "will not give unsafe tcms": it asserts the internal ``clue_safe`` at 1 clue token.
- will-bot "will interpret new focus correctly", "will interpret only touching cm cards
  correctly", "will interpret touching previously cm and clued correctly": their ``init``
  writes ``chop_moved`` into card thoughts by hand (the first is the document's chop-move-new,
  encoded here with a real Trash Chop Move).
- will-bot "prioritizes new cards over gt-eliminated chop moved cards": it hinges on will-bot's
  reading of a reverse finesse through Alice's hand and her draws (its last expected play is
  a card the position never names), not on the chop move it sets up.
- will-bot "asymmetrically eliminates against chop moved cards": it asserts will-bot's
  internal ``links`` of one player.
"""

from games.engine.cards import Card
from tests.bots.hgroup.positions import Position, code

ONES_PLAYED = [1, 1, 1, 1, 1]
# Hands that ask for no clue with every 1 played (no 2 to play, no 5 on a chop).
FOURS = ["r4", "y4", "g4", "b4", "w4"]
THREES = ["r3", "y3", "g3", "b3", "w3"]


class At4(Position):
    """A level-4 position; ``draws`` are the cards drawn after the setup, in order; the later
    draws are the helper's quiet cards."""

    def __init__(self, hands, draws=(), **kwargs) -> None:
        self.draws = [Card.parse(code(c)) for c in draws]
        super().__init__(hands, level=4, **kwargs)

    def _deck(self, top):
        deck = super()._deck(top)
        head, rest = deck[: len(top)], list(deck[len(top) :])
        for card in reversed(self.draws):
            rest.remove(card)
            rest.insert(0, card)
        return head + rest

    def chop_moved(self, viewer: str, holder: str, slot: int) -> bool:
        note = self.notes(viewer).notes[self.card(holder, slot)]
        return getattr(note, "chop_moved", False)

    def chop_slot(self, viewer: str, holder: str) -> int | None:
        cid = self.notes(viewer).chop(self.seat(holder))
        return None if cid is None else self.state.hand(self.seat(holder)).index(cid) + 1

    def moved(self, viewer: str, holder: str) -> list[int]:
        """The slots of ``holder``'s chop-moved cards, in ``viewer``'s notes."""
        count = len(self.state.hand(self.seat(holder)))
        return [s for s in range(1, count + 1) if self.chop_moved(viewer, holder, s)]


def everyone(p: Position) -> list[str]:
    return [name for name in p.seat_of]


# -- the Trash Chop Move (docs/level-4.mdx "The Trash Chop Move") -----------------------------


def test_a_trash_1_one_away_from_chop_chop_moves_the_chop():
    # trash-chop-move-1 (3 players): every 1 played. Alice clues 1 to Bob, a 1 in slot 4:
    # Bob chop-moves slot 5 (as everyone sees), his chop is slot 3; he discards the 1, and
    # his chop is then slot 4.
    p = At4([FOURS, ["r4", "y3", "g4", "r1", "b4"], THREES], stacks=ONES_PLAYED)
    p.clue("Alice", "Bob", 1)
    for viewer in everyone(p):
        assert p.moved(viewer, "Bob") == [5], viewer
    assert p.chop_slot("Bob", "Bob") == 3
    assert p.action("Bob") == ("discard", 4)
    p.discard("Bob", 4)
    for viewer in everyone(p):
        assert p.moved(viewer, "Bob") == [5], viewer
        assert p.chop_slot(viewer, "Bob") == 4, viewer


def test_a_trash_1_in_slot_1_chop_moves_four_cards():
    # trash-chop-move-2: every 1 played. Alice clues 1 to Bob, a 1 in slot 1: Bob
    # chop-moves slots 2 to 5 (a quadruple Chop Move); he discards the 1; his chop is then
    # slot 1 (the card he drew).
    p = At4([FOURS, ["r1", "y3", "g4", "b4", "w3"], THREES], stacks=ONES_PLAYED)
    p.clue("Alice", "Bob", 1)
    for viewer in everyone(p):
        assert p.moved(viewer, "Bob") == [2, 3, 4, 5], viewer
    assert p.chop_slot("Bob", "Bob") is None
    assert p.action("Bob") == ("discard", 1)
    p.discard("Bob", 1)
    assert p.moved("Bob", "Bob") == [2, 3, 4, 5]
    assert p.chop_slot("Bob", "Bob") == 1


def test_a_trash_chop_move_on_two_trash_cards_moves_only_right_of_the_rightmost():
    # trash-chop-move-3: every 1 played. Alice clues 1 to Bob, 1s in slots 2 and 4: Bob
    # chop-moves only slot 5 (the rightmost trash card is the focus); his chop is slot 3.
    p = At4([FOURS, ["r4", "r1", "y3", "g1", "b4"], THREES], stacks=ONES_PLAYED)
    p.clue("Alice", "Bob", 1)
    for viewer in everyone(p):
        assert p.moved(viewer, "Bob") == [5], viewer
        assert p.chop_slot(viewer, "Bob") == 3, viewer


def test_a_red_clue_on_a_trash_red_card_is_a_trash_chop_move():
    # will-bot "recognizes a delayed tcm on other" (Cathy, Alice, Bob there; Alice, Bob,
    # Cathy here): r3 played. Alice clues red to Bob (slots 2, 3: r4, r5); Bob plays r4;
    # Cathy clues red to Alice, touching her r1 (slot 4) alone: trash, so Alice's slot 5 is
    # chop-moved, in everyone's notes.
    p = At4(
        [
            ["b4", "b4", "g4", "r1", "b3"],
            ["xx", "r4", "r5", "xx", "xx"],
            ["g3", "y4", "y1", "r3", "y3"],
        ],
        stacks={"r": 3},
    )
    p.clue("Alice", "Bob", "red")
    p.play("Bob", 2)  # r4
    p.clue("Cathy", "Alice", "red")
    for viewer in everyone(p):
        assert p.chop_moved(viewer, "Alice", 5), viewer


def test_a_red_clue_the_receiver_knows_is_trash_is_a_trash_chop_move():
    # will-bot "recognizes a delayed tcm on self": r3 played. Alice clues red to Bob (r5,
    # r4); Bob plays r4 (drawing g1); Cathy clues red to Alice (slot 4): every red card left
    # to play (r5) is Bob's, so Alice's red card is trash and her slot 5 is chop-moved.
    p = At4(
        [
            ["xx", "xx", "xx", "r2", "xx"],
            ["b4", "b4", "g4", "r5", "r4"],
            ["g3", "y4", "y1", "y5", "b3"],
        ],
        stacks={"r": 3},
        draws=["g1"],
    )
    p.clue("Alice", "Bob", "red")
    p.play("Bob", 5)  # r4
    p.clue("Cathy", "Alice", "red")
    for viewer in everyone(p):
        assert p.chop_moved(viewer, "Alice", 5), viewer


def test_the_focus_of_a_trash_chop_move_is_taken_for_trash_not_a_play():
    # will-bot "assumes trash on the tcm focus" (4 players; Bob, Cathy, Donald, Alice there;
    # Alice, Bob, Cathy, Donald here): y3 played. Alice clues 5 to Cathy (y5); Bob clues
    # yellow to Cathy (y4, y5); Cathy clues yellow to Donald (slot 3) alone: every yellow card
    # left is Cathy's, so it is trash: Donald's slot 4 is chop-moved and he plays nothing.
    p = At4(
        [
            ["r1", "b4", "g4", "r1"],
            ["g3", "y1", "r4", "b1"],
            ["g1", "b3", "y4", "y5"],
            ["xx", "xx", "y2", "xx"],
        ],
        stacks={"y": 3},
    )
    p.clue("Alice", "Cathy", 5)
    p.clue("Bob", "Cathy", "yellow")
    p.clue("Cathy", "Donald", "yellow")
    for viewer in everyone(p):
        assert p.chop_moved(viewer, "Donald", 4), viewer
    assert p.action("Donald")[0] != "play"


# -- giving a Trash Chop Move (will-bot "trash chop move") -----------------------------------

# Trash hands for the two 5 Saves that bring the clue tokens down (stacks all at 2).
BOB_AT_2 = ["r1", "y1", "w2", "b1", "y5"]
CATHY_AT_2 = ["g1", "w1", "y2", "b2", "w5"]
# The same with stacks r5 y0/y1 g0 b2 w2.
BOB_RED = ["r1", "r2", "b1", "w1", "b5"]
CATHY_RED = ["r3", "r4", "w2", "b2", "w5"]


def tcm_turn(alice: list[str], stacks: list[int], bob=BOB_AT_2, cathy=CATHY_AT_2) -> At4:
    """Alice holds will-bot's Bob's hand; Alice and Bob give 5 Saves (Bob's, Cathy's);
    Cathy is to move, at 6 clue tokens, with Alice's chop in danger."""
    p = At4([alice, bob, cathy], stacks=stacks)
    p.clue("Alice", "Bob", 5)
    p.clue("Bob", "Cathy", 5)
    return p


def test_a_needed_4_on_chop_is_saved_by_a_trash_chop_move():
    # will-bot "will give a rank tcm for 1 card": every stack at 2; the chop is b4 (not
    # critical, not playable: no save clue may touch it), a trash r1 one away from it.
    p = tcm_turn(["r4", "r4", "g4", "r1", "b4"], [2, 2, 2, 2, 2])
    assert p.action("Cathy") == ("clue", "Alice", 1)


def test_a_trash_chop_move_may_touch_two_trash_cards():
    # will-bot "will give a rank tcm touching multiple trash cards": as above with a b1 in
    # slot 3 too.
    p = tcm_turn(["r4", "r4", "b1", "r1", "b4"], [2, 2, 2, 2, 2])
    assert p.action("Cathy") == ("clue", "Alice", 1)


def test_no_trash_chop_move_when_the_chop_is_trash():
    # will-bot "will not give a tcm if chop is trash": the chop is g2 (played already).
    p = tcm_turn(["r4", "r4", "b1", "b4", "g2"], [2, 2, 2, 2, 2])
    assert p.action("Cathy")[:2] != ("clue", "Alice")


def test_no_trash_chop_move_when_the_chop_is_duplicated_in_the_hand():
    # will-bot "will not give a tcm if chop is a duplicated card": the chop is g4, and the
    # other g4 is in slot 4.
    p = tcm_turn(["r4", "r4", "b1", "g4", "g4"], [2, 2, 2, 2, 2])
    assert p.action("Cathy")[:2] != ("clue", "Alice")


def test_no_trash_chop_move_when_a_5_save_can_be_given():
    # will-bot "will not give a tcm if chop can be saved directly (critical)": the chop is
    # g5: a 5 Save, not a 1 clue.
    p = tcm_turn(["r4", "r4", "b1", "r1", "g5"], [2, 2, 2, 2, 2])
    assert p.action("Cathy") == ("clue", "Alice", 5)


def test_no_trash_chop_move_when_a_2_save_can_be_given():
    # will-bot "will not give a tcm if chop can be saved directly (2 save)": stacks r5 y0 g0
    # b2 w2; the chop is y2: a 2 Save.
    p = tcm_turn(["y4", "g4", "b1", "r1", "y2"], [5, 0, 0, 2, 2], BOB_RED, CATHY_RED)
    assert p.action("Cathy") == ("clue", "Alice", 2)


def test_no_trash_chop_move_when_a_play_clue_saves_the_chop():
    # will-bot "will not give a tcm if a play can be given instead": stacks r5 y1 g0 b2 w2;
    # the chop is y2, playable: a play clue (yellow), not a Trash Chop Move.
    p = tcm_turn(["y4", "g4", "b1", "r1", "y2"], [5, 1, 0, 2, 2], BOB_RED, CATHY_RED)
    assert p.action("Cathy") == ("clue", "Alice", "yellow")


# -- the 5's Chop Move (docs/level-4.mdx "The 5's Chop Move") ---------------------------------

# After the Early Game (a trash r1 discarded in the setup) and below 8 clue tokens (at 8 a 5
# clue may be an 8 Clue Stall): Alice and Bob first give unrelated 5 Saves (Bob's w5,
# Cathy's r5); Cathy, the documents' Alice, then gives the 5 clue to Alice, the documents' Bob.
BOB_5 = ["y4", "w4", "g3", "b3", "w5"]
CATHY_5 = ["r3", "w3", "b3", "w4", "r5"]


def five_clue(alice: list[str]) -> At4:
    p = At4([alice, BOB_5, CATHY_5], stacks=ONES_PLAYED, discards=["r1"])
    p.clue("Alice", "Bob", 5)
    p.clue("Bob", "Cathy", 5)
    p.clue("Cathy", "Alice", 5)
    return p


def test_a_5_one_away_from_chop_chop_moves_the_chop():
    # 5s-chop-move-1: every 1 played. The 5 clue touches a 5 in slot 4: Alice (the doc's
    # Bob) chop-moves slot 5, her chop is slot 3; it is no play clue on the 5.
    p = five_clue(["r4", "y3", "g4", "y5", "b4"])
    for viewer in everyone(p):
        assert p.moved(viewer, "Alice") == [5], viewer
        assert p.chop_slot(viewer, "Alice") == 3, viewer
    assert p.action("Alice") != ("play", 4)


def test_a_5s_chop_move_on_two_5s_moves_one_card():
    # 5s-chop-move-2: the 5 clue touches 5s in slots 2 and 4: only slot 5 is chop-moved (the
    # card right of the rightmost 5); the chop is slot 3.
    p = five_clue(["r4", "g5", "g4", "y5", "b4"])
    for viewer in everyone(p):
        assert p.moved(viewer, "Alice") == [5], viewer
        assert p.chop_slot(viewer, "Alice") == 3, viewer


def test_a_5_two_away_from_chop_moves_nothing():
    # docs/level-4.mdx: "if you clue a 5 and it is two (or more) slots away from the chop,
    # then it is a Play Clue on the 5" (the 5's Chop Move moves one card only): a 5 in
    # slot 3; the chop stays slot 5.
    p = five_clue(["r4", "y3", "y5", "g4", "b4"])
    for viewer in everyone(p):
        assert p.moved(viewer, "Alice") == [], viewer
        assert p.chop_slot(viewer, "Alice") == 5, viewer


def test_a_5_clue_that_may_be_a_5_stall_moves_nothing():
    # docs/level-4.mdx: "5 Stalls take precedence over 5's Chop Moves": 5s-chop-move-1's hand,
    # but Alice clues 5 to Bob at 8 clue tokens (a stalling situation): nothing is moved.
    p = At4([FOURS, ["r4", "y3", "g4", "y5", "b4"], THREES], stacks=ONES_PLAYED, discards=["r1"])
    assert p.state.clue_tokens == 8
    p.clue("Alice", "Bob", 5)
    for viewer in everyone(p):
        assert p.moved(viewer, "Bob") == [], viewer
        assert p.chop_slot(viewer, "Bob") == 5, viewer


# -- the Order Chop Move (docs/level-4.mdx "The Order Chop Move") -----------------------------

# order-chop-move: the first turn, nothing played; Bob's three 1s are in slots 1, 2 and 3.
OCM_ALICE = ["r4", "y4", "g4", "b3", "w3"]
OCM_BOB = ["r1", "y1", "g1", "b4", "w4"]
OCM_CATHY = ["r3", "y3", "g3", "b3", "w4"]


def test_playing_the_expected_1_moves_no_chop():
    # order-chop-move: Alice clues 1 to Bob; he plays slot 3 (the oldest 1): nothing special.
    p = At4([OCM_ALICE, OCM_BOB, OCM_CATHY])
    p.clue("Alice", "Bob", 1)
    p.play("Bob", 3)
    for viewer in everyone(p):
        assert p.moved(viewer, "Cathy") == [] and p.moved(viewer, "Alice") == [], viewer


def test_skipping_one_1_chop_moves_the_next_players_chop():
    # order-chop-move: Bob plays slot 2, skipping one 1: Cathy chop-moves her slot 5.
    p = At4([OCM_ALICE, OCM_BOB, OCM_CATHY])
    p.clue("Alice", "Bob", 1)
    p.play("Bob", 2)
    for viewer in everyone(p):
        assert p.moved(viewer, "Cathy") == [5], viewer
        assert p.moved(viewer, "Alice") == [], viewer
        assert p.chop_slot(viewer, "Cathy") == 4, viewer


def test_skipping_two_1s_chop_moves_the_chop_of_the_player_after():
    # order-chop-move: Bob plays slot 1, skipping two 1s: Alice chop-moves her slot 5.
    p = At4([OCM_ALICE, OCM_BOB, OCM_CATHY])
    p.clue("Alice", "Bob", 1)
    p.play("Bob", 1)
    for viewer in everyone(p):
        assert p.moved(viewer, "Alice") == [5], viewer
        assert p.moved(viewer, "Cathy") == [], viewer


def test_a_second_order_chop_move_moves_the_next_unmoved_card():
    # docs/level-4.mdx, continuing order-chop-move: Bob plays slot 2 (an Order Chop Move on
    # Cathy's slot 5); Cathy and Alice make unrelated moves (a 5 Save on Alice's chop, Alice's
    # discard); Bob's 1s are now in slots 2 and 3; he plays slot 2 again: Cathy chop-moves
    # her slot 4 (her slot 5 is moved already).
    p = At4([["r4", "y4", "g4", "b3", "w5"], OCM_BOB, OCM_CATHY])
    p.clue("Alice", "Bob", 1)
    p.play("Bob", 2)
    p.clue("Cathy", "Alice", 5)
    p.discard("Alice", 4)
    p.play("Bob", 2)
    for viewer in everyone(p):
        assert p.moved(viewer, "Cathy") == [4, 5], viewer
        assert p.chop_slot(viewer, "Cathy") == 3, viewer


def test_an_order_chop_move_read_from_a_played_1():
    # will-bot "will interpret an ocm to the next player": Alice clues 1 to Bob (b1, g1, r1
    # in slots 2 to 4); Bob plays g1 (slot 3), not slot 4: Cathy's slot 5 is chop-moved.
    p = At4(
        [["xx"] * 5, ["b4", "b1", "g1", "r1", "r5"], ["y4", "r4", "g4", "r4", "b5"]],
        draws=["r1"],
    )
    p.clue("Alice", "Bob", 1)
    p.play("Bob", 3)
    for viewer in everyone(p):
        assert p.chop_moved(viewer, "Cathy", 5), viewer


def test_an_order_chop_move_skipping_a_player():
    # will-bot "will interpret an ocm skipping a player" (Cathy, Alice, Bob there; Alice, Bob,
    # Cathy here): Alice clues 5 to Bob (slot 5); Bob clues 1 to Cathy (b1, g1, r1 in slots
    # 2 to 4); Cathy plays b1 (slot 2), skipping two 1s: Bob's slot 4 (his chop) is moved.
    p = At4(
        [
            ["y4", "r4", "g4", "r4", "b5"],
            ["xx", "xx", "xx", "xx", "w5"],
            ["b4", "b1", "g1", "r1", "r5"],
        ],
        draws=["r1"],
    )
    p.clue("Alice", "Bob", 5)
    p.clue("Bob", "Cathy", 1)
    p.play("Cathy", 2)
    for viewer in everyone(p):
        assert p.chop_moved(viewer, "Bob", 4), viewer
        assert p.moved(viewer, "Alice") == [], viewer


def test_an_order_chop_move_that_misplays():
    # will-bot "will interpret an ocm that bombs": g1 played; Alice clues 1 to Bob (b1, g1,
    # r1); Bob plays g1 (slot 3, a misplay) out of order: Cathy's slot 5 is chop-moved.
    p = At4(
        [["xx"] * 5, ["b4", "b1", "g1", "r1", "r5"], ["y4", "r4", "g4", "r4", "b5"]],
        stacks={"g": 1},
        draws=["r1"],
    )
    p.clue("Alice", "Bob", 1)
    p.play("Bob", 3)
    assert p.state.fireworks[2] == 1  # the g1 misplayed
    for viewer in everyone(p):
        assert p.chop_moved(viewer, "Cathy", 5), viewer


# -- giving an Order Chop Move (will-bot "giving order chop move") ----------------------------


def test_1s_played_out_of_order_to_save_the_next_players_5():
    # will-bot "will find an ocm to the next player" (2 players; Bob, Alice there): Alice
    # (r4 r4 g4 r3 r5) clues 1 to Bob, slots 3 and 4; Bob plays slot 3, not slot 4, to
    # chop-move Alice's r5.
    p = At4([["r4", "r4", "g4", "r3", "r5"], ["xx", "xx", "y1", "b1", "xx"]])
    p.clue("Alice", "Bob", 1)
    assert p.action("Bob") == ("play", 3)


def test_1s_played_skipping_two_to_save_the_player_after():
    # will-bot "will find an ocm to cathy" (Bob, Cathy, Alice there; Alice, Bob, Cathy
    # here): Alice clues 1 to Cathy, slots 2 to 4; Bob makes an unrelated 5 Save on Alice's
    # chop (the source's Bob hand, with a b5 on its chop for it); Cathy plays slot 2,
    # skipping two 1s, to chop-move Bob's r5.
    p = At4(
        [
            ["g3", "r3", "y3", "y4", "b5"],
            ["r4", "r4", "g4", "r3", "r5"],
            ["xx", "w1", "g1", "b1", "xx"],
        ]
    )
    p.clue("Alice", "Cathy", 1)
    p.clue("Bob", "Alice", 5)
    assert p.action("Cathy") == ("play", 2)


def test_no_order_chop_move_that_puts_a_critical_card_on_chop():
    # will-bot "will not give an ocm putting a critical on chop" (2 players): Alice's chop is
    # r5 and w5 is next to it: Bob gives a 5 Save (both 5s), not an Order Chop Move.
    p = At4([["r4", "r4", "g4", "w5", "r5"], ["xx", "xx", "y1", "b1", "xx"]])
    p.clue("Alice", "Bob", 1)
    assert p.action("Bob") == ("clue", "Alice", 5)


def test_no_order_chop_move_on_trash():
    # will-bot "will not ocm trash" (2 players): r2 played; Alice's chop is r1: Bob plays
    # his 1s in order (slot 4).
    p = At4([["r4", "r4", "g4", "g4", "r1"], ["xx", "xx", "y1", "b1", "xx"]], stacks={"r": 2})
    p.clue("Alice", "Bob", 1)
    assert p.action("Bob") == ("play", 4)


def test_an_order_chop_move_on_one_copy_of_an_unsaved_duplicate():
    # will-bot "will ocm one card of an unsaved duplicate" (2 players): Alice's chop is g4,
    # the other g4 beside it, neither clued: Bob plays slot 3 to chop-move one of them.
    p = At4([["r4", "r4", "g5", "g4", "g4"], ["xx", "xx", "y1", "b1", "xx"]])
    p.clue("Alice", "Bob", 1)
    assert p.action("Bob") == ("play", 3)


def test_no_order_chop_move_on_a_copy_of_a_saved_card():
    # will-bot "will not ocm one card of a saved duplicate" (Bob, Cathy, Alice there; Alice,
    # Bob, Cathy here): Alice 2-saves Bob's r2; Bob clues 1 to Cathy (slots 3, 4); Alice's
    # chop is the other r2: Cathy plays slot 4.
    p = At4(
        [
            ["r4", "r4", "g3", "g3", "r2"],
            ["g4", "r3", "y3", "y3", "r2"],
            ["xx", "xx", "w1", "b1", "xx"],
        ]
    )
    p.clue("Alice", "Bob", 2)
    p.clue("Bob", "Cathy", 1)
    assert p.action("Cathy") == ("play", 4)


def test_no_order_chop_move_on_a_playable_card():
    # will-bot "will not ocm a playable card" (turned as above): Alice 2-saves Bob's r2; Bob
    # clues 1 to Cathy (slots 3, 4); Alice's chop is r1, playable: Cathy plays slot 4.
    p = At4(
        [
            ["r4", "r4", "g3", "g3", "r1"],
            ["g5", "r1", "y3", "y3", "r2"],
            ["xx", "xx", "w1", "b1", "xx"],
        ]
    )
    p.clue("Alice", "Bob", 2)
    p.clue("Bob", "Cathy", 1)
    assert p.action("Cathy") == ("play", 4)


def test_the_last_1s_are_played_in_order_when_no_order_chop_move_is_wanted():
    # will-bot "plays the last 1 in the correct order when not wanting to ocm" (2 players;
    # Bob, Alice there): r1 y1 g1 played. Alice clues 1 to Bob (slots 3 to 5); Bob plays b1
    # (slot 5); Alice discards w4 (drawing g3), her chop is now y1 (trash); Bob plays the
    # rightmost 1 (slot 5).
    p = At4(
        [["r4", "b4", "g4", "y1", "w4"], ["xx", "xx", "y1", "w1", "b1"]],
        stacks=[1, 1, 1, 0, 0],
        draws=["y4", "g3"],
    )
    p.clue("Alice", "Bob", 1)
    p.play("Bob", 5)  # b1
    p.discard("Alice", 5)  # w4
    assert p.action("Bob") == ("play", 5)


# -- chop moves and later clues (docs/level-4.mdx "Chop Moves & New Clues", "... & Prompts") --


def test_a_clue_on_a_chop_moved_card_and_a_new_card_focuses_the_new_card():
    # chop-move-new: every 1 played. Alice clues 1 to Bob (a 1 in slot 4: slot 5 is
    # chop-moved); Bob discards the 1 (drawing b2); Cathy clues blue to Bob, slot 1 (the new
    # card) and slot 5 (the chop-moved b4): the focus is slot 1, b2; after Alice's unrelated
    # discard, Bob plays it.
    p = At4([FOURS, ["r4", "y3", "g4", "r1", "b4"], THREES], stacks=ONES_PLAYED, draws=["b2"])
    p.clue("Alice", "Bob", 1)
    p.discard("Bob", 4)
    assert p.chop_moved("Bob", "Bob", 5)
    p.clue("Cathy", "Bob", "blue")
    assert p.inferred("Bob", "Bob", 1) == {"B2"}
    p.discard("Alice", 5)  # unrelated
    assert p.action("Bob") == ("play", 1)


def test_a_chop_moved_card_is_not_prompted():
    # chop-move-prompt: every 1 played; Bob has no clued card but a chop-moved one in slot 5
    # (Alice's Trash Chop Move on his r1, which he discards, drawing r2; Cathy gives an
    # unrelated 5 Save to Alice). Alice clues red to Cathy, her r3: Bob is promised r2, and
    # plays his finesse position (slot 1), not the chop-moved card as a prompt.
    p = At4(
        [
            ["r4", "y4", "g4", "b4", "w5"],
            ["r4", "y3", "g4", "r1", "b4"],
            ["y3", "g3", "r3", "b3", "w3"],
        ],
        stacks=ONES_PLAYED,
        draws=["r2"],
    )
    p.clue("Alice", "Bob", 1)
    p.discard("Bob", 4)
    p.clue("Cathy", "Alice", 5)
    assert p.chop_moved("Bob", "Bob", 5)
    p.clue("Alice", "Cathy", "red")
    assert not p.finessed("Bob", "Bob", 5)
    assert p.action("Bob") == ("play", 1)
