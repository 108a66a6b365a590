"""Deterministic shuffles: the same seed gives the same deck and seating everywhere, forever.

Python's ``random`` may change between versions, so the engine does not use it. The algorithm,
written out so that anyone can reproduce a deck from its seed:

* Generator: SplitMix64 (Steele, Lea and Flood 2014; the reference is Vigna's ``splitmix64.c``).
  State is one unsigned 64-bit integer ``x``. Each step adds ``0x9E3779B97F4A7C15`` to ``x``
  (mod 2**64) and returns ``z`` after ``z = x; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EB; z = z ^ (z >> 31)`` (all mod 2**64).
* Streams: the deck and the seating use independent generators derived from the one game
  seed: the generator for stream ``k`` starts with state ``mix(seed mod 2**64 ^ k)``, where
  ``mix`` is one SplitMix64 output from that value and ``k`` is ``STREAM_DECK`` or
  ``STREAM_SEATS``. Changing the number of players therefore never changes the deck.
* Uniform integer below ``n``: draw ``r``; reject it while ``r >= 2**64 - (2**64 % n)``;
  return ``r % n`` (no modulo bias).
* Fisher-Yates (Durstenfeld): for ``i`` from ``len - 1`` down to 1, swap item ``i`` with item
  ``below(i + 1)``. The deck starts in ``cards.deck_composition`` order; the shuffled list is
  the deck, top first: card id 0 is the first card dealt.
"""

from __future__ import annotations

from .cards import Card, deck_composition
from .options import GameOptions

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
STREAM_DECK = 0x6465636B  # "deck"
STREAM_SEATS = 0x7365617473  # "seats"
STREAM_RANDOM_PLAY = 0x706C6179  # "play": the random-play command's choices


class SplitMix64:
    """The SplitMix64 generator (see the module docstring)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = z = (self.state + GOLDEN_GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        r = self.next()
        while r >= limit:
            r = self.next()
        return r % n


def stream(seed: int, stream_id: int) -> SplitMix64:
    """An independent generator for one purpose (stream_id) of one game seed."""
    _check_seed(seed)
    return SplitMix64(SplitMix64((seed & MASK64) ^ stream_id).next())


def fisher_yates(items: list, rng: SplitMix64) -> list:
    """Shuffle items in place (Durstenfeld's Fisher-Yates) and return the list."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def new_deck(options: GameOptions, seed: int) -> list[Card]:
    """The shuffled deck for these options and this seed, top first (card id = index)."""
    return fisher_yates(deck_composition(options.multicolour), stream(seed, STREAM_DECK))


def seating_order(seed: int, n: int) -> list[int]:
    """The permutation that seats users: seat s is taken by users[seating_order(seed, n)[s]].

    ``users`` is the list of the n people at the table in any fixed order (say, joining
    order). Derived from the game seed, but independent of the deck's shuffle.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative integer, not {n!r}")
    return fisher_yates(list(range(n)), stream(seed, STREAM_SEATS))


def _check_seed(seed: object) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed must be an integer, not {seed!r}")
