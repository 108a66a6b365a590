"""Two games ending at the same moment for the same people both count, whichever commits
first, and the streaks follow the order they committed in (on PostgreSQL, whose row locks
the figures rely on: players/stats.py; SQLite serialises every write anyway).

The order is forced, not left to the scheduler, as in tests/mailplay/test_race.py: the test
holds the players' profile rows (locked, or inserted and not yet committed) while the game
that must go first starts recording and blocks on them, then the other; then it lets go.
The two games seat the same people in opposite orders: each transaction still locks them
in the same order, so neither waits for the other in a circle (a deadlock)."""

import pytest
from django.db import transaction

from games.engine import End
from players.models import GameRecord, PartnerStats, PlayerProfile, VariantStats
from players.stats import record_finished_game
from tests.mailplay.test_race import Side, start_and_wait_until_blocked
from tests.players.helpers import finished_game

BLOCKED_WITHIN_SECONDS = 30


def recording(game) -> Side:
    def work() -> None:
        with transaction.atomic():
            record_finished_game(game)

    return Side(f"game {game.pk}", work)


def let_go_in_order(hold, first: Side, second: Side) -> None:
    """Within `hold` (a transaction holding the profile rows), start `first`, then `second`,
    each blocked; commit; wait for both."""
    with transaction.atomic():
        hold()
        start_and_wait_until_blocked(first)
        start_and_wait_until_blocked(second)
    for side in (first, second):
        side.join(BLOCKED_WITHIN_SECONDS)
        assert not side.is_alive(), side.name
        assert side.error is None, (side.name, side.error)


def assert_both_counted(people, won, lost) -> None:
    for user in people:
        stats = VariantStats.objects.get(user=user)
        assert (stats.played, stats.won, stats.total_score, stats.best_score) == (2, 1, 35, 25)
        partner = PartnerStats.objects.get(user=user)
        assert (partner.played, partner.won, partner.total_score) == (2, 1, 35)
        games = set(GameRecord.objects.filter(user=user).values_list("game_id", flat=True))
        assert games == {won.pk, lost.pk}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("first", ["won", "lost"])
def test_two_games_ending_at_once_both_count_in_the_order_they_commit(first, alice, bob):
    PlayerProfile.objects.bulk_create([PlayerProfile(user=alice), PlayerProfile(user=bob)])
    games = {
        "won": finished_game([alice, bob], 25, End.PERFECT, record=False),
        "lost": finished_game([bob, alice], 10, End.LAST_ROUND, record=False),
    }
    second = "lost" if first == "won" else "won"

    def hold() -> None:
        list(PlayerProfile.objects.select_for_update().order_by("user_id"))

    let_go_in_order(hold, recording(games[first]), recording(games[second]))

    assert_both_counted((alice, bob), games["won"], games["lost"])
    # Won then lost: no run now, a best of 1. Lost then won: a run of 1 now.
    expected = (0, 1) if first == "won" else (1, 1)
    for user in (alice, bob):
        profile = PlayerProfile.objects.get(user=user)
        assert (profile.current_streak, profile.best_streak) == expected


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_first_games_ending_at_once_both_count(alice, bob):
    """Neither player has a profile row yet: both transactions insert it; the one that comes
    second waits for the first's insert rather than failing on the unique key."""
    games = {
        "won": finished_game([alice, bob], 25, End.PERFECT, record=False),
        "lost": finished_game([bob, alice], 10, End.LAST_ROUND, record=False),
    }

    def hold() -> None:
        # Inserted, not committed: both sides' inserts wait for this transaction.
        PlayerProfile.objects.bulk_create([PlayerProfile(user=alice), PlayerProfile(user=bob)])

    let_go_in_order(hold, recording(games["won"]), recording(games["lost"]))

    assert_both_counted((alice, bob), games["won"], games["lost"])
    for user in (alice, bob):
        assert PlayerProfile.objects.get(user=user).best_streak == 1
