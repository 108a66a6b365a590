"""The hindsight analysis of a finished game's deal: computed once by a worker (an outbox
row written when the game ends) and shown on the game's replay pages.

The seeing team's best score comes from a search with a time limit; when it leaves bounds
("at least X, at most Y"), they are stored at once, so that the page shows them, and the
second method (``games.analysis.team.settle``, a SAT formula) then closes them in the same
worker and stores the exact score in their place.

The same worker then asks what the seeing team could still reach at the start of each turn
(``games.analysis.turns.reachable_by_turn``: ``best_score`` of the state before every move,
at most 0.5 s and 20,000 nodes each, so bounds that are true even where they do not meet)
and stores it once as a ``TurnAnalysis`` (``analyse_turns``). The review of the finished
game (games/review.py) reads it: beside each move that lowered what the team could still
reach, "Here the team could still reach N if …" with the first moves of the line, and what
it could reach after the move (``review_context``); until the worker has run, the review
says it is still being worked out. Nothing is computed or shown while the game is played.
Measured 2026-11-28 on a shared 2-core machine, 3-player games, 5 of each, the house bot's
self-play of seeds 1 to 5 (59 to 64 turns): median 0.15 s for a whole game (at most 0.43
s); with every 7th move a careless discard: median 0.32 s (at most 3.19 s, a game where 4
turns reached the limits). Command:

    .venv/bin/python bench/turn_bounds.py --players 3 --games 5 [--careless 7]
"""

from django.conf import settings
from django.utils.translation import gettext as _

from games import outbox_kinds, wording
from games.analysis.deal import analyse
from games.analysis.team import TeamResult, settle
from games.analysis.turns import reachable_by_turn
from games.engine import Clue, Play, action_from_dict, new_game, replay, takes_turn
from games.engine.cards import SUITS
from games.engine.history import timeline
from games.engine.state import Rearrangement
from games.models import DealAnalysis, Game, TurnAnalysis
from games.services import replays
from outbox.models import Outbox
from outbox.registry import handler

# The second method's time, as a multiple of the search's, within what is left of the
# row's lease (OUTBOX_LEASE_SECONDS; LEASE_SHARE of it, so that the row is done before
# another worker may take it over).
SAT_TIME_FACTOR = 5
LEASE_SHARE = 0.8


def sat_time_limit(search_seconds: float) -> float:
    return min(
        SAT_TIME_FACTOR * settings.ANALYSIS_TIME_LIMIT_SECONDS,
        LEASE_SHARE * settings.OUTBOX_LEASE_SECONDS - search_seconds,
    )


@handler(outbox_kinds.ANALYSIS)
def analyse_finished_game(row: Outbox) -> None:
    game = Game.objects.get(pk=row.payload["game"])
    if not game.is_finished():
        return  # a deal is analysed only once nobody can learn from it
    options = game.game_options
    deck = list(replay(options, game.deck_source, []).deck)
    analysis = DealAnalysis.objects.filter(game=game).first()
    searched = 0.0
    if analysis is None:
        result = analyse(options, deck, time_limit=settings.ANALYSIS_TIME_LIMIT_SECONDS)
        searched = result["team"]["seconds"]
        analysis, _ = DealAnalysis.objects.get_or_create(game=game, defaults={"result": result})
    team = analysis.result["team"]
    # Not when done already (the row ran twice), nor when the second method ran out of time.
    if not team["exact"] and not team.get("sat_seconds"):
        settled = settle(new_game(options, deck=deck), TeamResult(**team), sat_time_limit(searched))
        result = {**analysis.result, "team": settled.to_dict()}
        DealAnalysis.objects.filter(pk=analysis.pk).update(result=result)
    analyse_turns(game)


def analyse_turns(game: Game) -> TurnAnalysis:
    """The reachable score at the start of each turn (games/analysis/turns.py), computed and
    stored once: a second run finds it and stores nothing."""
    stored = TurnAnalysis.objects.filter(game=game).first()
    if stored is not None:
        return stored
    record = replays.game_record(game, "")
    result = reachable_by_turn(record["options"], record["deck_source"], record["actions"])
    stored, _ = TurnAnalysis.objects.get_or_create(game=game, defaults={"result": result})
    return stored


def page_context(game: Game, names: list[str]) -> dict:
    """What the finished game's page shows: the analysis, or that it is on its way."""
    analysis = DealAnalysis.objects.filter(game=game).first()
    if analysis is None:
        return {"analysis": None, "analysis_pending": True}
    result = analysis.result
    team = result["team"]
    best_line = replay(game.game_options, game.deck_source, team["actions"])
    return {
        "analysis": result,
        "analysis_pending": False,
        "best_line": _history_in_words(best_line, names),
    }


def _history_in_words(state, names: list[str]) -> list[str]:
    """engine.history_text(state, names), in the active language (games/wording.py)."""
    return [
        wording.rearrangement_sentence(item, names)
        if type(item) is Rearrangement
        else wording.event_sentence(item, state, names)
        for item in timeline(state)
    ]


# Moves of the line the review names at a turn that lost points; the rest is "…".
LINE_SHOWN = 3


def review_context(game: Game, record: dict) -> dict:
    """For the review of a finished game (games/review.py): at each turn whose move lowered
    what a seeing team could still reach, a sentence saying what it could have reached and
    how, by turn number; or that the worker has not computed it yet."""
    stored = TurnAnalysis.objects.filter(game=game).first()
    if stored is None:
        return {"best_lines": {}, "best_lines_pending": True}
    lost = {entry["turn"]: entry for entry in stored.result["turns"] if entry["lost"]}
    sentences = {}
    names = record["names"]
    state = replay(record["options"], record["deck_source"], [])
    turn = 0
    for data in record["actions"]:
        action = action_from_dict(data)
        if not takes_turn(action):
            state.apply(action)
            continue
        turn += 1
        if turn in lost:
            sentences[turn] = _best_line_sentence(state, lost[turn], names)
        state.apply(action)
    return {"best_lines": sentences, "best_lines_pending": False}


def _best_line_sentence(state, entry: dict, names: list[str]) -> str:
    game = state.copy()
    moves = []
    for data in entry["line"][:LINE_SHOWN]:
        action = action_from_dict(data)
        moves.append(line_move(game, action, names))
        game.apply(action)
    # The sentence's end: a full stop, or "…" where the line goes on.
    end = " …" if len(entry["line"]) > LINE_SHOWN else "."
    here = _("Here the team could still reach %(best)s if %(moves)s") % {
        "best": entry["lower"],
        "moves": ", ".join(moves),
    }
    if entry["after_lower"] == entry["after_upper"]:
        after = _("After the move played: %(after)s.") % {"after": entry["after_upper"]}
    else:
        after = _("After the move played: at most %(after)s.") % {"after": entry["after_upper"]}
    return f"{here}{end} {after}"


def line_move(state, action, names: list[str]) -> str:
    """One move of a line as the review names moves, from the player's seat: who plays or
    discards which slot (and the card: the line sees every card), who clues whom what."""
    seat = state.current_seat
    player = names[seat] if seat < len(names) else f"player {seat + 1}"
    if type(action) is Clue:
        target = names[action.target] if action.target < len(names) else action.target
        if action.colour is not None:
            value = wording.colour_name(action.colour)
        else:
            value = wording.rank_clue(action.rank)
        return _("%(player)s clues %(target)s: %(value)s") % {
            "player": player,
            "target": target,
            "value": value,
        }
    card = state.card(action.card_id)
    words = {
        "player": player,
        "slot": list(state.hand(seat)).index(action.card_id) + 1,
        "card": wording.card_name(SUITS[card.suit], card.rank),
    }
    if type(action) is Play:
        return _("%(player)s plays slot %(slot)s (%(card)s)") % words
    return _("%(player)s discards slot %(slot)s (%(card)s)") % words
