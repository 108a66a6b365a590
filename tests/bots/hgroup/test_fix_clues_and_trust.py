"""Two habits measured in 3-player self-play (bench/HGROUP_FIGURES.md): a clue on cards
already clued is worth giving when it shows one of them playable (a fix), and a player who
leaves a card unplayed is not taken for a player of other conventions."""

import pytest

from tests.bots.hgroup.positions import Position

XX = ["xx"] * 5


@pytest.mark.parametrize("level", [1, 2])
def test_a_clue_that_shows_a_saved_card_playable_is_given_and_played(level):
    # Bob's r2 was 2-saved on chop: it may be any 2, so he cannot play it.
    p = Position([XX, ["g4", "b4", "y4", "w3", "r2"]], stacks={"r": 1}, level=level)
    p.clue("Alice", "Bob", 2)
    assert p.inferred("Bob", "Bob", 5) == {"R2", "Y2", "G2", "B2", "W2"}
    p.discard("Bob", 4)
    # Now every card Alice could clue is either clued already or not playable: the clue
    # that tells Bob his 2 is the red one is worth a card played.
    kind, target, _value = p.action("Alice")
    assert (kind, target) == ("clue", "Bob")
    assert "it touches no new card, but shows Bob's red 2 (slot 5) plays now" in p.reason()
    _, _, value = p.action("Alice")
    p.clue("Alice", "Bob", value)
    assert p.action("Bob") == ("play", 5)


@pytest.mark.parametrize("level", [1, 2])
def test_a_player_who_discards_instead_of_playing_is_still_read_by_the_conventions(level):
    p = Position([XX, ["g4", "b4", "r1", "y4", "w3"]], level=level)
    p.clue("Alice", "Bob", "red")  # a play clue on Bob's r1
    p.discard("Bob", 5)  # he does something else: he may have read the table otherwise
    assert p.seat("Bob") not in p.notes("Alice").literal
