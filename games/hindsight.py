"""The hindsight analysis of a finished game's deal: computed once by a worker (an outbox
row written when the game ends) and shown on the game's replay pages.

The seeing team's best score comes from a search with a time limit; when it leaves bounds
("at least X, at most Y"), they are stored at once, so that the page shows them, and the
second method (``games.analysis.team.settle``, a SAT formula) then closes them in the same
worker and stores the exact score in their place."""

from django.conf import settings

from games import outbox_kinds, wording
from games.analysis.deal import analyse
from games.analysis.team import TeamResult, settle
from games.engine import new_game, replay
from games.engine.history import timeline
from games.engine.state import Rearrangement
from games.models import DealAnalysis, Game
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
    if team["exact"] or team.get("sat_seconds"):
        return  # done already: the row ran twice (or the second method ran out of time)
    settled = settle(new_game(options, deck=deck), TeamResult(**team), sat_time_limit(searched))
    result = {**analysis.result, "team": settled.to_dict()}
    DealAnalysis.objects.filter(pk=analysis.pk).update(result=result)


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
