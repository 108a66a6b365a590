"""The conventions of games/bots/README.md on hand-built positions.

Two players: seat 0 holds cards 4 3 2 1 0 (slot 1 first: the newest card is the last dealt),
seat 1 holds 9 8 7 6 5; a seat's chop is its oldest unclued card, so card 0 for seat 0 and
card 5 for seat 1. Three players: seat 2 holds 14 13 12 11 10.
"""

from games.bots import choose_action
from games.engine import Clue, Discard, GameOptions, Play, new_game, view_for
from tests.engine.helpers import deck_with_top

TWO = GameOptions(players=2)
THREE = GameOptions(players=3)


def test_it_plays_a_card_clued_as_playable():
    # Seat 1 holds R1 in slot 3 (card 7). Seat 0 clues red, touching it alone, with a discard
    # open to it (not all 8 tokens in the box): the focus is playable. (The one assumption
    # made of any partner, README.md: "Playing with people".)
    state = new_game(TWO, deck=deck_with_top(TWO, "G3 B4 W4 Y3 G4  Y4 B3 R1 W3 G2"))
    state.apply(Clue(1, rank=4))  # 8 tokens: a clue for want of a discard, read for its facts
    state.apply(Clue(0, rank=3))
    state.apply(Clue(1, colour="red"))
    assert choose_action(view_for(state, 1)) == Play(7)


def test_it_plays_a_card_clued_with_its_rank_when_every_card_of_that_rank_is_playable():
    state = new_game(TWO, deck=deck_with_top(TWO, "G3 B4 W4 Y3 G4  Y4 B3 B1 W3 G2"))
    state.apply(Clue(1, rank=1))
    assert choose_action(view_for(state, 1)) == Play(7)


def test_it_gives_a_play_clue_to_a_playable_card():
    # Seat 1's only playable card is G1 (card 8); any clue that shows it is playable will do.
    state = new_game(TWO, deck=deck_with_top(TWO, "G3 B4 W4 Y3 G4  Y4 B3 R3 G1 W2"))
    action = choose_action(view_for(state, 0))
    assert isinstance(action, Clue) and action.target == 1
    touched = state.clue_touches(1, action.colour, action.rank)
    assert 8 in touched
    state.apply(action)
    assert choose_action(view_for(state, 1)) == Play(8)


def test_it_saves_a_5_on_the_next_players_chop_before_playing():
    # Seat 2's chop (card 10) is B5 and it has no play. Seat 1 holds Y1, clued at turn 0,
    # yet saves the 5 first, as a 5 clue or a blue clue.
    deck = deck_with_top(THREE, "R3 R4 G3 G4 W3  Y4 Y3 B2 W4 Y1  B5 R2 G2 W2 Y2")
    state = new_game(THREE, deck=deck)
    state.apply(Clue(1, rank=1))  # seat 0 shows seat 1 its Y1 (card 9)
    action = choose_action(view_for(state, 1))
    assert isinstance(action, Clue) and action.target == 2
    assert 10 in state.clue_touches(2, action.colour, action.rank)
    state.apply(action)
    # Seat 2 reads it as a save: it neither plays nor discards the 5.
    reply = choose_action(view_for(state, 2))
    assert reply not in (Play(10), Discard(10))


def test_it_discards_its_chop_and_never_a_clued_card_while_an_unclued_one_is_left():
    # Seat 0 clues seat 1's R5 (card 9). Then seat 1, with nothing to play and no clue worth
    # giving (no teammate holds a playable card or a card in danger), discards its oldest
    # unclued card, card 5, never the clued 5.
    deck = deck_with_top(THREE, "G3 B4 W4 Y3 G4  Y4 B3 R3 W3 R5  G3 Y3 B4 W4 R4")
    state = new_game(THREE, deck=deck)
    state.apply(Clue(1, rank=5))
    assert choose_action(view_for(state, 1)) == Discard(5)


def test_it_discards_a_card_it_knows_is_useless_before_its_chop():
    # Red 1 goes on the firework; seat 1's card 8 is clued red and 1, so it is a second R1.
    deck = deck_with_top(TWO, "R1 B4 W4 Y3 G4  Y4 B3 R3 R1 W3  G3 B3")
    state = new_game(TWO, deck=deck)
    state.apply(Clue(1, colour="red"))  # touches R3 (7) and R1 (8)
    state.apply(Discard(5))  # seat 1 passes its turn
    state.apply(Play(0))  # seat 0 plays R1 (it knows nothing, but it is placed)
    state.apply(Clue(0, rank=4))  # seat 1 gives seat 0 a clue to pass the turn
    state.apply(Clue(1, rank=3))  # and so on, down to 4 tokens: with more, a bot of 2
    state.apply(Clue(0, rank=3))  # players would rather give its next small clue
    state.apply(Clue(1, rank=1))  # card 8 is now known to be red 1: useless
    assert choose_action(view_for(state, 1)) == Discard(8)


def test_it_does_not_play_a_card_it_knows_is_not_playable():
    # Seat 1's card 7 is known to be red 3 (two clues), and red is at 0: seat 1 knows of no
    # playable card, so it does not play at all.
    deck = deck_with_top(TWO, "G3 B4 W4 Y3 G4  Y4 B3 R3 W3 G2")
    state = new_game(TWO, deck=deck)
    state.apply(Clue(1, rank=3))
    state.apply(Clue(0, rank=3))
    state.apply(Clue(1, colour="red"))
    view = view_for(state, 1)
    mine = next(hand for hand in view["hands"] if hand["is_viewer"])["cards"]
    assert next(card for card in mine if card["id"] == 7)["possible"] == ["R3"]
    assert not isinstance(choose_action(view), Play)
