"""The H-Group bot's reasons in words (``decide(view) -> Decision(action, reason)``), on
positions built with positions.py, and that ``decide`` and ``choose_action`` agree."""

from games.bots.hgroup import Decision, choose_action, decide
from games.engine import Clue, Discard, Play, view_for
from tests.bots.hgroup.positions import Position

XX = ["xx"] * 5


def decision(p: Position) -> Decision:
    names = [""] * len(p.seat_of)
    for name, seat in p.seat_of.items():
        names[seat] = name
    view = view_for(p.state, p.state.current_seat, names=names)
    made = decide(view)
    assert made.action == choose_action(view)  # one code path: the same move
    return made


def test_a_play_names_the_play_clue_and_its_turn():
    p = Position([XX, ["g4", "r1", "b5", "p2", "y1"]])
    p.clue("Alice", "Bob", "red")
    made = decision(p)
    assert made.action == Play(p.card("Bob", 2))
    assert made.reason == (
        "Play slot 2: it was clued red as a play clue on turn 1 (it can only be red 1)"
    )


def test_a_play_clue_counts_the_turns_before_it():
    p = Position([XX, ["r3", "g4", "y3", "w4", "b5"]], stacks={"b": 4})
    p.clue("Alice", "Bob", "blue")  # the fifth move: four blue cards were played first
    made = decision(p)
    assert made.action == Play(p.card("Bob", 5))
    assert made.reason.startswith("Play slot 5: it was clued blue as a play clue on turn 5")


def test_a_5_save_on_chop():
    p = Position([XX, ["r3", "g4", "y3", "w4", "b5"]])
    made = decision(p)
    assert made.action == Clue(p.seat("Bob"), rank=5)
    assert made.reason.startswith("Save Bob's 5 (blue 5) on chop: Clue Bob 5 (slot 5)")


def test_a_2_save_in_the_early_game():
    p = Position([XX, ["r3", "g4", "b3", "w3", "y2"]])
    made = decision(p)
    assert made.action == Clue(p.seat("Bob"), rank=2)
    assert made.reason == (
        "Save Bob's yellow 2 on chop (a 2 save): Clue Bob 2 (slot 5); "
        "in the Early Game a clue comes before any discard"
    )


def test_a_critical_save_when_the_next_player_has_nothing_else_to_do():
    p = Position([XX, ["b4", "g5", "p2", "p4", "g4"]], stacks={"r": 1}, discards=["g4"])
    made = decision(p)
    assert made.action == Clue(p.seat("Bob"), colour="green")
    assert made.reason == (
        "Save Bob's green 4 on chop, the last copy: Clue Bob green (slots 2, 5); "
        "Bob has nothing else to do but discard that chop"
    )


def test_discard_chop():
    p = Position(
        [
            ["r1", "y1", "g1", "b2", "w2"],
            ["r4", "y4", "g4", "b4", "w4"],
            ["r3", "r1", "y1", "g2", "b1"],
        ],
        stacks=[2, 2, 2, 2, 2],
    )
    p.clue("Alice", "Cathy", 3)
    made = decision(p)
    assert made.action == Discard(p.card("Bob", 5))
    assert made.reason.startswith("Discard chop (slot 5)")


def test_a_finessed_card_is_played_blind_and_says_whose_clue():
    p = Position([XX, ["g4", "r2", "b3", "w3", "y3"], ["r1", "b4", "g3", "y4", "w4"]])
    p.clue("Alice", "Bob", "red")  # Bob's r2: Cathy's r1 in finesse position
    p.discard("Bob", 5)
    made = decision(p)
    assert made.action == Play(p.card("Cathy", 1))
    assert made.reason == (
        "Play slot 1: finessed by Alice's clue on turn 1, a blind play (it can only be red 1)"
    )


def test_a_play_clue_it_gives_names_the_card_and_why_a_clue_now():
    p = Position([XX, ["r1", "b4", "g3", "y4", "w4"], ["g4", "r2", "b3", "w3", "y3"]])
    p.clue("Alice", "Bob", 4)
    p.clue("Bob", "Alice", 4)
    p.clue("Cathy", "Alice", 4)
    made = decision(p)
    assert made.action == Clue(p.seat("Bob"), colour="red")
    assert made.reason == (
        "Clue Bob red (slot 1): a play clue on Bob's red 1 (slot 1); "
        "in the Early Game a clue comes before any discard"
    )
