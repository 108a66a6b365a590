"""Cards, options, the deterministic shuffle, seating and the deal (RULES.md: Cards, Set-up)."""

from collections import Counter

import pytest

from games.engine import (
    Card,
    GameOptions,
    InvalidDeck,
    InvalidOptions,
    SplitMix64,
    deck_composition,
    new_deck,
    new_game,
    seating_order,
)

from .helpers import cards

# -- cards ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("multicolour", "size", "multicolour_cards"),
    [(0, 50, 0), (1, 60, 10), (2, 55, 5), (3, 60, 10)],
)
def test_deck_sizes(multicolour, size, multicolour_cards):
    deck = deck_composition(multicolour)
    assert len(deck) == size == GameOptions(2, multicolour=multicolour).deck_size
    assert sum(1 for card in deck if card.suit == 5) == multicolour_cards


def test_each_ordinary_suit_has_three_ones_two_twos_threes_fours_one_five():
    counts = Counter(deck_composition(0))
    for suit in range(5):
        assert [counts[Card(suit, rank)] for rank in range(1, 6)] == [3, 2, 2, 2, 1]


def test_variant_two_has_one_multicolour_card_of_each_rank():
    counts = Counter(deck_composition(2))
    assert [counts[Card(5, rank)] for rank in range(1, 6)] == [1, 1, 1, 1, 1]


def test_variants_one_and_three_have_a_full_multicolour_suit():
    for multicolour in (1, 3):
        counts = Counter(deck_composition(multicolour))
        assert [counts[Card(5, rank)] for rank in range(1, 6)] == [3, 2, 2, 2, 1]


def test_card_names_and_parsing():
    card = Card(3, 4)
    assert (card.name, card.code, card.suit_name) == ("blue 4", "B4", "blue")
    assert Card.parse("B4") == Card.parse("blue 4") == card
    assert Card.parse("M5") == Card(5, 5)
    with pytest.raises(ValueError):
        Card.parse("X9")


# -- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "hand_size"), [(2, 5), (3, 5), (4, 4), (5, 4), (6, 3)])
def test_hand_sizes(players, hand_size):
    options = GameOptions(players)
    assert options.hand_size == hand_size
    state = new_game(options, seed=1)
    assert all(len(hand) == hand_size for hand in state.hands)
    assert state.deck_size == 50 - players * hand_size


def test_defaults():
    options = GameOptions(3)
    assert options.to_dict() == {
        "players": 3,
        "multicolour": 0,
        "until_perfect": False,
        "fuses": 3,
        "empty_clues": False,
    }
    assert options.max_score == 25
    assert options.suits == ["red", "yellow", "green", "blue", "white"]
    assert options.clue_colours == options.suits


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "players"),
        ({"players": 7}, "players"),
        ({"players": "3"}, "players"),
        ({"players": True}, "players"),
        ({"players": 3, "multicolour": 4}, "multicolour"),
        ({"players": 3, "fuses": 0}, "fuses"),
        ({"players": 3, "fuses": 4}, "fuses"),
        ({"players": 3, "until_perfect": 1}, "until_perfect"),
        ({"players": 3, "empty_clues": "yes"}, "empty_clues"),
    ],
)
def test_invalid_options_say_what_is_wrong(kwargs, message):
    with pytest.raises(InvalidOptions, match=message):
        GameOptions(**kwargs)


def test_options_round_trip_and_reject_unknown_keys():
    options = GameOptions(5, multicolour=3, until_perfect=True, fuses=1, empty_clues=True)
    assert GameOptions.from_dict(options.to_dict()) == options
    assert GameOptions.from_dict({"players": 4}) == GameOptions(4)
    with pytest.raises(InvalidOptions, match="unknown option"):
        GameOptions.from_dict({"players": 4, "speed": 2})
    with pytest.raises(InvalidOptions, match="players is missing"):
        GameOptions.from_dict({})
    with pytest.raises(InvalidOptions):
        GameOptions.from_dict([4])


def test_sixth_suit_options():
    for multicolour in (1, 2, 3):
        options = GameOptions(2, multicolour=multicolour)
        assert options.max_score == 30
        assert options.suits[-1] == "multicolour"
    assert "multicolour" in GameOptions(2, multicolour=1).clue_colours
    assert "multicolour" in GameOptions(2, multicolour=2).clue_colours
    assert "multicolour" not in GameOptions(2, multicolour=3).clue_colours


def test_options_describe():
    text = GameOptions(3, multicolour=3, until_perfect=True, fuses=2, empty_clues=True).describe()
    assert text == "3 players, wild multicolour, until perfect, 2 fuses, empty clues"


# -- the shuffle ------------------------------------------------------------------------------


def test_splitmix64_matches_the_reference_implementation():
    # The first outputs of Vigna's splitmix64.c seeded with 1234567.
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


def test_below_stays_in_range_and_reaches_every_value():
    rng = SplitMix64(5)
    seen = Counter(rng.below(6) for _ in range(6000))
    assert set(seen) == set(range(6))
    assert all(800 < n < 1200 for n in seen.values())


def test_the_same_seed_gives_the_same_deck_forever():
    # Pinned: if this changes, every stored game's deck changes. Never change it.
    deck = new_deck(GameOptions(3), 42)
    assert " ".join(card.code for card in deck) == (
        "W3 W2 Y2 Y1 R3 B3 Y1 W2 W1 B4 W3 G4 R4 R1 Y4 R1 B2 R5 Y2 W1 R4 G1 W5 G1 R2 "
        "Y5 G5 R2 R1 G1 R3 G4 W4 B1 G3 G2 B5 W4 B1 Y1 Y3 B2 B4 B1 B3 G3 G2 W1 Y4 Y3"
    )
    assert seating_order(42, 5) == [3, 0, 4, 2, 1]
    assert seating_order(7, 6) == [2, 1, 0, 5, 4, 3]


def test_large_and_negative_seeds_work():
    options = GameOptions(2, multicolour=2)
    assert new_deck(options, 2**70 + 5) == new_deck(options, 2**70 + 5)
    assert sorted(new_deck(options, -1)) == sorted(deck_composition(2))
    with pytest.raises(TypeError):
        new_deck(options, "12")


def test_different_seeds_give_different_decks():
    options = GameOptions(2)
    decks = {tuple(new_deck(options, seed)) for seed in range(50)}
    assert len(decks) == 50


def test_the_deck_does_not_depend_on_the_number_of_players():
    assert new_deck(GameOptions(2), 99) == new_deck(GameOptions(6), 99)


def test_seating_is_a_permutation_independent_of_the_deck():
    for n in range(2, 7):
        order = seating_order(123, n)
        assert sorted(order) == list(range(n))
    orders = {tuple(seating_order(seed, 5)) for seed in range(200)}
    assert len(orders) > 60  # of the 120 permutations, most appear
    # The seating comes from its own stream: shuffling the seats of a game does not
    # consume the deck's randomness, so the same seed deals the same deck.
    assert new_deck(GameOptions(6), 123) == new_deck(GameOptions(2), 123)


# -- the deal -----------------------------------------------------------------------------------


def test_seat_zero_takes_a_full_hand_first_newest_card_in_slot_one():
    state = new_game(GameOptions(3), seed=1)
    assert state.hands == ((4, 3, 2, 1, 0), (9, 8, 7, 6, 5), (14, 13, 12, 11, 10))
    assert state.current_seat == 0
    assert state.clue_tokens == 8
    assert state.fuses_left == 3
    assert state.turn == 0
    assert state.deck_size == 35
    assert state.score == 0 and state.max_reachable_score == 25


def test_fuses_option_sets_the_fuses():
    assert new_game(GameOptions(2, fuses=1), seed=1).fuses_left == 1


def test_an_explicit_deck_must_match_the_variant():
    options = GameOptions(2)
    with pytest.raises(InvalidDeck, match="49 cards"):
        new_game(options, deck=deck_composition(0)[:-1])
    wrong = deck_composition(0)
    wrong[0] = Card(0, 5)  # two red 5s
    with pytest.raises(InvalidDeck, match="red"):
        new_game(options, deck=wrong)
    with pytest.raises(InvalidDeck, match="not a card of this game"):
        new_game(options, deck=cards("M1") + deck_composition(0)[1:])
    with pytest.raises(ValueError, match="exactly one"):
        new_game(options)
    # tuples work as cards
    state = new_game(options, deck=[tuple(card) for card in deck_composition(0)])
    assert state.card(0) == Card(0, 1)
