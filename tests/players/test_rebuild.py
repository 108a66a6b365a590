"""`manage.py rebuild_player_stats` recomputes from the finished games exactly what the
incremental figures hold, keeps the hidden flags, and mends figures gone wrong."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.engine import End
from players.models import GameRecord, PartnerStats, PlayerProfile, VariantStats
from tests.conftest import make_user
from tests.players.helpers import finished_game


def everything() -> dict:
    return {
        "variants": sorted(
            VariantStats.objects.values_list(
                "user_id",
                "variant",
                "player_count",
                "max_score",
                "played",
                "won",
                "total_score",
                "best_score",
                "perfect",
                "strikeouts",
            )
        ),
        "partners": sorted(
            PartnerStats.objects.values_list(
                "user_id", "partner_id", "played", "won", "total_score", "best_score"
            )
        ),
        "profiles": sorted(
            PlayerProfile.objects.values_list("user_id", "hidden", "current_streak", "best_streak")
        ),
        "records": sorted(
            GameRecord.objects.values_list(
                "user_id",
                "game_id",
                "finished_at",
                "variant",
                "player_count",
                "score",
                "max_score",
                "end",
                "won",
                "struck_out",
            )
        ),
    }


def rebuild() -> str:
    out = StringIO()
    call_command("rebuild_player_stats", stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_rebuild_agrees_with_the_incremental_figures():
    people = [make_user(name) for name in ("ann", "ben", "cat", "dan", "eve")]
    ann, ben, cat, dan, eve = people
    start = timezone.now() - timedelta(days=3)
    tables = [
        ([ann, ben], {}),
        ([ben, cat, None], {"multicolour": 1}),
        ([ann, ben, cat, dan], {"fuses": 1}),
        ([eve, None, ann, dan, cat, ben], {}),
        ([None, None], {}),
        ([dan, eve, ann], {"until_perfect": True}),
        ([ann, ben], {}),
    ]
    n = 0
    for round_ in range(3):
        for table, options in tables:
            ends = [End.PERFECT, End.STRIKEOUT, End.LAST_ROUND, "timed_out"]
            end = ends[n % len(ends)]
            score = {End.PERFECT: None, End.STRIKEOUT: 0, "timed_out": 0}.get(end, 7 + round_)
            finished_game(table, score, end, finished_at=start + timedelta(minutes=n), **options)
            n += 1
    PlayerProfile.objects.filter(user=cat).update(hidden=True)
    incremental = everything()
    assert len(incremental["records"]) == 3 * 18  # the people at the seven tables
    assert "Rebuilt the statistics of 5 players" in rebuild()
    assert everything() == incremental


@pytest.mark.django_db
def test_the_rebuild_mends_figures_gone_wrong(alice, bob):
    finished_game([alice, bob], score=25)
    finished_game([alice, bob], score=12)
    right = everything()
    VariantStats.objects.update(played=99, best_score=1)
    PartnerStats.objects.all().delete()
    GameRecord.objects.filter(user=bob).delete()
    PlayerProfile.objects.update(best_streak=7)
    rebuild()
    assert everything() == right
