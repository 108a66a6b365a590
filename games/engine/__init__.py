"""The rules of Hanabi as this project plays them (docs/RULES.md). Pure Python, no Django.

Each rule is one named function in rules.py (``may_discard``, ``may_clue``,
``clue_touch_mask``...); the state, the per-seat views (perspectives.py), the bots and the
analysis all ask those.

Typical use::

    options = GameOptions(players=3, multicolour=1)
    state = new_game(options, seed=12345)
    state.apply(Clue(target=1, colour="blue"))     # raises IllegalAction if not allowed
    view = view_for(state, seat=2, names=["Ann", "Bob", "Cid"])

    state = replay(options, 12345, stored_action_dicts)   # rebuild from the moves
"""

from .actions import (
    Action,
    Clue,
    Discard,
    IllegalAction,
    MalformedAction,
    Play,
    Rearrange,
    action_from_dict,
    action_text,
    action_to_dict,
    takes_turn,
)
from .cards import SUIT_LETTERS, SUITS, Card, deck_composition
from .hanablive import (
    ExportError,
    HanabLiveImportError,
    ImportedGame,
    from_hanablive,
    to_hanablive,
)
from .history import describe, end_text, history_text
from .knowledge import (
    card_clue_notes,
    clue_notes,
    possible_counted,
    possible_identities,
    visible_counts,
)
from .options import MAX_CLUE_TOKENS, MULTICOLOUR_VARIANTS, GameOptions, InvalidOptions
from .perspectives import event_dict, finished_view, spectator_view, view_for
from .record import GameRecord, RecordError, from_record, to_record
from .rules import (
    End,
    clue_touch_mask,
    dealt_hands,
    fits_firework,
    five_returns_token,
    game_end,
    has_legal_action,
    holds_card,
    last_round_ends_at,
    may_clue,
    may_clue_player,
    may_clue_someone,
    may_discard,
    may_give_clue_touching,
    may_name_colour,
    may_rearrange,
    rearranged,
)
from .shuffle import SplitMix64, new_deck, seating_order
from .state import (
    Event,
    GameState,
    InvalidDeck,
    Rearrangement,
    new_game,
    rating_word,
    replay,
)

__all__ = [
    "MAX_CLUE_TOKENS",
    "MULTICOLOUR_VARIANTS",
    "SUITS",
    "SUIT_LETTERS",
    "Action",
    "Card",
    "Clue",
    "Discard",
    "End",
    "Event",
    "ExportError",
    "GameOptions",
    "GameRecord",
    "GameState",
    "HanabLiveImportError",
    "IllegalAction",
    "ImportedGame",
    "InvalidDeck",
    "InvalidOptions",
    "MalformedAction",
    "Play",
    "Rearrange",
    "Rearrangement",
    "RecordError",
    "SplitMix64",
    "action_from_dict",
    "action_text",
    "action_to_dict",
    "card_clue_notes",
    "clue_notes",
    "clue_touch_mask",
    "dealt_hands",
    "deck_composition",
    "describe",
    "end_text",
    "event_dict",
    "finished_view",
    "fits_firework",
    "five_returns_token",
    "from_hanablive",
    "from_record",
    "game_end",
    "has_legal_action",
    "history_text",
    "holds_card",
    "last_round_ends_at",
    "may_clue",
    "may_clue_player",
    "may_clue_someone",
    "may_discard",
    "may_give_clue_touching",
    "may_name_colour",
    "may_rearrange",
    "new_deck",
    "new_game",
    "possible_counted",
    "possible_identities",
    "rating_word",
    "rearranged",
    "replay",
    "seating_order",
    "spectator_view",
    "takes_turn",
    "to_hanablive",
    "to_record",
    "view_for",
    "visible_counts",
]
