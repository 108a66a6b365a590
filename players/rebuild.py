"""Every profile's figures recomputed from the finished games, and written in place of the
stored ones (`manage.py rebuild_player_stats`): after a change to what a figure means, or to
check the incremental figures (tests/players/test_rebuild.py). The hidden flags are kept.

Streaks follow the games in the order they finished (finished_at, then id): the order the
incremental figures saw them in, unless two ended at once.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import permutations

from django.db import connection, transaction

from games.models import Game, Seat
from players.models import GameRecord, PartnerStats, PlayerProfile, VariantStats
from players.results import Result
from players.stats import record_rows

BATCH = 5000


@dataclass
class Tally:
    played: int = 0
    won: int = 0
    total_score: int = 0
    best_score: int = 0
    perfect: int = 0
    strikeouts: int = 0

    def add(self, result: Result) -> None:
        self.played += 1
        self.won += result.won
        self.total_score += result.score
        self.best_score = max(self.best_score, result.score)
        self.perfect += result.perfect
        self.strikeouts += result.struck_out


@dataclass
class Streak:
    current: int = 0
    best: int = 0

    def add(self, won: bool) -> None:
        self.current = self.current + 1 if won else 0
        self.best = max(self.best, self.current)


@dataclass
class Recount:
    variants: dict = field(default_factory=lambda: defaultdict(Tally))  # (user, variant, n)
    max_scores: dict = field(default_factory=dict)  # (user, variant, n) -> max score
    partners: dict = field(default_factory=lambda: defaultdict(Tally))  # (user, partner)
    streaks: dict = field(default_factory=lambda: defaultdict(Streak))  # user
    records: list = field(default_factory=list)


def recount() -> Recount:
    """The figures of every person, from the finished games (two queries)."""
    people_by_game = defaultdict(set)
    seats = Seat.objects.filter(game__status=Game.Status.FINISHED, user__isnull=False)
    for game_id, user_id in seats.values_list("game_id", "user_id").iterator(chunk_size=BATCH):
        people_by_game[game_id].add(user_id)
    games = Game.objects.filter(status=Game.Status.FINISHED).order_by("finished_at", "pk")
    counted = Recount()
    for game in games.only(*RECORDED_FIELDS).iterator(chunk_size=BATCH):
        people = sorted(people_by_game.get(game.pk, ()))
        result = Result.of(game)
        for user_id in people:
            key = (user_id, game.variant, game.player_count)
            counted.variants[key].add(result)
            counted.max_scores[key] = game.max_score
            counted.streaks[user_id].add(result.won)
        for pair in permutations(people, 2):
            counted.partners[pair].add(result)
        counted.records += record_rows(game, people, result)
    return counted


RECORDED_FIELDS = ["pk", "finished_at", "variant", "player_count", "score", "max_score", "end"]


def rebuild_all() -> Recount:
    """Replace every stored figure by the recount, in one transaction.

    On PostgreSQL the profiles' table is locked first (EXCLUSIVE: reads go on, writes wait):
    every game ending with people at its table writes to it (players/stats.py), so a game
    that ended before the lock has committed and is counted, and one that ends meanwhile
    waits for the rebuild and then adds itself to the rebuilt figures; none is counted twice
    or lost."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {PlayerProfile._meta.db_table} IN EXCLUSIVE MODE")
        counted = recount()
        GameRecord.objects.all().delete()
        VariantStats.objects.all().delete()
        PartnerStats.objects.all().delete()
        GameRecord.objects.bulk_create(counted.records, batch_size=BATCH)
        VariantStats.objects.bulk_create(
            (
                VariantStats(
                    user_id=user_id,
                    variant=variant,
                    player_count=count,
                    max_score=counted.max_scores[user_id, variant, count],
                    **vars(tally),
                )
                for (user_id, variant, count), tally in counted.variants.items()
            ),
            batch_size=BATCH,
        )
        PartnerStats.objects.bulk_create(
            (
                PartnerStats(
                    user_id=user_id,
                    partner_id=partner_id,
                    played=tally.played,
                    won=tally.won,
                    total_score=tally.total_score,
                    best_score=tally.best_score,
                )
                for (user_id, partner_id), tally in counted.partners.items()
            ),
            batch_size=BATCH,
        )
        PlayerProfile.objects.update(current_streak=0, best_streak=0)
        PlayerProfile.objects.bulk_create(
            (
                PlayerProfile(user_id=user_id, current_streak=s.current, best_streak=s.best)
                for user_id, s in counted.streaks.items()
            ),
            update_conflicts=True,
            unique_fields=["user"],
            update_fields=["current_streak", "best_streak"],
            batch_size=BATCH,
        )
    return counted
