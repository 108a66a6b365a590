"""Every profile's figures recomputed from the finished games, and written in place of the
stored ones (`manage.py rebuild_player_stats`): after a change to what a figure means, or to
check the incremental figures (tests/players/test_rebuild.py). The hidden flags are kept.

The counting is done by the database (INSERT … SELECT … GROUP BY): a hundred thousand
games make a million partner rows, too many to count and build as Python objects. Its SQL
says what players/results.py says (won: the maximum score; struck out, perfect: the
recorded end); the tests hold the two to the same recount. Streaks follow the games in the
order they finished (finished_at, then id): the order the incremental figures saw them in,
unless two ended at once.
"""

from dataclasses import dataclass

from django.db import connection, transaction

from games.engine import End
from games.models import Game, Seat
from players.models import GameRecord, PartnerStats, PlayerProfile, VariantStats

BATCH = 5000


@dataclass
class Rebuilt:
    people: int
    records: int


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _insert_records(cursor) -> None:
    """A GameRecord per person per finished game."""
    cursor.execute(
        f"""
        INSERT INTO {_table(GameRecord)}
            (user_id, game_id, finished_at, variant, player_count, score, max_score, "end",
             won, struck_out)
        SELECT s.user_id, g.id, g.finished_at, g.variant, g.player_count, g.score,
               g.max_score, g."end", g.score = g.max_score, g."end" = %s
        FROM {_table(Game)} g JOIN {_table(Seat)} s ON s.game_id = g.id
        WHERE g.status = %s AND s.user_id IS NOT NULL
        """,
        [str(End.STRIKEOUT), Game.Status.FINISHED],
    )


def _insert_variant_stats(cursor) -> None:
    cursor.execute(
        f"""
        INSERT INTO {_table(VariantStats)}
            (user_id, variant, player_count, max_score, played, won, total_score,
             best_score, perfect, strikeouts)
        SELECT user_id, variant, player_count, MAX(max_score), COUNT(*),
               SUM(CASE WHEN won THEN 1 ELSE 0 END), SUM(score), MAX(score),
               SUM(CASE WHEN "end" = %s THEN 1 ELSE 0 END),
               SUM(CASE WHEN struck_out THEN 1 ELSE 0 END)
        FROM {_table(GameRecord)}
        GROUP BY user_id, variant, player_count
        """,
        [str(End.PERFECT)],
    )


def _insert_partner_stats(cursor) -> None:
    """Every ordered pair of people at a table: a person's record, and each other person's."""
    cursor.execute(
        f"""
        INSERT INTO {_table(PartnerStats)}
            (user_id, partner_id, played, won, total_score, best_score)
        SELECT mine.user_id, theirs.user_id, COUNT(*),
               SUM(CASE WHEN mine.won THEN 1 ELSE 0 END), SUM(mine.score), MAX(mine.score)
        FROM {_table(GameRecord)} mine
        JOIN {_table(GameRecord)} theirs
            ON theirs.game_id = mine.game_id AND theirs.user_id <> mine.user_id
        GROUP BY mine.user_id, theirs.user_id
        """
    )


def _streaks() -> dict[int, tuple[int, int]]:
    """(current, best) run of won games per person, over their records in order."""
    streaks: dict[int, tuple[int, int]] = {}
    results = (
        GameRecord.objects.order_by("user_id", "finished_at", "game_id")
        .values_list("user_id", "won")
        .iterator(chunk_size=BATCH)
    )
    for user_id, won in results:
        current, best = streaks.get(user_id, (0, 0))
        current = current + 1 if won else 0
        streaks[user_id] = (current, max(best, current))
    return streaks


def rebuild_all() -> Rebuilt:
    """Replace every stored figure by the recount, in one transaction.

    On PostgreSQL the profiles' table is locked first (EXCLUSIVE: reads go on, writes wait):
    every game ending with people at its table writes to it (players/stats.py), so a game
    that ended before the lock has committed and is counted, and one that ends meanwhile
    waits for the rebuild and then adds itself to the rebuilt figures; none is counted twice
    or lost."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"LOCK TABLE {_table(PlayerProfile)} IN EXCLUSIVE MODE")
        for model in (PartnerStats, VariantStats, GameRecord):
            cursor.execute(f"DELETE FROM {_table(model)}")
        _insert_records(cursor)
        _insert_variant_stats(cursor)
        _insert_partner_stats(cursor)
        streaks = _streaks()
        PlayerProfile.objects.update(current_streak=0, best_streak=0)
        PlayerProfile.objects.bulk_create(
            (
                PlayerProfile(user_id=user_id, current_streak=current, best_streak=best)
                for user_id, (current, best) in streaks.items()
            ),
            update_conflicts=True,
            unique_fields=["user"],
            update_fields=["current_streak", "best_streak"],
            batch_size=BATCH,
        )
        return Rebuilt(people=len(streaks), records=GameRecord.objects.count())
