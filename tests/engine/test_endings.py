"""End of the game and scoring (RULES.md, "End of the game")."""

import pytest

from games.engine import (
    Clue,
    Discard,
    End,
    GameOptions,
    Play,
    deck_composition,
    new_game,
    rating_word,
)

from .helpers import cheating_greedy, deck_with_top, is_playable, play_order_deck, run


def misplayable(state):
    """A card in the mover's hand that cannot be placed."""
    return next(cid for cid in state.hand(state.current_seat) if not is_playable(state, cid))


def discard_or_clue(state):
    """Discard the oldest card if a token can be regained, else clue."""
    if state.clue_tokens < 8:
        return Discard(state.hand(state.current_seat)[-1])
    return next(action for action in state.legal_actions() if isinstance(action, Clue))


# -- the last fuse ---------------------------------------------------------------------------


def test_the_last_fuse_ends_the_game_at_once_with_score_zero():
    options = GameOptions(2)
    state = new_game(options, deck=deck_with_top(options, "R1 Y1 R5 Y5 G5  G1 B1 B5 W5 W4"))
    state.apply(Play(0))  # red 1
    state.apply(Play(5))  # green 1
    assert state.score == 2
    for _ in range(3):
        state.apply(Play(misplayable(state)))
    assert state.end is End.STRIKEOUT
    assert state.fuses_left == 0
    assert state.score == 0
    assert state.fireworks == (1, 0, 1, 0, 0)  # the fireworks reached stay visible
    assert state.fireworks_total == 2
    assert state.max_reachable_score == 0


@pytest.mark.parametrize("fuses", [1, 2, 3])
def test_the_fuses_option_sets_how_many_misplays_end_the_game(fuses):
    state = new_game(GameOptions(3, fuses=fuses), deck=deck_composition(0)[::-1])
    for _ in range(fuses):
        assert not state.is_over
        state.apply(Play(misplayable(state)))
    assert state.end is End.STRIKEOUT and state.score == 0


def test_strikeout_on_the_turn_that_draws_the_last_card():
    state = new_game(GameOptions(2), deck=deck_composition(0))
    state.apply(Play(misplayable(state)))
    state.apply(Play(misplayable(state)))
    while state.deck_size > 1:
        state.apply(discard_or_clue(state))
    assert not state.is_over and state.fuses_left == 1
    state.apply(Play(misplayable(state)))  # draws the last card and burns the last fuse
    assert state.deck_size == 0
    assert state.end is End.STRIKEOUT and state.score == 0


def test_strikeout_on_the_very_last_turn_beats_the_end_of_the_last_round():
    state = new_game(GameOptions(3), deck=deck_composition(0))
    state.apply(Play(misplayable(state)))
    state.apply(Play(misplayable(state)))
    while state.deck_size > 0:
        state.apply(discard_or_clue(state))
    while state.turns_left > 1:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Clue)))
    assert not state.is_over
    state.apply(Play(misplayable(state)))
    assert state.end is End.STRIKEOUT and state.score == 0


# -- all fireworks complete ------------------------------------------------------------------


@pytest.mark.parametrize(("multicolour", "maximum"), [(0, 25), (1, 30), (2, 30), (3, 30)])
def test_completing_every_firework_ends_the_game_at_once(multicolour, maximum):
    options = GameOptions(3, multicolour=multicolour)
    state = run(new_game(options, deck=play_order_deck(options)), cheating_greedy)
    assert state.end is End.PERFECT and state.won
    assert state.score == maximum == state.max_score
    assert state.deck_size > 0  # it did not wait for the deck to run out
    assert rating_word(state.score, options) == "perfect"


# -- the deck runs out -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_after_the_last_card_every_player_takes_exactly_one_more_turn(players):
    options = GameOptions(players)
    # Reversed, the deck ends with the red 1s: the player who draws the last card holds a
    # playable card until their final turn, so "nothing left to play for" (which ends the
    # last round as soon as no player with a turn left holds a playable card) cannot cut
    # the round short while everybody clues.
    state = new_game(options, deck=deck_composition(0)[::-1])
    while state.deck_size > 0:
        state.apply(discard_or_clue(state))
    last_draw = state.turn - 1
    drawer = state.events[-1].seat
    assert state.events[-1].drawn == len(state.deck) - 1
    assert state.turns_left == players
    while not state.is_over:
        assert state.max_reachable_score <= state.score + state.turns_left
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Clue)))
    assert state.end is End.LAST_ROUND
    assert state.turn == last_draw + 1 + players
    final_seats = [event.seat for event in state.events[last_draw + 1 :]]
    assert sorted(final_seats) == list(range(players))
    assert final_seats[-1] == drawer  # ... including the player who drew the last card
    assert state.turns_left == 0


def test_no_card_is_drawn_in_the_last_round_so_hands_shrink():
    options = GameOptions(2)
    state = new_game(options, deck=deck_composition(0))
    while state.deck_size > 0:
        state.apply(discard_or_clue(state))
    sizes = [len(hand) for hand in state.hands]
    mover = state.current_seat
    state.apply(Play(state.hand(mover)[0]))
    assert state.events[-1].drawn is None
    assert len(state.hand(mover)) == sizes[mover] - 1


def test_last_round_score_stands():
    options = GameOptions(2)
    state = run(new_game(options, seed=3), cheating_greedy)
    assert state.end in (End.LAST_ROUND, End.PERFECT, End.NO_MORE_POINTS)
    assert state.score == state.fireworks_total == len(state.played)


# -- nothing left to play for ----------------------------------------------------------------


def test_the_game_ends_when_no_remaining_card_can_raise_the_score():
    options = GameOptions(2)
    top = "R1 R2 R2 Y1 Y1  Y1 G1 G1 G1 B1  B1 B1 W1 W1 W1"
    state = new_game(options, deck=deck_with_top(options, top))
    state.apply(Play(0))  # red 1: score 1
    targets = {"R2", "Y1", "G1", "B1", "W1"}

    def wipe(state):
        hand = state.hand(state.current_seat)
        doomed = [cid for cid in hand if state.card(cid).code in targets]
        if state.clue_tokens < 8 and doomed:
            return Discard(doomed[0])
        return next(a for a in state.legal_actions() if isinstance(a, Clue))

    while not state.is_over:
        assert state.max_reachable_score > state.score
        state.apply(wipe(state))
    assert state.end is End.NO_MORE_POINTS
    assert state.score == 1  # the score stands
    assert state.deck_size > 0  # at once, long before the deck runs out
    assert {state.card(cid).code for cid in state.discards} == targets


def test_max_reachable_score_follows_lost_cards():
    options = GameOptions(2)
    state = new_game(options, deck=deck_with_top(options, "R5 Y2 Y2 R1 R1  G1 B1 W1 W2 W3"))
    assert state.max_reachable_score == 25
    state.apply(Clue(1, rank=1))
    state.apply(Clue(0, rank=2))
    state.apply(Discard(0))  # the only red 5
    assert state.max_reachable_score == 24
    state.apply(Clue(0, rank=1))
    state.apply(Discard(1))  # one yellow 2 of two
    assert state.max_reachable_score == 24
    state.apply(Clue(0, rank=1))
    state.apply(Discard(2))  # the other yellow 2
    assert state.max_reachable_score == 20  # red up to 4, yellow up to 1


# -- score and rating ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "word"),
    [(0, "25 short of perfect"), (5, "20 short of perfect"), (24, "1 short of perfect")],
)
def test_rating_words_say_how_far_from_perfect(score, word):
    assert rating_word(score, GameOptions(2)) == word
    assert rating_word(25, GameOptions(2)) == "perfect"


def test_with_six_suits_perfect_is_30():
    options = GameOptions(2, multicolour=1)
    assert rating_word(25, options) == "5 short of perfect"
    assert rating_word(30, options) == "perfect"


# The rulebook's scale (horrible, mediocre, ... legendary) judged the players (issue 27).
@pytest.mark.parametrize("multicolour", [0, 1])
def test_no_rating_word_judges_the_players(multicolour):
    options = GameOptions(2, multicolour=multicolour)
    judging = {"horrible", "mediocre", "honourable", "excellent", "amazing", "legendary"}
    for score in range(options.max_score + 1):
        assert not judging & set(rating_word(score, options).split())


def test_play_until_perfect_has_no_scale():
    options = GameOptions(2, until_perfect=True)
    assert rating_word(25, options) == "victory"
    assert rating_word(0, options) == "defeat"
    assert rating_word(24, options) == "defeat"
