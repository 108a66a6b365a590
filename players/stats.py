"""The profile's figures, updated as a game ends, in the transaction that ends it.

Each table takes one statement, an upsert: INSERT … ON CONFLICT DO UPDATE SET played =
played + 1, best = GREATEST(best, this score), … Two games ending at once for the same
person both count: each adds to the row as it is when its statement gets the row's lock,
never to a value read earlier, and a row inserted meanwhile by the other makes this one's
insert wait for it and then update it. The rows of a statement are in the order of their
keys (person, then partner), so two transactions lock the rows they share in the same
order and never wait for each other in a circle (a deadlock). Four statements in all (three
for a game with one person), whatever the number of players.
"""

from collections.abc import Iterable
from itertools import permutations

from django.db import connection

from games.models import Game, Seat
from players.models import GameRecord, PartnerStats, PlayerProfile, VariantStats
from players.results import Result


def people_of(seats: Iterable[Seat]) -> list[int]:
    """The ids of the people at the table, sorted: a seat's user at the end played it (a
    seat a bot took over from a person still counts for that person); bots are not players."""
    return sorted({seat.user_id for seat in seats if seat.user_id is not None})


def record_finished_game(game: Game, seats: Iterable[Seat] | None = None) -> None:
    """Add a finished game to its players' figures (call inside the transaction that
    finished it). Aborted games, and games without people, count for nobody."""
    if game.status != Game.Status.FINISHED:
        return
    if seats is None:
        seats = game.seats.all()
    people = people_of(seats)
    if not people:
        return
    result = Result.of(game)
    _add_to_streaks(people, result)
    _add_to_variant_stats(game, people, result)
    _add_to_partner_stats(people, result)
    GameRecord.objects.bulk_create(record_rows(game, people, result))


def on_game_finished(sender, game: Game, seats=None, **kwargs) -> None:
    """games.signals.game_finished's receiver (connected in players/apps.py)."""
    record_finished_game(game, seats)


def _upsert(model, rows: list[tuple], keys: list[str], values: list[str], updates: str) -> None:
    """INSERT these rows (`keys` then `values` columns), or where a row's keys exist already,
    UPDATE it by `updates`, SQL in which {t} is the table (the stored row) and `excluded.x`
    the inserted row's x."""
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(keys + values)
    one_row = "(" + ", ".join(["%s"] * len(keys + values)) + ")"
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({columns}) VALUES {', '.join([one_row] * len(rows))} "
            f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates.format(t=table)}",
            [value for row in rows for value in row],
        )


def _greatest(a: str, b: str) -> str:
    """The larger of two SQL values (SQLite's MAX of two arguments is PostgreSQL's GREATEST)."""
    return f"{'MAX' if connection.vendor == 'sqlite' else 'GREATEST'}({a}, {b})"


def _add_to_streaks(people: list[int], result: Result) -> None:
    """A won game extends the current run (and the best, when it passes it); any other
    ends it. Both right-hand sides read the row as it was before this statement."""
    won = int(result.won)
    _upsert(
        PlayerProfile,
        [(user_id, won, won, False) for user_id in people],
        ["user_id"],
        ["current_streak", "best_streak", "hidden"],
        "current_streak = CASE WHEN excluded.current_streak > 0 "
        "THEN {t}.current_streak + 1 ELSE 0 END, "
        # excluded.best_streak is 1 for a won game: the run it extends, else 0.
        "best_streak = "
        + _greatest("{t}.best_streak", "{t}.current_streak + excluded.best_streak"),
    )


def _add_to_variant_stats(game: Game, people: list[int], result: Result) -> None:
    _upsert(
        VariantStats,
        [
            (
                user_id,
                game.variant,
                game.player_count,
                game.max_score,
                1,
                int(result.won),
                result.score,
                result.score,
                int(result.perfect),
                int(result.struck_out),
            )
            for user_id in people
        ],
        ["user_id", "variant", "player_count"],
        ["max_score", "played", "won", "total_score", "best_score", "perfect", "strikeouts"],
        "played = {t}.played + 1, won = {t}.won + excluded.won, "
        "total_score = {t}.total_score + excluded.total_score, "
        f"best_score = {_greatest('{t}.best_score', 'excluded.best_score')}, "
        "perfect = {t}.perfect + excluded.perfect, "
        "strikeouts = {t}.strikeouts + excluded.strikeouts",
    )


def _add_to_partner_stats(people: list[int], result: Result) -> None:
    if len(people) < 2:
        return
    _upsert(
        PartnerStats,
        [  # permutations of a sorted list come sorted: by person, then partner
            (user_id, partner_id, 1, int(result.won), result.score, result.score)
            for user_id, partner_id in permutations(people, 2)
        ],
        ["user_id", "partner_id"],
        ["played", "won", "total_score", "best_score"],
        "played = {t}.played + 1, won = {t}.won + excluded.won, "
        "total_score = {t}.total_score + excluded.total_score, "
        f"best_score = {_greatest('{t}.best_score', 'excluded.best_score')}",
    )


def record_rows(game: Game, people: list[int], result: Result) -> list[GameRecord]:
    return [
        GameRecord(
            user_id=user_id,
            game_id=game.pk,
            finished_at=game.finished_at,
            variant=game.variant,
            player_count=game.player_count,
            score=result.score,
            max_score=result.max_score,
            end=result.end,
            won=result.won,
            struck_out=result.struck_out,
        )
        for user_id in people
    ]
