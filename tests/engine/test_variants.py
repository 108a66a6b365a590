"""Options and variants: multicolour 1-3, play until perfect (4), empty clues."""

import pytest

from games.engine import (
    Clue,
    Discard,
    End,
    GameOptions,
    IllegalAction,
    Play,
    SplitMix64,
    new_game,
    possible_identities,
    rating_word,
    replay,
    view_for,
)
from games.engine.cards import identity_code

from .helpers import cheating_greedy, deck_with_top, play_order_deck, run, safe_random


def game(top: str, **options):
    opts = GameOptions(2, **options)
    return new_game(opts, deck=deck_with_top(opts, top))


def possible(state, card_id):
    return {identity_code(i) for i in possible_identities(state, card_id)}


def suit_codes(letters: str) -> set[str]:
    return {f"{letter}{rank}" for letter in letters for rank in range(1, 6)}


# -- variant 1: sixth suit --------------------------------------------------------------------


def test_variant_one_multicolour_is_an_ordinary_clueable_suit():
    state = game("R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1", multicolour=1)
    event = state.apply(Clue(1, colour="multicolour"))
    assert set(event.touched) == {5, 8}
    state.apply(Clue(0, rank=1))
    event = state.apply(Clue(1, colour="red"))
    assert set(event.touched) == {6}  # red does not touch multicolour here
    assert possible(state, 5) == suit_codes("M")
    assert possible(state, 7) == suit_codes("RYGBW") - suit_codes("R")


def test_variant_one_deck_and_score():
    options = GameOptions(4, multicolour=1)
    assert options.deck_size == 60 and options.max_score == 30
    assert len(new_game(options, seed=1).deck) == 60


# -- variant 2: sixth suit, one of each -------------------------------------------------------


def test_variant_two_deck_has_55_cards_and_every_multicolour_card_is_critical():
    options = GameOptions(3, multicolour=2)
    state = new_game(options, seed=9)
    assert len(state.deck) == 55 == options.deck_size
    assert [state.copies_left(5 * 5 + rank - 1) for rank in range(1, 6)] == [1] * 5
    assert state.deck_size == 55 - 15


def test_variant_two_multicolour_can_be_clued():
    state = game("R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1", multicolour=2)
    assert set(state.apply(Clue(1, colour="multicolour")).touched) == {5, 8}


def test_variant_two_until_perfect_loses_on_any_multicolour_discard():
    state = game("M1 Y1 G1 B1 W1  R1 R2 Y3 M4 B1", multicolour=2, until_perfect=True)
    state.apply(Clue(1, rank=1))
    state.apply(Clue(0, rank=1))
    state.apply(Discard(0))  # the only multicolour 1
    assert state.end is End.DEFEAT_LOST_CARD


# -- variant 3: wild multicolour ----------------------------------------------------------------


def test_variant_three_a_colour_clue_touches_multicolour_cards_too():
    state = game("R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1", multicolour=3)
    event = state.apply(Clue(1, colour="red"))
    assert set(event.touched) == {5, 6, 8}


def test_variant_three_touched_means_this_colour_or_multicolour():
    state = game("R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1", multicolour=3)
    state.apply(Clue(1, colour="red"))
    for touched in (5, 6, 8):
        assert possible(state, touched) == suit_codes("RM")


def test_variant_three_missed_means_neither_this_colour_nor_multicolour():
    state = game("R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1", multicolour=3)
    state.apply(Clue(1, colour="red"))
    for missed in (7, 9):
        assert possible(state, missed) == suit_codes("YGBW")


def test_variant_three_two_colours_on_one_card_make_it_multicolour():
    state = game("R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1", multicolour=3)
    state.apply(Clue(1, colour="red"))
    state.apply(Clue(0, rank=1))
    state.apply(Clue(1, colour="blue"))
    assert possible(state, 5) == suit_codes("M")  # touched by red and by blue
    assert possible(state, 8) == suit_codes("M")
    assert possible(state, 6) == suit_codes("R")  # red, not blue
    assert possible(state, 9) == suit_codes("B")  # blue, not red
    assert possible(state, 7) == suit_codes("YGW")  # neither


def test_variant_three_knowledge_shows_in_the_players_view():
    state = game("R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1", multicolour=3)
    state.apply(Clue(1, colour="red"))
    own = {card["id"]: card for card in view_for(state, 1)["hands"][1]["cards"]}
    assert set(own[5]["possible"]) == suit_codes("RM")
    assert own[5]["clues"] == [
        {"turn": 0, "giver": 0, "colour": "red", "rank": None, "touched": True}
    ]
    assert own[7]["clues"][0]["touched"] is False
    assert set(own[7]["possible"]) == suit_codes("YGBW")


def test_variant_three_nobody_can_clue_multicolour():
    state = game("R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1", multicolour=3)
    with pytest.raises(IllegalAction, match="multicolour"):
        state.apply(Clue(1, colour="multicolour"))
    assert not any(isinstance(a, Clue) and a.colour == "multicolour" for a in state.legal_actions())


def test_variant_three_a_colour_missing_from_the_hand_may_still_touch_multicolour():
    state = game("R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1", multicolour=3)
    assert set(state.apply(Clue(1, colour="green")).touched) == {5, 8}


def test_variant_three_rank_clues_are_ordinary():
    state = game("R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1", multicolour=3)
    assert set(state.apply(Clue(1, rank=1)).touched) == {5, 9}


def test_variant_three_plays_build_a_sixth_firework():
    state = game("M1 Y1 G1 B1 W1  R1 R2 Y3 M4 B1", multicolour=3)
    state.apply(Play(0))
    assert state.fireworks == (0, 0, 0, 0, 0, 1)


# -- empty clues --------------------------------------------------------------------------------


def test_empty_clues_off_refuses_a_clue_that_touches_nothing():
    state = game("R1 Y1 G1 B1 W1  R2 R3 Y3 Y4 B1")
    with pytest.raises(IllegalAction, match="at least one card"):
        state.apply(Clue(1, colour="green"))
    assert Clue(1, colour="green") not in state.legal_actions()


def test_empty_clues_on_allows_it_costs_a_token_and_tells_what_is_not_there():
    state = game("R1 Y1 G1 B1 W1  R2 R3 Y3 Y4 B1", empty_clues=True)
    assert Clue(1, colour="green") in state.legal_actions()
    assert Clue(1, rank=5) in state.legal_actions()
    event = state.apply(Clue(1, colour="green"))
    assert event.touched == ()
    assert state.clue_tokens == 7
    for cid in state.hand(1):
        assert not possible(state, cid) & suit_codes("G")


def test_empty_clues_on_in_wild_multicolour_excludes_multicolour_too():
    state = game("R1 Y1 G1 B1 W1  R2 R3 Y3 Y4 B1", multicolour=3, empty_clues=True)
    state.apply(Clue(1, colour="green"))
    for cid in state.hand(1):
        assert not possible(state, cid) & suit_codes("GM")


def test_empty_clues_still_need_a_token_and_another_player():
    state = game("R1 Y1 G1 B1 W1  R2 R3 Y3 Y4 B1", empty_clues=True)
    with pytest.raises(IllegalAction, match="themselves"):
        state.apply(Clue(0, colour="green"))


# -- variant 4: play until perfect --------------------------------------------------------------


def test_until_perfect_victory_is_all_fireworks():
    options = GameOptions(2, until_perfect=True)
    state = run(new_game(options, deck=play_order_deck(options)), cheating_greedy)
    assert state.end is End.PERFECT and state.score == 25
    assert rating_word(state.score, options) == "victory"


def test_until_perfect_goes_on_after_the_deck_runs_out_with_shrinking_hands():
    options = GameOptions(2, until_perfect=True)
    state = new_game(options, seed=61)
    rng = SplitMix64(61)
    sizes_after_deck = None
    while not state.is_over:
        state.apply(safe_random(state, rng))
        if state.deck_size == 0 and sizes_after_deck is None:
            sizes_after_deck = sum(len(hand) for hand in state.hands)
            deck_ran_out_at = state.turn
            assert state.turns_left is None  # no last round
    assert state.turn > deck_ran_out_at + options.players
    assert sum(len(hand) for hand in state.hands) < sizes_after_deck


def test_until_perfect_defeat_when_the_last_copy_of_a_needed_card_is_discarded():
    state = game("R5 R1 R1 Y1 Y1  G1 B1 W1 W2 W3", until_perfect=True)
    state.apply(Clue(1, rank=1))
    state.apply(Play(5))  # green 1: the fireworks show 1
    state.apply(Discard(1))  # one red 1 of three: nothing lost yet
    assert not state.is_over
    state.apply(Clue(0, rank=5))
    state.apply(Discard(0))  # the only red 5
    assert state.end is End.DEFEAT_LOST_CARD
    assert state.score == 0
    assert state.fireworks_total == 1  # the fireworks reached stay visible
    assert rating_word(state.score, state.options) == "defeat"


def test_until_perfect_defeat_when_a_critical_card_is_misplayed():
    state = game("R5 R1 R1 Y1 Y1  G1 B1 W1 W2 W3", until_perfect=True)
    state.apply(Play(0))  # red 5 on nothing: misplay, and the only red 5 is gone
    assert state.fuses_left == 2
    assert state.end is End.DEFEAT_LOST_CARD


def test_without_until_perfect_losing_a_five_does_not_end_the_game():
    state = game("R5 R1 R1 Y1 Y1  G1 B1 W1 W2 W3")
    state.apply(Play(0))
    assert not state.is_over
    assert state.max_reachable_score == 24


def test_until_perfect_defeat_when_a_player_has_no_card_and_no_clue_token():
    options = GameOptions(2, until_perfect=True)
    for seed in range(500):
        state = new_game(options, seed=seed)
        rng = SplitMix64(seed)
        while not state.is_over:
            state.apply(safe_random(state, rng))
        if state.end is End.DEFEAT_NO_ACTION:
            break
    else:
        pytest.fail("no game ended with a player unable to act")
    stuck = state.turn % state.players
    assert state.hand(stuck) == ()
    assert state.clue_tokens == 0
    assert state.score == 0
    assert state.current_seat is None
    # One action earlier the game was still on; the last action left the next player stuck.
    earlier = replay(options, seed, state.actions, upto=state.turn - 1)
    assert not earlier.is_over


def test_until_perfect_a_player_with_no_card_but_a_token_must_clue():
    options = GameOptions(2, until_perfect=True)
    for seed in range(500):
        state = new_game(options, seed=seed)
        rng = SplitMix64(seed)
        while not state.is_over:
            seat = state.current_seat
            if not state.hand(seat) and state.clue_tokens > 0:
                legal = state.legal_actions()
                assert legal and all(isinstance(action, Clue) for action in legal)
                return
            state.apply(safe_random(state, rng))
    pytest.fail("never saw an empty hand with a clue token")
