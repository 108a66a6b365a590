"""The rules as named predicates (games/engine/rules.py): each one on states where it allows or
forbids an action, and the engine's legal actions, its check/apply and the per-seat view's
"legal" entry all agreeing with them on random states."""

import pytest

from games.engine import (
    SUITS,
    Clue,
    Discard,
    End,
    GameOptions,
    IllegalAction,
    Play,
    clue_touch_mask,
    dealt_hands,
    fits_firework,
    five_returns_token,
    game_end,
    has_legal_action,
    holds_card,
    last_round_ends_at,
    may_clue,
    may_clue_player,
    may_clue_someone,
    may_discard,
    may_give_clue_touching,
    may_name_colour,
    new_game,
    replay,
    view_for,
)
from games.engine.cards import MULTICOLOUR, RANK_MASK, SUIT_MASK
from games.engine.randomplay import play_random_game
from games.engine.shuffle import SplitMix64

from .helpers import deck_with_top, empty_seat_zero, fives_last, safe_random

TWO = GameOptions(2)
# seat 0 holds cards 0-4 (R1 R2 Y1 G1 B1), seat 1 cards 5-9 (R3 Y3 R4 W1 W2): no green
TOP = "R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2"


def game(options: GameOptions = TWO, top: str = TOP):
    return new_game(options, deck=deck_with_top(options, top))


def refused(state, action, match: str) -> None:
    before = state.fingerprint()
    assert not state.is_legal(action)
    with pytest.raises(IllegalAction, match=match):
        state.apply(action)
    assert state.fingerprint() == before


# -- each predicate, with the action it allows or forbids -----------------------------------------


def test_may_discard_is_false_at_eight_tokens_and_the_discard_is_refused():
    state = game()
    assert state.clue_tokens == 8
    assert not may_discard(state.clue_tokens)
    refused(state, Discard(0), "all 8 clue tokens")
    state.apply(Clue(1, colour="red"))
    assert state.clue_tokens == 7
    assert may_discard(state.clue_tokens)
    state.apply(Discard(5))  # seat 1, at 7 tokens
    assert state.clue_tokens == 8
    assert not may_discard(state.clue_tokens)
    refused(state, Discard(0), "all 8 clue tokens")


def test_may_clue_is_false_without_a_token_and_the_clue_is_refused():
    state = game()
    assert may_clue(state.clue_tokens)
    for _ in range(8):
        target = 1 - state.current_seat
        state.apply(Clue(target, rank=1 if target == 0 else 3))
    assert state.clue_tokens == 0
    assert not may_clue(state.clue_tokens)
    refused(state, Clue(1, rank=3), "no clue token")
    assert may_clue(1)


def test_a_clue_touching_nothing_is_refused_unless_empty_clues_are_on():
    assert not may_give_clue_touching(0, TWO)
    assert may_give_clue_touching(1, TWO)
    refused(game(), Clue(1, colour="green"), "at least one card")
    refused(game(), Clue(1, rank=5), "at least one card")

    empty = GameOptions(2, empty_clues=True)
    assert may_give_clue_touching(0, empty)
    state = game(empty)
    assert state.apply(Clue(1, colour="green")).touched == ()
    assert state.clue_tokens == 7


def test_a_clue_names_another_player_at_the_table():
    assert may_clue_player(0, 1, 2)
    assert not may_clue_player(0, 0, 2)
    assert not may_clue_player(0, 2, 2)
    assert may_clue_player(5, 0, 6)
    refused(game(), Clue(0, colour="red"), "themselves")
    refused(game(), Clue(2, colour="red"), "no player 3")


@pytest.mark.parametrize("multicolour", [0, 1, 2, 3])
def test_which_colours_may_be_named(multicolour):
    options = GameOptions(3, multicolour=multicolour)
    for colour in SUITS[:MULTICOLOUR]:
        assert may_name_colour(options, colour)
    assert may_name_colour(options, "multicolour") == (multicolour in (1, 2))
    state = new_game(options, seed=1)
    if multicolour in (0, 3):
        reason = "no multicolour suit" if multicolour == 0 else "nobody can clue multicolour"
        refused(state, Clue(1, colour="multicolour"), reason)
        with pytest.raises(IllegalAction, match=reason):
            clue_touch_mask(options, colour="multicolour")


@pytest.mark.parametrize("multicolour", [0, 1, 2, 3])
def test_what_a_clue_touches(multicolour):
    options = GameOptions(3, multicolour=multicolour)
    for suit, colour in enumerate(SUITS):
        if may_name_colour(options, colour):
            wild = SUIT_MASK[MULTICOLOUR] if multicolour == 3 else 0
            assert clue_touch_mask(options, colour=colour) == SUIT_MASK[suit] | wild
    for rank in range(1, 6):
        assert clue_touch_mask(options, rank=rank) == RANK_MASK[rank]


@pytest.mark.parametrize("multicolour", [0, 1, 2, 3])
def test_the_engines_clues_touch_exactly_what_clue_touch_mask_says(multicolour):
    options = GameOptions(5, multicolour=multicolour, empty_clues=True)  # every clue is legal
    clues = [(colour, None) for colour in options.clue_colours]
    clues += [(None, rank) for rank in range(1, 6)]
    for seed in range(4):
        state = new_game(options, seed=seed)
        for target in range(1, 5):
            for colour, rank in clues:
                touch = clue_touch_mask(options, colour, rank)
                expected = tuple(
                    cid for cid in state.hand(target) if touch >> state.card(cid).identity & 1
                )
                assert state.clue_touches(target, colour, rank) == expected
                event = state.copy().apply(Clue(target, colour=colour, rank=rank))
                assert event.touched == expected


def test_a_play_or_a_discard_names_a_card_of_the_movers_hand():
    state = game()
    state.apply(Clue(1, colour="red"))
    state.apply(Clue(0, rank=1))
    hand = state.hand(0)
    assert holds_card(hand, 0)
    assert not holds_card(hand, 5)  # seat 1's
    assert not holds_card(hand, 10)  # still in the deck
    refused(state, Play(5), "not in your hand")
    refused(state, Discard(10), "not in your hand")
    state.apply(Play(2))  # yellow 1 fits
    assert state.fireworks[1] == 1


def test_a_played_card_is_placed_only_on_the_next_rank_of_its_firework():
    assert fits_firework(0, 1)
    assert fits_firework(4, 5)
    assert not fits_firework(0, 2)
    assert not fits_firework(1, 1)
    state = game()
    assert state.apply(Play(1)).placed is False  # red 2 on nothing: a misplay, still legal
    assert state.fuses_left == 2


def test_a_placed_five_returns_a_token_unless_all_eight_are_available():
    assert five_returns_token(5, 7)
    assert not five_returns_token(5, 8)
    assert not five_returns_token(4, 0)


def test_the_deal():
    for players in range(2, 7):
        options = GameOptions(players)
        hands = dealt_hands(options)
        assert [tuple(hand) for hand in hands] == list(new_game(options, seed=3).hands)
        assert hands[0][-1] == 0  # seat 0's first card is the oldest, in its last slot
        assert sorted(cid for hand in hands for cid in hand) == list(
            range(players * options.hand_size)
        )


def test_nobody_may_pass():
    options = GameOptions(2, until_perfect=True)
    assert has_legal_action(options, [[7], []], 0, 0)  # a card can always be played
    assert has_legal_action(options, [[], [3, 4]], 0, 1)  # a clue to the other player
    assert not has_legal_action(options, [[], [3, 4]], 0, 0)  # no token
    assert not has_legal_action(options, [[], []], 0, 5)  # nothing to touch
    assert not may_clue_someone(options, [[], []], 0, 5)
    empty = GameOptions(2, until_perfect=True, empty_clues=True)
    assert may_clue_someone(empty, [[], []], 0, 5)
    assert has_legal_action(empty, [[], []], 0, 5)


def test_the_last_round_gives_everyone_one_more_turn_except_until_perfect():
    assert last_round_ends_at(GameOptions(3), 40) == 44
    assert last_round_ends_at(GameOptions(3, until_perfect=True), 40) is None


def test_which_ending_comes_first():
    options = GameOptions(2)
    perfect = GameOptions(2, until_perfect=True)
    hands = [[1], [2]]

    def end(opts=options, **facts):
        base = {
            "fuses_left": 2,
            "score": 10,
            "reachable": 25,
            "last_round_over": False,
            "hands": hands,
            "mover": 0,
            "clue_tokens": 3,
        }
        return game_end(opts, **{**base, **facts})

    assert end() is None
    assert end(perfect) is None
    assert end(fuses_left=0, score=25) is End.STRIKEOUT
    assert end(score=25, last_round_over=True) is End.PERFECT
    assert end(last_round_over=True, reachable=10) is End.LAST_ROUND
    assert end(reachable=10) is End.NO_MORE_POINTS
    assert end(perfect, reachable=24, hands=[[], []]) is End.DEFEAT_LOST_CARD
    assert end(perfect, hands=[[], [2]], clue_tokens=0) is End.DEFEAT_NO_ACTION
    assert end(perfect, hands=[[], [2]], clue_tokens=1) is None


# -- legal_actions, check/apply and the view all follow the predicates ---------------------------

OPTIONS = [
    GameOptions(2),
    GameOptions(3, multicolour=1, empty_clues=True),
    GameOptions(4, multicolour=2, fuses=2),
    GameOptions(5, multicolour=3),
    GameOptions(6, multicolour=3, empty_clues=True),
    GameOptions(2, until_perfect=True, empty_clues=True),
    GameOptions(3, multicolour=1, until_perfect=True),
]
ALL_CLUES = [(colour, None) for colour in SUITS] + [(None, rank) for rank in range(1, 6)]


def _expected_legal(state) -> set:
    """The legal actions, worked out from the predicates alone."""
    options = state.options
    seat = state.current_seat
    hand = state.hand(seat)
    tokens = state.clue_tokens
    everyone = [cid for held in state.hands for cid in held]
    legal = {Play(cid) for cid in everyone if holds_card(hand, cid)}
    if may_discard(tokens):
        legal |= {Discard(cid) for cid in everyone if holds_card(hand, cid)}
    if may_clue(tokens):
        for target in range(state.players):
            if not may_clue_player(seat, target, state.players):
                continue
            for colour, rank in ALL_CLUES:
                if colour is not None and not may_name_colour(options, colour):
                    continue
                touch = clue_touch_mask(options, colour, rank)
                touched = [c for c in state.hand(target) if touch >> state.card(c).identity & 1]
                if may_give_clue_touching(len(touched), options):
                    legal.add(Clue(target, colour=colour, rank=rank))
    return legal


def _candidates(state) -> list:
    """Every action worth asking about: each card in any hand or next in the deck, played or
    discarded; every clue to every seat, the mover and a missing one included."""
    cards = [cid for held in state.hands for cid in held]
    if state.deck_size:
        cards.append(state.cards_drawn)
    actions = [Play(cid) for cid in cards] + [Discard(cid) for cid in cards]
    for target in range(state.players + 1):
        actions += [Clue(target, colour=colour, rank=rank) for colour, rank in ALL_CLUES]
    return actions


def _view_legal(view: dict) -> set:
    legal = view["legal"]
    actions = {Play(cid) for cid in legal["play"]} | {Discard(cid) for cid in legal["discard"]}
    for option in legal["clues"]:
        actions.add(Clue(option["target"], colour=option.get("colour"), rank=option.get("rank")))
    return actions


def _random_states():
    """States along uniformly random games (randomplay.py), which mostly strike out early;
    along long games that rarely misplay, which reach the last cards; and, until perfect,
    along games where seat 0 comes to hold nothing."""
    for index, options in enumerate(OPTIONS):
        for game_number in range(4):
            seed = 100 * index + game_number
            finished = play_random_game(options, seed, SplitMix64(seed))
            for upto in range(finished.turn):
                yield replay(options, seed, finished.actions, upto=upto)
        rng = SplitMix64(index)
        state = new_game(options, seed=index)
        while not state.is_over:
            yield state.copy()
            state.apply(safe_random(state, rng))
    for options in (GameOptions(3, until_perfect=True), OPTIONS[5]):
        state = new_game(options, deck=fives_last(options, 1))
        while not state.is_over:
            yield state.copy()
            state.apply(empty_seat_zero(state))


def test_legal_actions_check_and_the_view_follow_the_predicates_on_random_states():
    seen = {"no token": 0, "8 tokens": 0, "empty clue": 0, "empty hand": 0}
    states = 0
    for state in _random_states():
        states += 1
        expected = _expected_legal(state)
        listed = state.legal_actions()
        assert len(listed) == len(set(listed)), state
        assert set(listed) == expected, state
        for action in _candidates(state):
            assert state.is_legal(action) == (action in expected), (state, action)
        seat = state.current_seat
        view = view_for(state, seat)
        assert _view_legal(view) == expected, state
        for option in view["legal"]["clues"]:
            clue = Clue(option["target"], colour=option.get("colour"), rank=option.get("rank"))
            assert tuple(option["touches"]) == state.clue_touches(
                clue.target, clue.colour, clue.rank
            )
        seen["no token"] += state.clue_tokens == 0
        seen["8 tokens"] += state.clue_tokens == 8
        seen["empty clue"] += any(not option["touches"] for option in view["legal"]["clues"])
        seen["empty hand"] += not state.hand(seat)
    assert states > 800
    assert all(seen.values()), seen
