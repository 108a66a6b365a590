"""Random SOLITAIRE HANABI instances for the analysis tests: seeded helpers, hypothesis strategies.

Instances are built with ``Instance(cards, h, n, c)`` directly, so ``n`` and ``c`` are the ones
asked for even when some card is missing from the sequence.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from games.analysis.solitaire import Card, Instance

STANDARD_COUNTS = (3, 2, 2, 2, 1)  # copies of the values 1..5 in each colour of a real deck


def random_instance(
    rng: random.Random, n: int, c: int, r: int, h: int, length: int | None = None
) -> Instance:
    """A random instance with ``n`` values, ``c`` colours, hand size ``h`` and multiplicity <= r.

    With ``length=None`` every card appears between 1 and ``r`` times (uniformly), so no card is
    missing. With a ``length``, the sequence has exactly ``min(length, c * n * r)`` cards: first
    one copy of each card (in random order, so some are missing when ``length < c * n``), then
    random extra copies up to ``r`` of each, and the whole is shuffled.
    """
    identities = [(value, colour) for value in range(1, n + 1) for colour in range(1, c + 1)]
    if length is None:
        cards = [card for card in identities for _ in range(rng.randint(1, r))]
    else:
        length = min(length, len(identities) * r)
        order = identities[:]
        rng.shuffle(order)
        cards = order[:length]
        spare = [card for card in identities for _ in range(r - 1)]
        rng.shuffle(spare)
        cards += spare[: length - len(cards)]
    rng.shuffle(cards)
    return Instance(tuple(cards), h, n, c)


def random_permutation_instance(rng: random.Random, n: int, c: int, h: int) -> Instance:
    """An r = 1 instance: a random permutation of the ``c * n`` cards."""
    return random_instance(rng, n, c, 1, h)


def standard_deck(rng: random.Random, c: int = 5, h: int = 10) -> Instance:
    """A shuffled real Hanabi deck: ``c`` colours, values 1..5 with 3, 2, 2, 2, 1 copies."""
    cards: list[Card] = [
        (value, colour)
        for colour in range(1, c + 1)
        for value, count in enumerate(STANDARD_COUNTS, start=1)
        for _ in range(count)
    ]
    rng.shuffle(cards)
    return Instance(tuple(cards), h, 5, c)


@st.composite
def instances(
    draw: st.DrawFn,
    max_n: int = 4,
    max_c: int = 3,
    max_r: int = 3,
    max_h: int = 4,
    max_length: int | None = 14,
    min_copies: int = 0,
) -> Instance:
    """Instances with n <= max_n, c <= max_c, multiplicity <= max_r, h <= max_h.

    Each card gets between ``min_copies`` and ``max_r`` copies (0 copies make a missing card, so
    pass ``min_copies=1`` for complete decks); the sequence is then cut to ``max_length`` cards
    (None: no cut) and shuffled.
    """
    n = draw(st.integers(1, max_n))
    c = draw(st.integers(1, max_c))
    h = draw(st.integers(0, max_h))
    identities = [(value, colour) for value in range(1, n + 1) for colour in range(1, c + 1)]
    copies = draw(
        st.lists(
            st.integers(min_copies, max(min_copies, max_r)),
            min_size=len(identities),
            max_size=len(identities),
        )
    )
    cards = [card for card, count in zip(identities, copies, strict=True) for _ in range(count)]
    cards = draw(st.permutations(cards))
    if max_length is not None:
        cards = cards[:max_length]
    return Instance(tuple(cards), h, n, c)
