"""Turns the engine's view of a game into what the table template shows.

No rule lives here: legality, knowledge and history all come from the engine's view dict.
This module only groups and labels them for people.
"""

from html import escape

from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.engine import SUIT_LETTERS, SUITS

RANKS = (1, 2, 3, 4, 5)


def visible_card(card: dict) -> dict:
    """A face-up card with its label ('blue 3') and suit letter ('B') for the template."""
    letter = SUIT_LETTERS[SUITS.index(card["suit"])]
    label = f"{card['suit']} {card['rank']}"
    face = card_face(card["suit"], letter, card["rank"], label)
    return {**card, "label": label, "letter": letter, "face": face}


def card_face(suit: str, letter: str, rank: int, label: str) -> str:
    """One visible card's HTML: colour and a letter, so colour is never the only signal
    (built here rather than by an include per card: the turn page shows many)."""
    return format_html(
        '<span class="card-face suit-{}" aria-hidden="true"><span class="letter">{}</span>{}'
        '</span><span class="visually-hidden">{}</span>',
        suit,
        letter,
        rank,
        label,
    )


def grid_html(rows: list[dict]) -> str:
    """The identity grid of a card back (see _grid) as the rows of its <table>: a plain
    string join (a format_html per cell costs more than the rest of the card). Every value
    is still escaped, though all come from the engine's own names (suits, codes, states)."""
    return mark_safe(  # noqa: S308 (every value escaped)
        "".join(
            f'<tr class="suit-{escape(row["suit"])}">'
            + "".join(
                f'<td class="{escape(c["state"])}">{escape(c["code"])}</td>' for c in row["cells"]
            )
            + "</tr>"
            for row in rows
        )
    )


def clue_label(clue: dict) -> str:
    return clue["colour"] if clue.get("colour") else f"{clue['rank']}s"


def _grid(card: dict, num_suits: int) -> list[dict]:
    """Every identity of the variant, marked as the card's knowledge allows:
    possible (by clues and by counting), counted out (possible by clues, but every copy is
    in sight), or impossible (ruled out by clues)."""
    by_clues = set(card["possible"])
    by_counting = set(card.get("possible_counted", {}))
    rows = []
    for suit in range(num_suits):
        cells = []
        for rank in RANKS:
            code = f"{SUIT_LETTERS[suit]}{rank}"
            if code in by_counting:
                state = "possible"
            elif code in by_clues:
                state = "counted-out"
            else:
                state = "impossible"
            cells.append({"code": code, "rank": rank, "state": state})
        rows.append({"suit": SUITS[suit], "letter": SUIT_LETTERS[suit], "cells": cells})
    return rows


def clue_badges(card: dict) -> tuple[list[str], list[str]]:
    """The values of clues that touched the card, and of those that missed it."""
    touched, missed = [], []
    for note in card.get("clues", []):
        value = note["colour"] if note["colour"] else str(note["rank"])
        target = touched if note["touched"] else missed
        if value not in target:
            target.append(value)
    return touched, missed


AUTOMATIC = {"timeout": "time ran out, so a bot made this move", "bot": "a bot's move"}


def table(view: dict, automatic_turns: dict[int, str] | None = None) -> dict:
    """The engine's view, regrouped: the viewer's hand, the others in turn order, the discard
    pile by suit, clue choices by target, the history newest first (moves not made by the
    player themself say so)."""
    automatic_turns = automatic_turns or {}
    num_suits = len(view["fireworks"])
    legal = view.get("legal") or {}
    clues_by_target: dict[int, list[dict]] = {}
    for clue in legal.get("clues", []):
        clue = {**clue, "label": clue_label(clue), "count": len(clue["touches"])}
        clues_by_target.setdefault(clue["target"], []).append(clue)

    viewer = view.get("viewer")
    current = view["current_seat"]
    hands = []
    for hand in view["hands"]:
        cards = []
        for card in hand["cards"]:
            touched, missed = clue_badges(card)
            entry = {**card, "touched_by": touched, "missed_by": missed}
            if "suit" in card:
                entry = visible_card(entry)
            else:
                entry["grid"] = _grid(card, num_suits)
                entry["grid_html"] = grid_html(entry["grid"])
                entry["could_be"] = sorted(card.get("possible_counted", {}))
            cards.append(entry)
        hands.append(
            {
                **hand,
                "cards": cards,
                "is_viewer": hand["seat"] == viewer,
                "is_current": hand["seat"] == view["current_seat"],
                "clues": clues_by_target.get(hand["seat"], []),
            }
        )
    if viewer is not None:
        # The viewer first, then the others in the order they play after the viewer.
        hands = hands[viewer:] + hands[:viewer]

    tokens = view["clue_tokens"]
    discards_by_suit = []
    for suit in range(num_suits):
        cards = sorted(
            (visible_card(card) for card in view["discards"] if card["suit"] == SUITS[suit]),
            key=lambda card: card["rank"],
        )
        discards_by_suit.append({"suit": SUITS[suit], "letter": SUIT_LETTERS[suit], "cards": cards})

    return {
        "hands": hands,
        "discards_by_suit": discards_by_suit,
        "history": [
            {**entry, "note": AUTOMATIC.get(automatic_turns.get(entry["turn"], ""))}
            for entry in reversed(view["history"])
        ],
        "current_name": None if current is None else view["names"][current],
        "can_discard": bool(legal.get("discard")),
        "can_clue": bool(legal.get("clues")),
        "token_dots": "●" * tokens + "○" * (view["max_clue_tokens"] - tokens),
    }
