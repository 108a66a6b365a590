"""Turns the engine's view of a game into what the table template shows.

No rule lives here: legality, knowledge and history all come from the engine's view dict.
This module only groups and labels them for people.
"""

from html import escape

from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext

from games import safe_words
from games.engine import SUIT_LETTERS, SUITS
from games.engine.cards import MAX_RANK, copies_per_identity
from games.engine.state import GameState
from games.text_commands import local_code, local_letters
from games.wording import card_name, colour_name, english, entry_sentence, rank_clue

RANKS = (1, 2, 3, 4, 5)


def _local_codes(codes) -> list[str]:
    language = get_language()
    return [local_code(code, language) for code in codes]


def visible_card(card: dict) -> dict:
    """A face-up card with its label ('blue 3', 'blau 3': the reader's language) and suit
    letter in the reader's letters ('B'; 'Gr' for grün) for the template."""
    letter = _letter(SUITS.index(card["suit"]))
    label = card_name(card["suit"], card["rank"])
    face = card_face(card["suit"], letter, card["rank"], label)
    return {**card, "label": label, "letter": letter, "face": face}


def _letter(suit: int) -> str:
    """A suit's letter as the reader's language writes it (games.text_commands), the letters
    their emails and their replies use: in German "G" is gelb and grün "Gr"."""
    return local_letters(get_language())[SUIT_LETTERS[suit]]


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


def pips_html(rows: list[dict]) -> str:
    """A card back as hanab.live draws it: a pip per suit and per rank still possible (the
    grid's possible cells, see _grid), for the card's small box. Only what the grid itself
    holds, so it tells no more than the grid does; aria-hidden: the card's sentence ("Could
    be R1, R2...") says it to screen readers."""
    possible = [(row, cell) for row in rows for cell in row["cells"] if cell["state"] == "possible"]
    suits = [row for row in rows if any(r is row for r, _cell in possible)]
    ranks = sorted({cell["rank"] for _row, cell in possible})
    return mark_safe(  # noqa: S308 (every value escaped)
        '<span class="pips" aria-hidden="true"><span class="suit-pips">'
        + "".join(
            f'<span class="pip suit-{escape(row["suit"])}">{escape(row["letter"])}</span>'
            for row in suits
        )
        + '</span><span class="rank-pips">'
        + "".join(f'<span class="pip rank">{rank}</span>' for rank in ranks)
        + "</span></span>"
    )


def clue_label(clue: dict) -> str:
    """'red', '3s' ('rot', '3er'): the reader's language."""
    return colour_name(clue["colour"]) if clue.get("colour") else rank_clue(clue["rank"])


def _grid(card: dict, num_suits: int, counted: str = "possible_counted") -> list[dict]:
    """Every identity of the variant, marked as the card's knowledge allows:
    possible (by clues and by counting), counted out (possible by clues, but every copy is
    in sight), or impossible (ruled out by clues). `counted` names the card's counted
    identities: the holder's own count for the viewer's cards, the public count (played and
    discarded cards only) for a teammate's card: the empathy view."""
    by_clues = set(card["possible"])
    by_counting = set(card.get(counted, {}))
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
            cells.append({"code": f"{_letter(suit)}{rank}", "rank": rank, "state": state})
        rows.append({"suit": SUITS[suit], "letter": _letter(suit), "cells": cells})
    return rows


def clue_badges(card: dict) -> tuple[list[str], list[str]]:
    """The values of clues that touched the card, and of those that missed it."""
    touched, missed = [], []
    for note in card.get("clues", []):
        value = colour_name(note["colour"]) if note["colour"] else str(note["rank"])
        target = touched if note["touched"] else missed
        if value not in target:
            target.append(value)
    return touched, missed


def slots_text(slots: list[int]) -> str:
    """'slots 1, 4' or 'slot 2' (or '' for none)."""
    if not slots:
        return ""
    return ngettext("slot %(slots)s", "slots %(slots)s", len(slots)) % {
        "slots": ", ".join(map(str, slots))
    }


def _clue_data(clue: dict) -> str:
    """A clue button's data-clue: 'target:1 colour:red' or 'target:1 rank:3'."""
    if clue.get("colour"):
        return f"target:{clue['target']} colour:{clue['colour']}"
    return f"target:{clue['target']} rank:{clue['rank']}"


def _clue_key(clue: dict) -> str:
    """The class that ties a clue button to the cards it touches: 'touch-red', 'touch-3'."""
    return f"touch-{clue['colour']}" if clue.get("colour") else f"touch-{clue['rank']}"


def figures(view: dict) -> dict:
    """The board's figures, as hanab.live computes them.

    Pace: score + cards left in the deck + players - the best score still possible; the
    discards the team can still make before a card it needs must be lost (below 0 the best
    score cannot be reached any more). Efficiency: cards played per clue given so far.
    Needed: the cards still to play per clue the team can still give at most (hanab.live's
    "clues still usable"). Pace and the clues still usable are shown while the deck has
    cards. Every figure comes from public information only."""
    clues_given = sum(1 for entry in view["history"] if entry["type"] == "clue")
    played = sum(firework["height"] for firework in view["fireworks"])
    to_play = max(0, view["max_reachable_score"] - view["score"])
    pace = usable = None
    if view["deck_size"] > 0 and not view["is_over"]:
        pace = view["score"] + view["deck_size"] + view["players"] - view["max_reachable_score"]
        usable = clues_still_usable(view)
    return {
        "pace": pace,
        "efficiency": f"{played / clues_given:.2f}" if clues_given else None,
        "clues_given": clues_given,
        "played": played,
        "to_play": to_play,
        "clues_usable": usable,
        "needed": f"{to_play / usable:.2f}" if usable and to_play else None,
    }


def max_heights(view: dict) -> list[int]:
    """How high each firework can still rise: while a copy of its next card is not lost."""
    total = copies_per_identity(view["options"]["multicolour"])
    lost = [0] * len(total)
    for card in view["discards"]:
        lost[SUITS.index(card["suit"]) * MAX_RANK + card["rank"] - 1] += 1
    heights = []
    for suit, firework in enumerate(view["fireworks"]):
        height = firework["height"]
        while (
            height < MAX_RANK and total[suit * MAX_RANK + height] > lost[suit * MAX_RANK + height]
        ):
            height += 1
        heights.append(height)
    return heights


def clues_still_usable(view: dict) -> int | None:
    """The most clues the team can still give and reach the best score still possible, as
    hanab.live counts them: the clue tokens now, one per discard the deck leaves room for
    before the final round, one per firework that can be completed before it (a 5 gives a
    token back). None once the deck is empty."""
    deck, end = view["deck_size"], view["players"]
    if deck <= 0:
        return None
    reach = max_heights(view)
    heights = [firework["height"] for firework in view["fireworks"]]
    missing = sum(reach) - sum(heights)
    if missing <= end + 1:
        discards = deck - 1
    elif missing <= end + deck:
        discards = end + deck - missing
    else:
        discards = 0
    plays_in_final_round = min(missing, end + 1)
    plays_before = min(missing, end + deck) - plays_in_final_round
    completable = sorted(
        top - height for height, top in zip(heights, reach, strict=True) if top == MAX_RANK > height
    )
    suits = played = 0
    for cards in completable:
        if played + cards > plays_before:
            break
        played += cards
        suits += 1
    return view["clue_tokens"] + discards + suits


AUTOMATIC = {
    "timeout": gettext_lazy("time ran out, so a bot made this move"),
    "bot": gettext_lazy("a bot's move"),
}


def table(
    view: dict,
    automatic_turns: dict[int, str] | None = None,
    notes: dict[int, list[dict]] | None = None,
    state: GameState | None = None,
    safe_readings: dict[int, dict] | None = None,
) -> dict:
    """The engine's view, regrouped: the viewer's hand, the others in turn order, the discard
    pile by suit, clue choices by target, the history newest first (moves not made by the
    player themself say so), the last action's marks (the cards the last clue touched, a
    misplay's burned fuse), the last move's history entry (None before the first move) and
    the figures of the board. `notes`: card id -> the notes shown on it
    (games/services/notes.py). `state`: the game's state the view is of, whose events word
    the history in the reader's language (games/wording.py); without it, the engine's English.
    `safe_readings`: turn -> where the H-Group bot's move took the safe reading of a card of
    its own (Move.safe_reading), worded beside the move for this viewer (games/safe_words.py)."""
    automatic_turns = automatic_turns or {}
    safe_readings = safe_readings or {}
    notes = notes or {}
    num_suits = len(view["fireworks"])
    legal = view.get("legal") or {}
    slots = {card["id"]: card["slot"] for hand in view["hands"] for card in hand["cards"]}
    clues_by_target: dict[int, list[dict]] = {}
    for clue in legal.get("clues", []):
        touched_slots = sorted(slots[cid] for cid in clue["touches"] if cid in slots)
        clue = {
            **clue,
            "label": clue_label(clue),
            "count": len(clue["touches"]),
            "slots": touched_slots,
            "slots_text": slots_text(touched_slots),
            "data": _clue_data(clue),
            "key": _clue_key(clue),
        }
        clues_by_target.setdefault(clue["target"], []).append(clue)
    # Each card a clue would touch carries the clue's key as a class: hovering or focusing
    # the clue's button highlights them (static/css/site.css, no script).
    touch_keys: dict[int, list[str]] = {}
    for clues in clues_by_target.values():
        for clue in clues:
            for cid in clue["touches"]:
                touch_keys.setdefault(cid, []).append(clue["key"])

    history = view["history"]
    if state is not None and not english():
        for entry in history:
            entry["text"] = entry_sentence(entry, state, view["names"])
    # A rearrangement (a free action) takes no turn: the marks stay those of the last move.
    moves = [entry for entry in history if entry["type"] != "rearrange"]
    last = moves[-1] if moves else None
    last_clued = set(last["touched"]) if last and last["type"] == "clue" else set()
    misplay = bool(last and last["type"] == "play" and not last["placed"])

    viewer = view.get("viewer")
    current = view["current_seat"]
    hands = []
    for hand in view["hands"]:
        cards = []
        for card in hand["cards"]:
            touched, missed = clue_badges(card)
            entry = {
                **card,
                "touched_by": touched,
                "missed_by": missed,
                "last_clued": card["id"] in last_clued,
                "notes": notes.get(card["id"], []),
                "touch_classes": " ".join(touch_keys.get(card["id"], [])),
            }
            if "suit" in card:
                entry = visible_card(entry)
                if "possible_public" in card:  # a teammate's card: what its holder knows
                    entry["empathy_pips"] = pips_html(_grid(card, num_suits, "possible_public"))
                    entry["empathy_could_be"] = _local_codes(card["possible_public"])
            else:
                entry["grid"] = _grid(card, num_suits)
                entry["grid_html"] = grid_html(entry["grid"])
                entry["pips_html"] = pips_html(entry["grid"])
                entry["could_be"] = _local_codes(sorted(card.get("possible_counted", {})))
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
        discards_by_suit.append(
            {
                "suit": SUITS[suit],
                "name": colour_name(SUITS[suit]),
                "letter": _letter(suit),
                "cards": cards,
            }
        )
    for firework in view["fireworks"]:
        firework["name"] = colour_name(firework["suit"])  # the board's words for it
        firework["letter"] = _letter(SUITS.index(firework["suit"]))

    shown_history = [
        {
            **entry,
            # A rearrangement shares its turn number with the move that follows it.
            "note": None
            if entry["type"] == "rearrange"
            else AUTOMATIC.get(automatic_turns.get(entry["turn"], "")),
            "misplay": misplay and entry is last,
            "safe": None
            if entry["type"] == "rearrange"
            else safe_words.sentence(
                safe_readings.get(entry["turn"]),
                view["names"],
                viewer,
                bool(view.get("is_over")),
            ),
        }
        for entry in reversed(history)
    ]
    return {
        "hands": hands,
        "discards_by_suit": discards_by_suit,
        "history": shown_history,
        "last_move": shown_history[0] if shown_history else None,
        "misplay": misplay,
        "figures": figures(view),
        "current_name": None if current is None else view["names"][current],
        "can_discard": bool(legal.get("discard")),
        "can_clue": bool(legal.get("clues")),
        "token_dots": "●" * tokens + "○" * (view["max_clue_tokens"] - tokens),
    }
