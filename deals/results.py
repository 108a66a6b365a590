"""What a deal's page and the lobby's weekly deal show of it: the finished tables' results,
the bots' scores and the best score a team that saw every card could reach. No card."""

from django.utils.translation import gettext_lazy

from deals.models import DEAL_BOT_KINDS, Deal, DealBotScore
from games.models import BotKind, DealAnalysis, Game

# Each bot's name on the deal's page (its BotKind label up to the colon), in the reader's
# language.
BOT_NAMES = {
    BotKind.HOUSE: gettext_lazy("House bot"),
    BotKind.EXPERT: gettext_lazy("Expert bot (hat guessing)"),
}


def finished_games(deal: Deal) -> list[dict]:
    """Every finished game on the deal, best score first: its team and score."""
    games = (
        Game.objects.filter(shared_deal__deal=deal, status=Game.Status.FINISHED)
        .prefetch_related("seats__user")
        .order_by("-score", "finished_at")
    )
    return [
        {
            "game": game,
            "team": [seat.name for seat in sorted(game.seats.all(), key=lambda s: s.position)],
        }
        for game in games
    ]


def open_tables(deal: Deal) -> list[Game]:
    """Tables on the deal, open in the lobby, waiting for players."""
    return list(
        Game.objects.filter(
            shared_deal__deal=deal,
            status=Game.Status.OPEN,
            visibility=Game.Visibility.PUBLIC,
        )
        .select_related("creator")
        .order_by("created_at")
    )


def bot_scores(deal: Deal) -> list[dict]:
    """Each bot kind's score on the deal, or None while its table is being played."""
    stored = {row.bot_kind: row for row in DealBotScore.objects.filter(deal=deal)}
    return [
        {"kind": kind, "label": BOT_NAMES.get(kind, label.split(":")[0]), "score": stored.get(kind)}
        for kind, label in ((kind, kind.label) for kind in DEAL_BOT_KINDS)
    ]


def best_score(deal: Deal) -> dict | None:
    """The seeing team's best score (games/hindsight.py's DealAnalysis of a game on the
    deal, exact if one is), or None until one has been worked out."""
    results = [
        analysis.result["team"]
        for analysis in DealAnalysis.objects.filter(game__shared_deal__deal=deal)
    ]
    if not results:
        return None
    exact = [team for team in results if team.get("exact")]
    if exact:
        return exact[0]
    return max(results, key=lambda team: (team["lower"], -team["upper"]))


def of(deal: Deal) -> dict:
    bots = bot_scores(deal)
    return {
        "finished": finished_games(deal),
        "bots": bots,
        "bots_pending": any(bot["score"] is None for bot in bots),
        "best": best_score(deal),
        "max_score": deal.game_options.max_score,
    }
