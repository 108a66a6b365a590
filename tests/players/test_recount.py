"""Over random finished games (variants, 2–6 players, people from a small pool with bots
in the other seats, scores and endings, finishing in a random order), the profile page
shows, for every player, variant and table size, exactly what a recount from the games
gives; and so does the rebuild."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games.engine import End
from players.rebuild import rebuild_all
from tests.players.helpers import figures_on_the_profile, finished_game, recount_from_games

POOL = 4
ENDS = [*[str(end) for end in End], "timed_out"]
VARIANTS = [{}, {"multicolour": 1}, {"multicolour": 3, "fuses": 1}, {"until_perfect": True}]


@st.composite
def a_game(draw) -> dict:
    size = draw(st.integers(2, 6))
    # A person (from the pool) or a bot (None) in each seat, no person twice.
    people = draw(st.lists(st.integers(0, POOL - 1), max_size=size, unique=True))
    seats = people + [None] * (size - len(people))
    variant = draw(st.sampled_from(VARIANTS))
    max_score = 30 if variant.get("multicolour") else 25
    score = draw(st.one_of(st.just(max_score), st.integers(0, max_score)))
    return {
        "seats": draw(st.permutations(seats)),
        "variant": variant,
        "score": score,
        "end": draw(st.sampled_from(ENDS)),
        "minute": draw(st.integers(0, 10_000)),
    }


@pytest.mark.slow
@pytest.mark.django_db
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(games=st.lists(a_game(), max_size=12))
def test_the_profile_equals_a_recount_from_the_games(games):
    # Each example in a savepoint rolled back at its end: the next starts from nothing.
    with transaction.atomic():
        pool = [
            User.objects.create_user(f"pool{n}@example.org", display_name=f"Pool {n}")
            for n in range(POOL)
        ]
        start = timezone.now() - timedelta(days=30)
        # Games end in the order of their minute (ties by creation): the streaks follow it.
        for game in sorted(games, key=lambda game: game["minute"]):
            finished_game(
                [pool[n] if n is not None else None for n in game["seats"]],
                game["score"],
                game["end"],
                finished_at=start + timedelta(minutes=game["minute"]),
                **game["variant"],
            )
        client = Client()
        client.force_login(pool[0])
        for user in pool:
            assert figures_on_the_profile(client, user) == recount_from_games(user), user
        rebuild_all()
        for user in pool:
            assert figures_on_the_profile(client, user) == recount_from_games(user), user
        transaction.set_rollback(True)
