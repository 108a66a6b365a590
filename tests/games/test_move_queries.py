"""Issue 15: a move costs at most MOVE_QUERIES database queries.

What is counted: every statement the service call sends to the database, from the lock on the
game to the last outbox row, i.e. the move's transaction itself. Not counted:
- the SAVEPOINT / RELEASE SAVEPOINT that `transaction.atomic()` becomes inside a test's own
  transaction (in a request the same atomic block is the outermost one: BEGIN and COMMIT);
- what runs after the commit (the tasks of the outbox rows, which the tests' eager Celery
  would run in-process): the test's transaction never commits, so no on-commit callback runs
  while the queries are counted.
Before issue 15 a move made 9 such statements (a clue, a play, a discard, a bot's move) and
the last move of a game 3 + 6 + 2 per player (15 with three players; with the savepoints of
its keyed outbox rows, 6 more): the bound below fails at those. Now a move makes six: the
game locked, its seats (with their users), its moves' actions, the new Move, the summary and
the version in one UPDATE, and the outbox rows in one INSERT.
"""

import pytest

from games.engine import Clue, Discard, GameOptions, Play, action_to_dict
from games.models import Game, MadeBy, Move, Seat
from games.services import lobby, play
from outbox.models import Outbox
from tests.games.conftest import current_user, start_game
from tests.games.query_count import MOVE_QUERIES, Counted, counted


def submit(game: Game, action) -> tuple[Move, Counted]:
    game.refresh_from_db()
    user = current_user(game)
    return counted(lambda: play.submit_action(game.pk, user, action_to_dict(action), game.turn))


def first(game: Game, kind: type):
    game.refresh_from_db()
    return next(a for a in game.load_state().legal_actions() if isinstance(a, kind))


def rows_of(game: Game) -> list[tuple[str, dict]]:
    return list(
        Outbox.objects.filter(payload__game=game.pk).order_by("pk").values_list("kind", "payload")
    )


@pytest.fixture
def game(alice, bob, carol):
    return start_game(alice, bob, carol, turn_time_limit=24)


def test_a_clue_mid_game(game):
    submit(game, first(game, Clue))
    submit(game, first(game, Play))
    before = set(Outbox.objects.values_list("pk", flat=True))
    move, queries = submit(game, first(game, Clue))
    assert len(queries) <= MOVE_QUERIES, str(queries)
    assert move.turn == 2 and move.action["type"] == "clue" and move.made_by == MadeBy.PLAYER
    game.refresh_from_db()
    assert game.turn == 3 and game.current_seat == 0
    new = Outbox.objects.exclude(pk__in=before).order_by("pk")
    assert [row.kind for row in new] == ["your_turn", "reminder"]
    assert all(row.payload["turn"] == 3 for row in new)


def test_a_play(game):
    version = Game.objects.get(pk=game.pk).version
    move, queries = submit(game, first(game, Play))
    assert len(queries) <= MOVE_QUERIES, str(queries)
    game.refresh_from_db()
    assert move.action["type"] == "play" and game.turn == 1
    assert game.version == version + 1
    assert game.load_state().turn == 1


def test_a_discard(game):
    submit(game, first(game, Clue))
    move, queries = submit(game, first(game, Discard))
    assert len(queries) <= MOVE_QUERIES, str(queries)
    assert move.action["type"] == "discard"


def test_a_move_resets_the_players_timeouts_once(game):
    Seat.objects.filter(game=game, position=0).update(timeouts_in_a_row=2)
    move, queries = submit(game, first(game, Clue))
    assert len(queries) <= MOVE_QUERIES + 1, str(queries)  # the reset is one UPDATE
    assert Seat.objects.get(game=game, position=0).timeouts_in_a_row == 0


def test_the_last_move_of_a_game(game):
    while True:
        game.refresh_from_db()
        state = game.load_state()
        legal = state.legal_actions()
        action = next((a for a in legal if isinstance(a, Discard)), legal[0])
        after = state.copy()
        after.apply(action)
        if after.is_over:
            break
        submit(game, action)
    move, queries = submit(game, action)
    # The players' statistics are kept in the move's transaction (players/stats.py): four
    # upserts, whatever the number of players.
    assert len(queries) <= MOVE_QUERIES + 4, str(queries)
    game.refresh_from_db()
    assert game.is_finished() and game.finished_at is not None and game.turn_deadline is None
    kinds = [kind for kind, _ in rows_of(game)]
    assert kinds.count("analysis") == 1
    game_over = Outbox.objects.filter(kind="game_over", payload__game=game.pk)
    assert sorted(row.payload["user"] for row in game_over) == sorted(
        game.seats.values_list("user_id", flat=True)
    )


def test_a_bots_move(alice):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    lobby.set_bot(game.pk, alice, 1, True)
    lobby.set_bot(game.pk, alice, 2, True)
    lobby.start_game(game.pk, alice)
    game.refresh_from_db()
    if not game.seats.get(position=game.current_seat).is_bot:
        play.submit_action(game.pk, alice, action_to_dict(first(game, Clue)), game.turn)
        game.refresh_from_db()
    move, queries = counted(lambda: play.bot_move(game.pk, game.turn))
    assert len(queries) <= MOVE_QUERIES, str(queries)
    assert move is not None and move.made_by == MadeBy.BOT
