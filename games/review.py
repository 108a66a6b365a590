"""A review of a finished game by the H-Group bot (issue 30): for each turn of each player,
what the bot at the table's level would have done from that player's own view at that turn,
and why, in words, beside what the player did.

Each turn's view is the engine's ``view_for(state, seat)``, the same view the bots get when
they play: the player's own cards only as their clues and the counting of the cards in
sight. The review of a turn never uses a card its player could not see (the swap test in
tests/games/test_review.py). Shown on a finished game's replay on request only
(games/views/replay.py): during play it would tell each player what their cards are.

``review(options, deck_source, actions, names)`` is pure Python; ``page_context(game,
record)`` is what the replay shows, computed on request and kept in the cache, since a
finished game never changes. Measured 2026-11-28 on a shared 2-core machine (load 7 to 10),
H-Group bot games of 51 to 73 turns, 5 decks for each of 2 to 5 players, median of 3 runs
each: 0.21 / 0.22 / 0.44 / 0.74 s at 2 / 3 / 4 / 5 players (at most 1.16 s); the first
request for a 56-turn game 0.95 s, later ones from the cache 0.02 s. Under the second or so
the project allows a page, so no worker (games/hindsight.py's outbox pattern) is needed.

The perfect-information best line beside a move that lowered what the team could still
reach is another matter (a search at every turn): the worker computes it with the deal's
analysis and stores it (games/hindsight.py, ``TurnAnalysis``), and the review only reads it
(``hindsight.review_context``), saying so while it is not there yet.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace

from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import hindsight, review_words, wording
from games.bots.hgroup import Decision, decide
from games.engine import (
    Action,
    Clue,
    GameOptions,
    GameState,
    Play,
    action_from_dict,
    action_to_dict,
    describe,
    replay,
    takes_turn,
    view_for,
)
from games.engine.cards import SUITS
from games.models import BotKind

LEVEL = 1
REFUSAL = gettext_noop(
    "The review opens when the game is over: during play it would tell the players what "
    "their own cards are."
)
# A finished game never changes: its review is kept a week (the key names its moves too).
CACHE_SECONDS = 7 * 24 * 3600
# Raised when the bot's moves or words change, so that no review in the cache is stale.
VERSION = 1


@dataclass(frozen=True)
class ReviewedTurn:
    turn: int  # the move's number as the replay counts it: the first move is turn 1
    seat: int
    player: str
    played: str  # what the player did, in the history's words
    suggested: str  # what the bot would have done ("Play slot 2", "Clue Bob red")
    reason: str  # and why ("Play slot 2: it was clued red as a play clue on turn 5")
    agrees: bool
    # "en" when the page's language is another and the reason could not be worded in it
    # (games/review_words.py): the template says so, for screen readers.
    reason_lang: str = ""
    # Where the move lowered what a team seeing every card could still reach: what it could
    # have reached and how, and what it could after (games/hindsight.review_context).
    best_line: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


def review(
    options: GameOptions,
    deck_source: object,
    actions: list[dict],
    names: list[str],
    level: int = LEVEL,
) -> list[ReviewedTurn]:
    """Every move of the game (the free rearrangements of hands skipped), with the bot's
    choice from the mover's view just before it."""
    state = replay(options, deck_source, [])
    reviewed: list[ReviewedTurn] = []
    for data in actions:
        action = action_from_dict(data)
        if not takes_turn(action):
            state.apply(action)
            continue
        if state.is_over:
            break
        seat = state.current_seat
        decision, suggested = suggestion(state, names, level)
        state.apply(action)
        reviewed.append(
            ReviewedTurn(
                turn=len(reviewed) + 1,
                seat=seat,
                player=names[seat] if seat < len(names) else f"player {seat + 1}",
                played=describe(state.events[-1], state, names),
                suggested=suggested,
                reason=decision.reason,
                agrees=action_to_dict(decision.action) == action_to_dict(action),
            )
        )
    return reviewed


def suggestion(state: GameState, names: list[str], level: int = LEVEL) -> tuple[Decision, str]:
    """The bot's move for the player to move, from that player's view alone, and the move in
    short words ("Play slot 2")."""
    seat = state.current_seat
    decision = decide(view_for(state, seat, names=names), level)
    return decision, _short(decision.action, list(state.hand(seat)), names)


def _short(action: Action, hand: list[int], names: list[str]) -> str:
    if type(action) is Clue:
        target = names[action.target] if action.target < len(names) else action.target
        return f"Clue {target} {action.colour or action.rank}"
    verb = "Play" if type(action) is Play else "Discard"
    return f"{verb} slot {hand.index(action.card_id) + 1}"


def agreement(turns: list[ReviewedTurn]) -> dict:
    """How often each player did what the bot would have done: name -> (agreed, turns)."""
    counts: dict[str, list[int]] = {}
    for turn in turns:
        seen = counts.setdefault(turn.player, [0, 0])
        seen[0] += turn.agrees
        seen[1] += 1
    return {name: tuple(seen) for name, seen in counts.items()}


def table_level(game) -> int:
    """The level the review reviews at: the H-Group bot's that sat at the table (the highest,
    if several did), else level 1."""
    levels = game.seats.filter(bot_kind=BotKind.HGROUP, bot_level__isnull=False).values_list(
        "bot_level", flat=True
    )
    return max(levels, default=LEVEL)


def page_context(game, record: dict, level: int | None = None) -> dict:
    """The review for the replay of a finished ``game`` (``record``: what
    games.services.replays.game_record makes), at the table's level (``table_level``) unless
    ``level`` says."""
    if not game.is_finished():
        raise ValueError(REFUSAL)
    if level is None:
        level = table_level(game)
    moves = json.dumps(
        [record["deck_source"], record["actions"], record["names"]], sort_keys=True, default=str
    )
    digest = hashlib.sha256(moves.encode()).hexdigest()[:16]
    key = f"games:review:v{VERSION}:{game.pk}:{level}:{digest}"
    rows = cache.get(key)
    if rows is None:
        turns = review(
            record["options"], record["deck_source"], record["actions"], record["names"], level
        )
        rows = [turn.as_dict() for turn in turns]
        cache.set(key, rows, CACHE_SECONDS)
    turns = [ReviewedTurn(**row) for row in rows]
    if not wording.english():
        turns = in_the_readers_words(turns, record)
    # The best line where it helps: read from what the worker stored (not cached here, so
    # that it appears once the worker has run).
    best = hindsight.review_context(game, record)
    turns = [replace(turn, best_line=best["best_lines"].get(turn.turn, "")) for turn in turns]
    return {
        "review": turns,
        "review_best_pending": best["best_lines_pending"],
        "review_level": level,
        "review_agreement": [
            {"player": name, "agreed": agreed, "turns": count}
            for name, (agreed, count) in agreement(turns).items()
        ],
    }


def in_the_readers_words(turns: list[ReviewedTurn], record: dict) -> list[ReviewedTurn]:
    """The review in the active language (issue 29): what each player did, as
    games/wording.py words the history, the bot's move in short, and its reason as
    games/review_words.py reads it back (one it cannot stays English, marked so)."""
    final = replay(record["options"], record["deck_source"], record["actions"])
    names = record["names"]
    # One event per move, in order: the review's turn n is the n-th.
    events = final.events
    worded = []
    for turn in turns:
        reason, done = review_words.in_words(turn.reason, names)
        worded.append(
            replace(
                turn,
                played=wording.event_sentence(events[turn.turn - 1], final, names),
                suggested=_short_in_words(turn.suggested, names),
                reason=reason,
                reason_lang="" if done else "en",
            )
        )
    return worded


def _short_in_words(short: str, names: list[str]) -> str:
    """_short's words ("Clue Bob red", "Play slot 2") in the active language."""
    verb, _space, rest = short.partition(" ")
    if verb in ("Play", "Discard") and rest.startswith("slot "):
        slot = rest.removeprefix("slot ")
        if verb == "Play":
            return _("Play slot %(slot)s") % {"slot": slot}
        return _("Discard slot %(slot)s") % {"slot": slot}
    if verb == "Clue":
        target, _space, value = rest.rpartition(" ")
        if value.isdigit():
            value = wording.rank_clue(int(value))
        elif value in SUITS:
            value = wording.colour_name(value)
        return _("Clue %(target)s: %(value)s") % {"target": target, "value": value}
    return short
