"""Finished games made cheaply, straight through the ORM, and added to their players'
figures by the function the game_finished receiver calls; and a recount from the games
alone, the oracle the stored figures are checked against."""

from collections import defaultdict
from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.engine import End, GameOptions
from games.models import Game, Seat
from players.rebuild import rebuild_all
from players.stats import record_finished_game

START = datetime(2026, 1, 1, 12, tzinfo=UTC)


def finished_game(
    people: list[User | None],
    score: int | None = None,
    end: str = End.LAST_ROUND,
    finished_at: datetime | None = None,
    visibility: str = Game.Visibility.INVITE,
    record: bool = True,
    **options,
) -> Game:
    """A finished game with these people in seats 0, 1, … (None: a bot's seat), added to
    their figures in its own transaction step, as the move that ends it does."""
    game_options = GameOptions(players=len(people), **options)
    real = [user for user in people if user is not None]
    game = Game(
        options=game_options.to_dict(),
        status=Game.Status.FINISHED,
        visibility=visibility,
        creator=real[0] if real else User.objects.first(),
        score=game_options.max_score if score is None else score,
        max_score=game_options.max_score,
        end=str(end),
        finished_at=finished_at or timezone.now(),
        turn=10,
    )
    game.save()
    Seat.objects.bulk_create(
        Seat(game=game, position=n, user=user, is_bot=user is None) for n, user in enumerate(people)
    )
    if record:
        with transaction.atomic():
            record_finished_game(game)
    return game


def many_finished_games(people: list[User], count: int) -> None:
    """`count` finished games of these people, bulk-created, then every figure recounted
    (players/rebuild.py: a few queries in all, where adding each game takes a few each)."""
    options = GameOptions(players=len(people))
    now = timezone.now()
    games = Game.objects.bulk_create(
        Game(
            options=options.to_dict(),
            player_count=options.players,
            variant=options.variant_name(),
            status=Game.Status.FINISHED,
            creator=people[0],
            score=n % (options.max_score + 1),
            max_score=options.max_score,
            end=End.STRIKEOUT if n % 7 == 0 else End.LAST_ROUND,
            finished_at=now - timedelta(minutes=count - n),
        )
        for n in range(count)
    )
    Seat.objects.bulk_create(
        Seat(game=game, position=n, user=user) for game in games for n, user in enumerate(people)
    )
    rebuild_all()


def recount_from_games(user: User) -> dict:
    """What `user`'s figures must be, from the finished games alone: per (variant, players)
    played, won, total, best, perfect, strike-outs; per partner played, won, total, best;
    the streaks; written independently of players/ so that it can catch its mistakes."""
    games = (
        Game.objects.filter(status=Game.Status.FINISHED, seats__user=user)
        .order_by("finished_at", "pk")
        .prefetch_related("seats")
    )
    cells: dict = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    partners: dict = defaultdict(lambda: [0, 0, 0, 0])
    current = best = 0
    for game in games:
        won = game.score == game.max_score
        cell = cells[game.variant, game.player_count]
        cell[0] += 1
        cell[1] += won
        cell[2] += game.score
        cell[3] = max(cell[3], game.score)
        cell[4] += game.end == "perfect"
        cell[5] += game.end == "strikeout"
        others = {seat.user_id for seat in game.seats.all() if seat.user_id} - {user.pk}
        for other in others:
            partner = partners[other]
            partner[0] += 1
            partner[1] += won
            partner[2] += game.score
            partner[3] = max(partner[3], game.score)
        current = current + 1 if won else 0
        best = max(best, current)
    return {
        "cells": {key: tuple(value) for key, value in cells.items()},
        "partners": {key: tuple(value) for key, value in partners.items()},
        "streaks": (current, best),
    }


def figures_on_the_profile(client, user: User) -> dict:
    """The same figures as the profile page shows them (its template's context)."""
    response = client.get(f"/players/{user.pk}/")
    assert response.status_code == 200
    cells = {
        (row.variant, stats.player_count): (
            stats.played,
            stats.won,
            stats.total_score,
            stats.best_score,
            stats.perfect,
            stats.strikeouts,
        )
        for row in response.context["variant_rows"]
        for stats in row.cells
        if stats is not None
    }
    partners = {
        stats.partner_id: (stats.played, stats.won, stats.total_score, stats.best_score)
        for stats in response.context["partners"]
    }
    profile = response.context["profile"]
    return {
        "cells": cells,
        "partners": partners,
        "streaks": (profile.current_streak, profile.best_streak),
    }
