"""Helpers for engine tests: decks in a chosen order and simple policies that see everything."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from games.engine import (
    Card,
    Clue,
    Discard,
    GameOptions,
    GameState,
    Play,
    deck_composition,
    new_deck,
)


def cards(codes: str) -> list[Card]:
    """cards('R1 R2 Y1') -> [Card(0, 1), Card(0, 2), Card(1, 1)]"""
    return [Card.parse(code) for code in codes.split()]


def deck_with_top(options: GameOptions, top: str, rest_order: str = "canonical") -> list[Card]:
    """A full, valid deck whose first cards are ``top`` (codes), the rest in canonical order
    (or reversed with rest_order='reversed')."""
    chosen = cards(top)
    remaining = Counter(deck_composition(options.multicolour))
    for card in chosen:
        if remaining[card] <= 0:
            raise AssertionError(f"too many {card.name} in {top!r}")
        remaining[card] -= 1
    rest = [card for card in deck_composition(options.multicolour) if _take(remaining, card)]
    if rest_order == "reversed":
        rest.reverse()
    return chosen + rest


def play_order_deck(options: GameOptions) -> list[Card]:
    """Every suit's 1-5 first (suit by suit), then the spare copies: easy to play perfectly."""
    unique = [Card(suit, rank) for suit in range(options.num_suits) for rank in range(1, 6)]
    remaining = Counter(deck_composition(options.multicolour))
    for card in unique:
        remaining[card] -= 1
    spares = [card for card in deck_composition(options.multicolour) if _take(remaining, card)]
    return unique + spares


def _take(remaining: Counter, card: Card) -> bool:
    if remaining[card] > 0:
        remaining[card] -= 1
        return True
    return False


def is_playable(state: GameState, card_id: int) -> bool:
    card = state.card(card_id)
    return state.fireworks[card.suit] == card.rank - 1


def is_useless(state: GameState, card_id: int) -> bool:
    """Already played (a duplicate) or blocked below."""
    card = state.card(card_id)
    return state.fireworks[card.suit] >= card.rank


def any_clue(state: GameState) -> Clue:
    """A legal clue for the player to move (the first one listed)."""
    clues = [action for action in state.legal_actions() if isinstance(action, Clue)]
    assert clues, "no legal clue"
    return clues[0]


def cheating_greedy(state: GameState):
    """Play a playable card if any; else discard a useless card; else clue; else discard."""
    seat = state.current_seat
    hand = state.hand(seat)
    playable = [cid for cid in hand if is_playable(state, cid)]
    if playable:
        return Play(min(playable, key=lambda cid: state.card(cid).rank))
    if state.clue_tokens < 8:
        useless = [cid for cid in hand if is_useless(state, cid)]
        if useless:
            return Discard(useless[0])
    if state.clue_tokens > 0:
        clues = [a for a in state.legal_actions() if isinstance(a, Clue)]
        if clues:
            return clues[0]
    if state.clue_tokens < 8:
        return Discard(hand[-1])
    return Play(hand[-1])


def run(state: GameState, policy: Callable[[GameState], object], limit: int = 500) -> GameState:
    """Apply ``policy`` until the game ends (or ``limit`` actions)."""
    for _ in range(limit):
        if state.is_over:
            break
        state.apply(policy(state))
    return state


def is_critical(state: GameState, card_id: int) -> bool:
    """Still needed, and the last copy left."""
    card = state.card(card_id)
    return state.fireworks[card.suit] < card.rank and state.copies_left(card.identity) == 1


def safe_random(state: GameState, rng) -> object:
    """A random legal action that neither misplays nor discards a critical card, if any."""
    legal = state.legal_actions()
    safe = [
        action
        for action in legal
        if not (isinstance(action, Play) and not is_playable(state, action.card_id))
        and not (isinstance(action, Discard) and is_critical(state, action.card_id))
    ]
    choices = safe or legal
    return choices[rng.below(len(choices))]


def fives_last(options: GameOptions, seed: int) -> list[Card]:
    """The seed's deck with every 5 moved to the bottom: no firework is complete before the
    last cards are drawn."""
    deck = new_deck(options, seed)
    return [card for card in deck if card.rank != 5] + [card for card in deck if card.rank == 5]


def empty_seat_zero(state: GameState):
    """Cheating greedy while cards are left to draw; then seat 0 plays or throws away every
    card it can while the others stall with clues (keeping a token for seat 0), so that seat 0
    comes to hold nothing while the game goes on (with play until perfect)."""
    seat = state.current_seat
    if state.deck_size:
        return cheating_greedy(state)
    hand = state.hand(seat)
    if seat == 0:
        for cid in hand:
            if is_playable(state, cid):
                return Play(cid)
        if state.clue_tokens < 8:
            for cid in hand:
                if not is_critical(state, cid):
                    return Discard(cid)
    elif state.clue_tokens > 1:
        clues = [action for action in state.legal_actions() if isinstance(action, Clue)]
        if clues:
            return clues[0]
    return cheating_greedy(state)
