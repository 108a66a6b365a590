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
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUIT_LETTERS, SUITS, identity_code
from .history import describe, end_text, player_name
from .knowledge import ClueNote, clue_notes, identities_of, possible_counted, visible_counts
from .options import MAX_CLUE_TOKENS
from .rules import may_clue, may_discard
from .state import Event, GameState, rating_word


def card_dict(state: GameState, card_id: int) -> dict:
    card = state.deck[card_id]
    return {"id": card_id, "suit": SUITS[card.suit], "rank": card.rank, "code": card.code}


def _note_dict(note: ClueNote) -> dict:
    return {
        "turn": note.turn,
        "giver": note.giver,
        "colour": None if note.colour is None else SUITS[note.colour],
        "rank": note.rank,
        "touched": note.touched,
    }


def _knowledge(state: GameState, card_id: int, notes: dict[int, list[ClueNote]]) -> dict:
    card_notes = notes.get(card_id, [])
    return {
        "clues": [_note_dict(note) for note in card_notes],
        "clued": any(note.touched for note in card_notes),
        "possible": [identity_code(i) for i in identities_of(state.clue_mask(card_id))],
    }


def _counted(state: GameState, seat: int, card_id: int, visible: list[int]) -> dict[str, int]:
    counted = possible_counted(state, seat, card_id, visible)
    return {identity_code(ident): count for ident, count in counted.items()}


def event_dict(event: Event, state: GameState, names: Sequence[str] | None = None) -> dict:
    """One history entry, structured, with its sentence under "text"."""
    entry: dict = {
        "turn": event.turn,
        "seat": event.seat,
        "type": event.kind,
        "text": describe(event, state, names),
        "clue_tokens": event.clue_tokens,
        "fuses_left": event.fuses_left,
    }
    if event.kind == "clue":
        entry["target"] = event.target
        entry["colour"] = None if event.colour is None else SUITS[event.colour]
        entry["rank"] = event.rank
        entry["touched"] = list(event.touched)
    else:
        entry["card"] = card_dict(state, event.card_id)
        entry["drawn"] = event.drawn
        if event.kind == "play":
            entry["placed"] = event.placed
            entry["bonus"] = event.bonus
    return entry


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
        "history": [event_dict(event, state, names) for event in state.events],
        "is_over": over,
        "end": None if state.end is None else str(state.end),
        "end_text": end_text(state, names),
        "rating": rating_word(state.score, options) if over else None,
    }


def view_for(state: GameState, seat: int, names: Sequence[str] | None = None) -> dict:
    """What the player at ``seat`` may know (see the module docstring)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat!r} in this game")
    notes = clue_notes(state)
    visible = visible_counts(state, seat)
    hands = []
    for holder, hand in enumerate(state.hands):
        cards = []
        for slot, cid in enumerate(hand, start=1):
            entry = {"id": cid, "slot": slot}
            if holder == seat:
                entry.update(_knowledge(state, cid, notes))
                entry["possible_counted"] = _counted(state, seat, cid, visible)
            else:
                entry.update(card_dict(state, cid))
                entry.update(_knowledge(state, cid, notes))
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
    notes = clue_notes(state)
    hands = []
    for holder, hand in enumerate(state.hands):
        visible = visible_counts(state, holder)
        cards = []
        for slot, cid in enumerate(hand, start=1):
            entry = {"slot": slot, **card_dict(state, cid), **_knowledge(state, cid, notes)}
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
