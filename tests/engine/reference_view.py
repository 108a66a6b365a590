"""The views as they were computed before the engine kept clue notes and history entries
incrementally: every note rebuilt by walking the whole history, every history entry and
count made afresh on each call. Tests compare the engine's views with these, so this file
must stay a plain, obviously-correct restatement (it reads only the state's public API)."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import SUIT_LETTERS, SUITS, GameState, end_text, rating_word
from games.engine.cards import IDENTITIES, copies_per_identity, identity_code
from games.engine.knowledge import ClueNote
from games.engine.options import MAX_CLUE_TOKENS
from games.engine.rules import may_clue, may_discard


def player_name(names: Sequence[str] | None, seat: int) -> str:
    if names is not None and 0 <= seat < len(names):
        return str(names[seat])
    return f"Player {seat + 1}"


def identities_of(mask: int) -> list[int]:
    return [ident for ident in range(mask.bit_length()) if mask >> ident & 1]


def clue_notes(state: GameState) -> dict[int, list[ClueNote]]:
    """The walk over every event."""
    notes: dict[int, list[ClueNote]] = {}
    for event in state.events:
        if event.kind != "clue":
            continue
        for cid in event.hand:
            notes.setdefault(cid, []).append(
                ClueNote(event.turn, event.seat, event.colour, event.rank, cid in event.touched)
            )
    return notes


def visible_counts(state: GameState, viewer: int | None) -> list[int]:
    counts = [0] * IDENTITIES
    for cid in list(state.discards) + list(state.played):
        counts[state.card(cid).identity] += 1
    if viewer is not None:
        for seat, hand in enumerate(state.hands):
            if seat != viewer:
                for cid in hand:
                    counts[state.card(cid).identity] += 1
    return counts


def possible_counted(state: GameState, viewer: int, card_id: int) -> dict[int, int]:
    visible = visible_counts(state, viewer)
    total = copies_per_identity(state.options.multicolour)
    result = {}
    for ident in identities_of(state.clue_mask(card_id)):
        if total[ident] - visible[ident] > 0:
            result[ident] = total[ident] - visible[ident]
    return result


def describe(event, state: GameState, names: Sequence[str] | None = None) -> str:
    who = player_name(names, event.seat)
    if event.kind == "clue":
        count = len(event.touched)
        if count == 0:
            touching = "touching no cards"
        elif count == 1:
            touching = "touching 1 card"
        else:
            touching = f"touching {count} cards"
        value = SUITS[event.colour] if event.colour is not None else f"{event.rank}s"
        slots = [i + 1 for i, cid in enumerate(event.hand) if cid in event.touched]
        if len(slots) == 1:
            touching += f" (slot {slots[0]})"
        elif slots:
            touching += f" (slots {', '.join(str(slot) for slot in slots)})"
        return f"{who} clues {player_name(names, event.target)}: {value}, {touching}"
    card = state.card(event.card_id)
    slot = f"slot {event.hand.index(event.card_id) + 1}"
    if event.kind == "discard":
        return f"{who} discards {card.name} ({slot})"
    if not event.placed:
        burn = "last fuse burns" if event.fuses_left == 0 else "fuse burns"
        return f"{who} misplays {card.name} ({slot}; {burn})"
    text = f"{who} plays {card.name} ({slot}"
    if event.bonus:
        text += f"; the {card.suit_name} firework is complete: a clue token comes back"
    elif card.rank == 5:
        text += (
            f"; the {card.suit_name} firework is complete; all {MAX_CLUE_TOKENS} clue tokens "
            "were already available"
        )
    return text + ")"


def card_dict(state: GameState, card_id: int) -> dict:
    card = state.card(card_id)
    return {"id": card_id, "suit": SUITS[card.suit], "rank": card.rank, "code": card.code}


def event_dict(event, state: GameState, names: Sequence[str] | None = None) -> dict:
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


def _knowledge(state: GameState, card_id: int, notes: dict[int, list[ClueNote]]) -> dict:
    card_notes = notes.get(card_id, [])
    return {
        "clues": [
            {
                "turn": note.turn,
                "giver": note.giver,
                "colour": None if note.colour is None else SUITS[note.colour],
                "rank": note.rank,
                "touched": note.touched,
            }
            for note in card_notes
        ],
        "clued": any(note.touched for note in card_notes),
        "possible": [identity_code(i) for i in identities_of(state.clue_mask(card_id))],
    }


def _counted(state: GameState, seat: int, card_id: int) -> dict[str, int]:
    counted = possible_counted(state, seat, card_id)
    return {identity_code(ident): count for ident, count in counted.items()}


def _public_possible(state: GameState, card_id: int) -> list[str]:
    """The clue-possible identities with a copy neither played nor discarded."""
    public = visible_counts(state, None)
    total = copies_per_identity(state.options.multicolour)
    return [
        identity_code(ident)
        for ident in identities_of(state.clue_mask(card_id))
        if total[ident] - public[ident] > 0
    ]


def _critical(state: GameState, card) -> bool:
    """The last copy left of a card its firework still needs and can still reach."""
    if state.fireworks[card.suit] >= card.rank:
        return False
    public = visible_counts(state, None)
    total = copies_per_identity(state.options.multicolour)

    def copies(rank: int) -> int:
        ident = card.identity - card.rank + rank
        return total[ident] - public[ident]

    if copies(card.rank) != 1:
        return False
    return all(copies(rank) > 0 for rank in range(state.fireworks[card.suit] + 1, card.rank))


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


def _legal_for(state: GameState, seat: int) -> dict:
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


def view_for(state: GameState, seat: int, names: Sequence[str] | None = None) -> dict:
    notes = clue_notes(state)
    hands = []
    for holder, hand in enumerate(state.hands):
        cards = []
        for slot, cid in enumerate(hand, start=1):
            entry = {"id": cid, "slot": slot}
            if holder == seat:
                entry.update(_knowledge(state, cid, notes))
                entry["possible_counted"] = _counted(state, seat, cid)
            else:
                entry.update(card_dict(state, cid))
                entry.update(_knowledge(state, cid, notes))
                entry["possible_public"] = _public_possible(state, cid)
                entry["critical"] = _critical(state, state.card(cid))
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


def spectator_view(
    state: GameState, names: Sequence[str] | None = None, include_deck: bool = False
) -> dict:
    notes = clue_notes(state)
    hands = []
    for holder, hand in enumerate(state.hands):
        cards = []
        for slot, cid in enumerate(hand, start=1):
            entry = {"slot": slot, **card_dict(state, cid), **_knowledge(state, cid, notes)}
            entry["possible_counted"] = _counted(state, holder, cid)
            cards.append(entry)
        hands.append({"seat": holder, "name": player_name(names, holder), "cards": cards})
    view = {"kind": "spectator", **_common(state, names), "hands": hands}
    if include_deck:
        view["deck"] = [card_dict(state, cid) for cid in range(len(state.deck))]
        view["next_card"] = state.cards_drawn
    return view
