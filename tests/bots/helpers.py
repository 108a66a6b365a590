"""Helpers for the bot tests: positions reached by self-play, and hidden cards swapped."""

from __future__ import annotations

import random

from games.bots import choose_action
from games.engine import GameOptions, GameState, new_game, replay, view_for

# Options covering every rule option: player counts, multicolour variants, until perfect,
# fuses and empty clues, in a fixed mix.
ALL_OPTIONS = [
    GameOptions(
        players=players,
        multicolour=multicolour,
        until_perfect=(players + multicolour) % 3 == 0,
        fuses=1 + (players + 2 * multicolour) % 3,
        empty_clues=(players * multicolour) % 2 == 1,
    )
    for players in range(2, 7)
    for multicolour in range(4)
]


def play_until(options: GameOptions, seed: int, turns: int) -> GameState:
    """A game the bots play from ``seed`` for ``turns`` actions (or to its end)."""
    state = new_game(options, seed=seed)
    while not state.is_over and state.turn < turns:
        state.apply(choose_action(view_for(state, state.current_seat)))
    return state


def swap_hidden_cards(state: GameState, seat: int, rng: random.Random) -> list | None:
    """A deck in which each of ``seat``'s cards is exchanged with an undealt card of another
    identity that every clue so far treated alike (so the same actions replay): the seat
    cannot tell the two decks apart. None if no card of the hand can be swapped."""
    deck = list(state.deck)
    undealt = list(range(state.cards_drawn, len(deck)))
    rng.shuffle(undealt)
    swapped = False
    for cid in state.hand(seat):
        mask = state.clue_mask(cid)
        for other in undealt:
            ident = deck[other].identity
            if ident != deck[cid].identity and mask >> ident & 1:
                deck[cid], deck[other] = deck[other], deck[cid]
                undealt.remove(other)
                swapped = True
                break
    return deck if swapped else None


def replay_with(state: GameState, deck: list) -> GameState:
    return replay(state.options, deck, state.actions)


def swapped_twin(state: GameState, rng: random.Random) -> GameState | None:
    """The same game, the mover's own cards swapped as in ``swap_hidden_cards`` (and checked
    to be other cards now); None if no card of the hand can be swapped."""
    seat = state.current_seat
    deck = swap_hidden_cards(state, seat, rng)
    if deck is None:
        return None
    twin = replay_with(state, deck)
    assert [twin.card(c) for c in twin.hand(seat)] != [state.card(c) for c in state.hand(seat)]
    return twin
