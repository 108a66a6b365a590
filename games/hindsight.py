"""The hindsight analysis of a finished game's deal: computed once by a worker (an outbox
row written when the game ends) and shown on the game's replay pages."""

from django.conf import settings

from games import outbox_kinds
from games.analysis.deal import analyse
from games.engine import history_text, replay
from games.models import DealAnalysis, Game
from outbox.models import Outbox
from outbox.registry import handler


@handler(outbox_kinds.ANALYSIS)
def analyse_finished_game(row: Outbox) -> None:
    game = Game.objects.get(pk=row.payload["game"])
    if not game.is_finished():
        return  # a deal is analysed only once nobody can learn from it
    if DealAnalysis.objects.filter(game=game).exists():
        return  # done already: the row ran twice
    options = game.game_options
    deck = list(replay(options, game.deck_source, []).deck)
    result = analyse(options, deck, time_limit=settings.ANALYSIS_TIME_LIMIT_SECONDS)
    DealAnalysis.objects.get_or_create(game=game, defaults={"result": result})


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
        "best_line": history_text(best_line, names),
    }
