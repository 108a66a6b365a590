"""What each person may see of a game (their perspective on it), as JSON-able dicts.

* ``view_for(state, seat)``: a player's view. Other hands with their cards' identities; the
  player's own cards as ids with clue knowledge only. **No identity of an own card and nothing
  of the deck beyond its size appears anywhere in it**, not even after the end (use
  ``finished_view`` then). Other players' cards carry only public knowledge (their clues and
  the identities those clues allow), never what their holder could deduce by counting, since
  that depends on cards the viewer cannot see.
* ``spectator_view(state)``: every hand, each card with its holder's knowledge. The deck
  order only with ``include_deck=True``.
* ``finished_view(state)``: everything, including the deck order; only once the game is over.

A visible card is ``{"id", "suit", "rank", "code"}``; a hidden own card has no suit, rank or
code key at all, so leaks are easy to test for.

Cost: a view is built in proportion to the hands, plus one shallow dict per history entry and
discarded card. The state keeps each card's clue turns as clues are given, and each history
entry's names-free parts are worked out once per event and kept in the state's
``_view_cache`` (a tuple, shared by copies until they diverge); every call returns fresh
dicts and lists all the way down, so a caller may change its view freely.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from .cards import (
    IDENTITIES,
    MAX_RANK,
    SUIT_LETTERS,
    SUITS,
    Card,
    copies_per_identity,
    identity_code,
)
from .history import end_text, player_name, rearrangement_text, sentence_parts
from .knowledge import identities_of, possible_counted, visible_counts
from .options import MAX_CLUE_TOKENS
from .rules import may_clue, may_discard
from .state import Event, GameState, Rearrangement, rating_word

# Each identity's (suit name, rank, code), worked out once.
_FACES = tuple(
    (SUITS[ident // MAX_RANK], ident % MAX_RANK + 1, identity_code(ident))
    for ident in range(IDENTITIES)
)


def card_dict(state: GameState, card_id: int) -> dict:
    suit, rank, code = _FACES[state._ident[card_id]]
    return {"id": card_id, "suit": suit, "rank": rank, "code": code}


_CODES = tuple(identity_code(ident) for ident in range(IDENTITIES))


@functools.lru_cache(maxsize=4096)
def _possible_codes(mask: int) -> tuple[str, ...]:
    return tuple([identity_code(ident) for ident in identities_of(mask)])


def _knowledge(state: GameState, card_id: int) -> dict:
    events = state.events
    clues = []
    clued = False
    for turn in state.clue_turns(card_id):
        event = events[turn]
        touched = card_id in event.touched
        clued = clued or touched
        colour = event.colour
        clues.append(
            {
                "turn": turn,
                "giver": event.seat,
                "colour": None if colour is None else SUITS[colour],
                "rank": event.rank,
                "touched": touched,
            }
        )
    return {
        "clues": clues,
        "clued": clued,
        "possible": list(_possible_codes(state.clue_mask(card_id))),
    }


def _counted(state: GameState, seat: int, card_id: int, visible: list[int]) -> dict[str, int]:
    counted = possible_counted(state, seat, card_id, visible)
    return {_CODES[ident]: count for ident, count in counted.items()}


def _public_possible(state: GameState, card_id: int, public: list[int]) -> list[str]:
    """What the card's holder knows of it from public information alone (empathy): the
    identities its clues allow that still have a copy outside the fireworks and the discard
    pile. Never from the cards the holder sees: those include the viewer's own hand."""
    total = copies_per_identity(state.options.multicolour)
    return [
        _CODES[ident]
        for ident in identities_of(state.clue_mask(card_id))
        if total[ident] > public[ident]
    ]


def is_critical(state: GameState, ident: int) -> bool:
    """The last copy of an identity its firework still needs and can still reach: losing
    it lowers the best score still possible."""
    suit, below = divmod(ident, MAX_RANK)  # `below`: the ranks under this card's
    height = state.fireworks[suit]
    if height > below or state.copies_left(ident) != 1:
        return False
    base = suit * MAX_RANK
    return all(state.copies_left(base + lower) for lower in range(height, below))


# The names-free parts of one history entry: the entry without its "text" (which holds
# None), the clued seat or None, the rest of the sentence (history.sentence_parts).
_EntryParts = tuple[dict, "int | None", str]


def _entry_parts(event: Event, state: GameState) -> _EntryParts:
    return _parts_of(event, -1 if event.card_id is None else state._ident[event.card_id])


# Shared by every state whose history holds an equal event (same fields; same identity of the
# card played or discarded, which is all the entry reads of the deck): a state rebuilt from
# its moves on every request finds its entries here. Never mutated (see _entry).
@functools.lru_cache(maxsize=4096)
def _parts_of(event: Event, ident: int) -> _EntryParts:
    entry: dict = {
        "turn": event.turn,
        "seat": event.seat,
        "type": event.kind,
        "text": None,
        "clue_tokens": event.clue_tokens,
        "fuses_left": event.fuses_left,
    }
    if event.kind == "clue":
        entry["target"] = event.target
        entry["colour"] = None if event.colour is None else SUITS[event.colour]
        entry["rank"] = event.rank
        entry["touched"] = event.touched  # a tuple: each entry gets its own list
    else:
        suit, rank, code = _FACES[ident]
        # each entry gets its own copy of this dict
        entry["card"] = {"id": event.card_id, "suit": suit, "rank": rank, "code": code}
        entry["drawn"] = event.drawn
        if event.kind == "play":
            entry["placed"] = event.placed
            entry["bonus"] = event.bonus
    card = None if ident < 0 else Card(ident // MAX_RANK, ident % MAX_RANK + 1)
    target, rest = sentence_parts(event, card)
    return entry, target, rest


def _entry(parts: _EntryParts, shown: list[str]) -> dict:
    """A fresh history entry (no dict or list shared with any other) from its parts, with
    ``shown`` the name of each seat."""
    base, target, rest = parts
    entry = base.copy()
    if target is None:
        entry["text"] = shown[base["seat"]] + rest
        entry["card"] = base["card"].copy()
    else:
        entry["text"] = f"{shown[base['seat']]} clues {shown[target]}{rest}"
        entry["touched"] = list(base["touched"])
    return entry


def _history_parts(state: GameState) -> tuple[_EntryParts, ...]:
    """Every event's entry parts: those made for an earlier call, and the new events'."""
    cache = state._view_cache
    events = state.events
    if len(cache) != len(events):
        # Events are only ever appended, and a copy shares its original's tuple (made from
        # the events they share), so the cache is always a prefix of the history.
        cache = cache + tuple([_entry_parts(event, state) for event in events[len(cache) :]])
        state._view_cache = cache
    return cache


def _history(state: GameState, names: Sequence[str] | None) -> list[dict]:
    shown = [player_name(names, seat) for seat in range(state.players)]
    entries = [_entry(parts, shown) for parts in _history_parts(state)]
    if state.rearrangements:
        entries = _with_rearrangements(state, entries, names)
    return entries


def _with_rearrangements(
    state: GameState, entries: list[dict], names: Sequence[str] | None
) -> list[dict]:
    """The history with the free rearrangements (an option) where they were made: before
    the entry of the turn they were made in. An entry says which slots, never which card
    (its holder does not know it): "type" "rearrange", "from_slot", "to_slot", and the
    tokens as they were (a rearrangement changes none)."""
    merged: list[dict] = []
    moves = state.rearrangements
    index = 0
    # The tokens as the moves before left them (a rearrangement changes none).
    tokens = (MAX_CLUE_TOKENS, state.options.fuses)
    for entry in [*entries, None]:
        while index < len(moves) and (entry is None or moves[index].turn <= entry["turn"]):
            merged.append(_rearrangement_entry(moves[index], names, tokens))
            index += 1
        if entry is not None:
            merged.append(entry)
            tokens = (entry["clue_tokens"], entry["fuses_left"])
    return merged


def _rearrangement_entry(
    moved: Rearrangement, names: Sequence[str] | None, tokens: tuple[int, int]
) -> dict:
    return {
        "turn": moved.turn,
        "seat": moved.seat,
        "type": "rearrange",
        "text": rearrangement_text(moved, names),
        "from_slot": moved.from_slot,
        "to_slot": moved.to_slot,
        "clue_tokens": tokens[0],
        "fuses_left": tokens[1],
    }


def event_dict(event: Event, state: GameState, names: Sequence[str] | None = None) -> dict:
    """One history entry, structured, with its sentence under "text"."""
    shown = [player_name(names, seat) for seat in range(state.players)]
    return _entry(_entry_parts(event, state), shown)


def _common(state: GameState, names: Sequence[str] | None) -> dict:
    options = state.options
    over = state.is_over
    return {
        "options": options.to_dict(),
        "options_text": options.describe(),
        "players": state.players,
        "names": [player_name(names, seat) for seat in range(state.players)],
        "turn": state.turn,
        "current_seat": state.current_seat,
        "clue_tokens": state.clue_tokens,
        "max_clue_tokens": MAX_CLUE_TOKENS,
        "fuses_left": state.fuses_left,
        "fuses": options.fuses,
        "deck_size": state.deck_size,
        "turns_left": state.turns_left,
        "score": state.score,
        "max_score": state.max_score,
        "max_reachable_score": state.max_reachable_score,
        "clue_colours": options.clue_colours,
        "fireworks": [
            {"suit": SUITS[suit], "letter": SUIT_LETTERS[suit], "height": height}
            for suit, height in enumerate(state.fireworks)
        ],
        "discards": [card_dict(state, cid) for cid in state.discards],
        "history": _history(state, names),
        "is_over": over,
        "end": None if state.end is None else str(state.end),
        "end_text": end_text(state, names),
        "rating": rating_word(state.score, options) if over else None,
    }


def view_for(state: GameState, seat: int, names: Sequence[str] | None = None) -> dict:
    """What the player at ``seat`` may know (see the module docstring)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat!r} in this game")
    visible = visible_counts(state, seat)
    public = visible_counts(state, None)
    hands = []
    for holder, hand in enumerate(state.hands):
        cards = []
        for slot, cid in enumerate(hand, start=1):
            entry = {"id": cid, "slot": slot}
            if holder == seat:
                entry.update(_knowledge(state, cid))
                entry["possible_counted"] = _counted(state, seat, cid, visible)
            else:
                entry.update(card_dict(state, cid))
                entry.update(_knowledge(state, cid))
                entry["possible_public"] = _public_possible(state, cid, public)
                entry["critical"] = is_critical(state, state._ident[cid])
            cards.append(entry)
        hands.append(
            {
                "seat": holder,
                "name": player_name(names, holder),
                "is_viewer": holder == seat,
                "cards": cards,
            }
        )
    view = {"kind": "seat", "viewer": seat, **_common(state, names), "hands": hands}
    view["your_turn"] = state.current_seat == seat
    view["legal"] = _legal_for(state, seat) if view["your_turn"] else None
    return view


def _legal_for(state: GameState, seat: int) -> dict:
    """The actions open to ``seat``, by the same predicates (rules.py) as legal_actions."""
    hand = list(state.hand(seat))
    clues = []
    if may_clue(state.clue_tokens):
        for clue, touched in state.possible_clues(seat):
            option = {"target": clue.target, "touches": list(touched)}
            if clue.colour is not None:
                option["colour"] = clue.colour
            else:
                option["rank"] = clue.rank
            clues.append(option)
    return {
        "play": hand,
        "discard": hand if may_discard(state.clue_tokens) else [],
        "clues": clues,
    }


def spectator_view(
    state: GameState, names: Sequence[str] | None = None, include_deck: bool = False
) -> dict:
    """Every hand, each card with what its holder knows (including by counting)."""
    hands = []
    for holder, hand in enumerate(state.hands):
        visible = visible_counts(state, holder)
        cards = []
        for slot, cid in enumerate(hand, start=1):
            entry = {"slot": slot, **card_dict(state, cid), **_knowledge(state, cid)}
            entry["possible_counted"] = _counted(state, holder, cid, visible)
            cards.append(entry)
        hands.append({"seat": holder, "name": player_name(names, holder), "cards": cards})
    view = {"kind": "spectator", **_common(state, names), "hands": hands}
    if include_deck:
        view["deck"] = [card_dict(state, cid) for cid in range(len(state.deck))]
        view["next_card"] = state.cards_drawn
    return view


def finished_view(state: GameState, names: Sequence[str] | None = None) -> dict:
    """Everything, deck order included. Raises ValueError while the game goes on."""
    if not state.is_over:
        raise ValueError("the game is not over: use view_for or spectator_view")
    view = spectator_view(state, names, include_deck=True)
    view["kind"] = "finished"
    return view
