"""The profile's figures, updated as a game ends, in the transaction that ends it.

Two games ending at once for the same person must both count. Every figure is changed by an
UPDATE that adds to the stored value (F expressions), never by a value read earlier, and
the players' PlayerProfile rows are locked first, in the order of their ids: the two
transactions then take their turns person by person, and never wait for each other in
opposite orders (a deadlock). A missing row is created first with INSERT … ON CONFLICT DO
NOTHING, which waits for a concurrent insert of the same row rather than failing.
"""

from collections.abc import Iterable
from itertools import permutations

from django.db.models import F, Value
from django.db.models.functions import Greatest

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
    _lock_profiles(people)
    _add_to_streaks(people, result)
    _add_to_variant_stats(game, people, result)
    _add_to_partner_stats(people, result)
    GameRecord.objects.bulk_create(record_rows(game, people, result))


def on_game_finished(sender, game: Game, seats=None, **kwargs) -> None:
    """games.signals.game_finished's receiver (connected in players/apps.py)."""
    record_finished_game(game, seats)


def _lock_profiles(people: list[int]) -> None:
    PlayerProfile.objects.bulk_create(
        [PlayerProfile(user_id=user_id) for user_id in people], ignore_conflicts=True
    )
    # ORDER BY: PostgreSQL locks the rows in the order it returns them.
    list(
        PlayerProfile.objects.select_for_update()
        .filter(user_id__in=people)
        .order_by("user_id")
        .values_list("pk", flat=True)
    )


def _add_to_streaks(people: list[int], result: Result) -> None:
    profiles = PlayerProfile.objects.filter(user_id__in=people)
    if result.won:
        # Both right-hand sides read the row as it was: the new best is the old current + 1.
        profiles.update(
            current_streak=F("current_streak") + 1,
            best_streak=Greatest(F("best_streak"), F("current_streak") + 1),
        )
    else:
        profiles.update(current_streak=0)


def _add_to_variant_stats(game: Game, people: list[int], result: Result) -> None:
    where = {"variant": game.variant, "player_count": game.player_count}
    VariantStats.objects.bulk_create(
        [VariantStats(user_id=u, max_score=game.max_score, **where) for u in people],
        ignore_conflicts=True,
    )
    VariantStats.objects.filter(user_id__in=people, **where).update(
        played=F("played") + 1,
        won=F("won") + int(result.won),
        total_score=F("total_score") + result.score,
        best_score=Greatest(F("best_score"), Value(result.score)),
        perfect=F("perfect") + int(result.perfect),
        strikeouts=F("strikeouts") + int(result.struck_out),
    )


def _add_to_partner_stats(people: list[int], result: Result) -> None:
    if len(people) < 2:
        return
    PartnerStats.objects.bulk_create(
        [PartnerStats(user_id=u, partner_id=p) for u, p in permutations(people, 2)],
        ignore_conflicts=True,
    )
    # Every ordered pair of the table's people, and only those (user ≠ partner).
    PartnerStats.objects.filter(user_id__in=people, partner_id__in=people).update(
        played=F("played") + 1,
        won=F("won") + int(result.won),
        total_score=F("total_score") + result.score,
        best_score=Greatest(F("best_score"), Value(result.score)),
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
