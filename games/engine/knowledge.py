"""What a player can know about a card in their own hand.

Two layers (RULES.md, "What each player knows"):

* **Clues**: every clue that touched the card, and every clue given to its holder that missed
  it while it was in the hand. They narrow the card to its *possible identities*. With wild
  multicolour, a colour clue that touches means "this colour or multicolour" and one that
  misses means "neither this colour nor multicolour".
* **Counting**: of those identities, the ones with a copy the player cannot see. A player sees
  the discard pile, the fireworks and every other hand, never their own hand or the deck.

Everything here reads only what the holder may know, so it is safe to put in their view.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from .cards import IDENTITIES, copies_per_identity
from .state import GameState


class ClueNote(NamedTuple):
    """One clue as it concerns one card."""

    turn: int  # the clue's action index
    giver: int  # seat
    colour: int | None  # suit index of the colour named, or None
    rank: int | None  # rank named, or None
    touched: bool  # True if the clue touched this card, False if it missed it


def identities_of(mask: int) -> list[int]:
    """The identity indexes in a bitmask, ascending."""
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length() - 1)
        mask ^= low
    return result


@functools.lru_cache(maxsize=4096)
def _identities(mask: int) -> tuple[int, ...]:
    return tuple(identities_of(mask))


def card_clue_notes(state: GameState, card_id: int) -> list[ClueNote]:
    """The clues that touched or missed one card while it was in its holder's hand, in order
    (the state keeps their turns as they are given: no walk over the history)."""
    events = state.events
    notes = []
    for turn in state.clue_turns(card_id):
        event = events[turn]
        notes.append(ClueNote(turn, event.seat, event.colour, event.rank, card_id in event.touched))
    return notes


def clue_notes(state: GameState) -> dict[int, list[ClueNote]]:
    """For every card that was in a clued hand: the clues that touched or missed it, in order.

    The cards come in the order the history first clued them (by turn, then by slot).
    """
    events = state.events
    first = []
    for cid in range(state.cards_drawn):
        turns = state.clue_turns(cid)
        if turns:
            first.append((turns[0], events[turns[0]].hand.index(cid), cid))
    first.sort()
    return {cid: card_clue_notes(state, cid) for _, _, cid in first}


def possible_identities(state: GameState, card_id: int) -> list[int]:
    """Identities the card can be, given only the clues (touched and missed) it received."""
    return identities_of(state.clue_mask(card_id))


def visible_counts(state: GameState, viewer: int | None) -> list[int]:
    """How many copies of each identity ``viewer`` can see: discards, fireworks and the other
    hands. ``viewer=None`` counts only the public cards (discards and fireworks)."""
    # The public cards are the copies no longer left (in the deck or a hand): the state keeps
    # that count, so this costs in proportion to the hands, not to the discards.
    total = copies_per_identity(state.options.multicolour)
    counts = [total[ident] - state.copies_left(ident) for ident in range(IDENTITIES)]
    if viewer is not None:
        ident = state._ident
        for seat, hand in enumerate(state._hands):
            if seat != viewer:
                for cid in hand:
                    counts[ident[cid]] += 1
    return counts


def possible_counted(
    state: GameState, viewer: int, card_id: int, visible: list[int] | None = None
) -> dict[int, int]:
    """Identities the card can be given its clues *and* the cards ``viewer`` sees, each with
    the number of its copies that ``viewer`` cannot see (a weight for probabilities).

    ``visible`` may be passed in (from visible_counts) when asking about many cards.
    """
    if visible is None:
        visible = visible_counts(state, viewer)
    total = copies_per_identity(state.options.multicolour)
    result = {}
    for ident in _identities(state.clue_mask(card_id)):
        unseen = total[ident] - visible[ident]
        if unseen > 0:
            result[ident] = unseen
    return result
