"""A game's history in words: "Ann clues Bob: blue, touching 2 cards (slots 1, 3)", "Bob
plays red 3".

Every sentence tells only what the whole table saw (played and discarded cards are face up),
so the history is safe to show to any player at any time.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUITS, Card
from .options import MAX_CLUE_TOKENS
from .rules import End
from .state import Event, GameState, Rearrangement, rating_word


def player_name(names: Sequence[str] | None, seat: int) -> str:
    """The seat's name, or 'Player 1' for seat 0 when no names are given."""
    if names is not None and 0 <= seat < len(names):
        return str(names[seat])
    return f"Player {seat + 1}"


def clue_value_text(colour: int | None, rank: int | None) -> str:
    return SUITS[colour] if colour is not None else f"{rank}s"


def touched_slots(event: Event) -> list[int]:
    """The slots a clue touched, as the clued hand was then (slot 1 = the newest card)."""
    return [slot for slot, cid in enumerate(event.hand, start=1) if cid in event.touched]


def slots_text(event: Event) -> str:
    """' (slots 1, 3)' for a clue that touched cards (public: the whole table saw it)."""
    slots = touched_slots(event)
    if not slots:
        return ""
    word = "slot" if len(slots) == 1 else "slots"
    return f" ({word} {', '.join(map(str, slots))})"


def played_slot(event: Event) -> int:
    """The slot a played or discarded card left (slot 1 = the newest card): public, as the
    whole table saw which card left the hand."""
    return event.hand.index(event.card_id) + 1


def describe(event: Event, state: GameState, names: Sequence[str] | None = None) -> str:
    """One sentence for one event of ``state``'s game."""
    card = None if event.card_id is None else state.deck[event.card_id]
    target, rest = sentence_parts(event, card)
    who = player_name(names, event.seat)
    if target is None:
        return who + rest
    return f"{who} clues {player_name(names, target)}{rest}"


def sentence_parts(event: Event, card: Card | None) -> tuple[int | None, str]:
    """describe()'s sentence without the names, which it puts in front: (the seat clued, or
    None; the rest of the sentence). The sentence is the actor's name, then " clues " and the
    clued seat's name for a clue, then the rest. ``card`` is the card played or discarded
    (None for a clue): nothing else of the game goes into the sentence."""
    if event.kind == "clue":
        count = len(event.touched)
        touching = (
            "touching no cards"
            if count == 0
            else f"touching {count} card" + ("s" if count > 1 else "")
        )
        return (
            event.target,
            f": {clue_value_text(event.colour, event.rank)}, {touching}{slots_text(event)}",
        )
    slot = f"slot {played_slot(event)}"
    if event.kind == "discard":
        return None, f" discards {card.name} ({slot})"
    if not event.placed:
        burn = "last fuse burns" if event.fuses_left == 0 else "fuse burns"
        return None, f" misplays {card.name} ({slot}; {burn})"
    if event.bonus:
        return None, (
            f" plays {card.name} ({slot}; the {card.suit_name} firework is complete: a clue "
            "token comes back)"
        )
    if card.rank == 5:
        return None, (
            f" plays {card.name} ({slot}; the {card.suit_name} firework is complete; all "
            f"{MAX_CLUE_TOKENS} clue tokens were already available)"
        )
    return None, f" plays {card.name} ({slot})"


def rearrangement_text(moved: Rearrangement, names: Sequence[str] | None = None) -> str:
    """'Ann moves a card from slot 4 to slot 1': by slots alone, never the card, whose
    holder does not know it (and the others see it anyway)."""
    who = player_name(names, moved.seat)
    return f"{who} moves a card from slot {moved.from_slot} to slot {moved.to_slot}"


def timeline(state: GameState) -> list[Event | Rearrangement]:
    """The events and the free rearrangements (an option) in the order they happened: a
    rearrangement made at turn t comes before the event of turn t."""
    moves = state.rearrangements
    if not moves:
        return list(state.events)
    merged: list[Event | Rearrangement] = []
    index = 0
    for event in state.events:
        while index < len(moves) and moves[index].turn <= event.turn:
            merged.append(moves[index])
            index += 1
        merged.append(event)
    merged.extend(moves[index:])
    return merged


def history_text(state: GameState, names: Sequence[str] | None = None) -> list[str]:
    """Every action so far, one sentence each, oldest first (with the rearrangements)."""
    return [
        rearrangement_text(item, names)
        if type(item) is Rearrangement
        else describe(item, state, names)
        for item in timeline(state)
    ]


def end_text(state: GameState, names: Sequence[str] | None = None) -> str | None:
    """How the game ended, in words; None while it goes on."""
    end = state.end
    if end is None:
        return None
    options = state.options
    rating = rating_word(state.score, options)
    if end is End.PERFECT:
        if options.until_perfect:
            return "Victory: every firework is complete."
        return f"Every firework is complete: {state.score} points, {rating}!"
    if end is End.STRIKEOUT:
        return "The last fuse burned: the game is lost and scores 0."
    if end is End.DEFEAT_LOST_CARD:
        last = state.events[-1]
        card = state.deck[last.card_id]
        return f"Defeat: the last {card.name} is gone, so the display can no longer be perfect."
    if end is End.DEFEAT_NO_ACTION:
        who = player_name(names, state.turn % state.players)
        return f"Defeat: {who} has no card and no clue token, and nobody may pass."
    if end is End.LAST_ROUND:
        return f"The last round is over: {state.score} points, {rating}."
    return (
        f"No remaining card can raise the score, so the game ends: {state.score} points, {rating}."
    )
