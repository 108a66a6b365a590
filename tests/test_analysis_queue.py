"""A queue per kind of work (issue 24): the deal analysis of finished games runs on a queue
and a worker of its own, so that a bot's move never waits behind it.

Real workers, as the Procfile runs them: one on the default queue, one on the analysis
queue, both sharing the test's database and the test's own queues on Redis. Four games end
at once, each leaving an analysis that takes ANALYSIS_TIME_LIMIT_SECONDS (a deal the search
cannot settle); then a bot's move falls due. It must be made before the first analysis is
done: on one queue it would wait behind all four.
"""

import uuid
from datetime import timedelta

import pytest

from games.engine import GameOptions, Play, action_to_dict, new_deck
from games.models import Game
from games.services import lobby, play
from games.tasks import ping
from outbox.models import Outbox
from tests.celery_helpers import (
    celery_config,
    celery_worker,
    database_url_of_this_test,
    wait_for,
)
from tests.games.conftest import current_user, start_game

ANALYSIS_SECONDS = 4


def unsettled_deck() -> list[list]:
    """Every 1 at the bottom of the deck: the team search cannot settle the best score
    within seconds (tests/games/test_deal_analysis.py), so each analysis takes its time
    limit. And no 1 in a starting hand: every play misfires, three end the game."""
    deck = new_deck(GameOptions(players=2), 5)
    return [
        list(card) for card in [c for c in deck if c.rank != 1] + [c for c in deck if c.rank == 1]
    ]


def all_but_the_last_move(game: Game) -> dict:
    """Two misplays; the third, which ends the game, is returned to be made later."""
    for _ in range(3):
        game.refresh_from_db()
        state = game.load_state()
        misplay = action_to_dict(Play(state.hand(state.current_seat)[0]))
        if state.fuses_left == 1:
            return misplay
        play.submit_action(game.pk, current_user(game), misplay, game.turn)
    raise AssertionError("the game should be one misplay from its end")


def game_with_a_bot_to_move_next(alice) -> Game:
    """Alice against a bot, Alice to move: her move makes the bot's due."""
    game = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.INVITE, bots=1)
    lobby.start_game(game.pk, alice)  # if the bot moves first, it does so here (eager tasks)
    game.refresh_from_db()
    assert current_user(game) == alice
    return game


def worker_ready(queue: str) -> None:
    token = uuid.uuid4().hex
    assert ping.apply_async([token], queue=queue).get(timeout=60) == token


@pytest.mark.slow
@pytest.mark.postgres  # the workers, in their own processes, share the test's database
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_bot_moves_while_four_analyses_run_on_their_own_queue(alice, bob, settings):
    settings.BOT_MOVE_DELAY_SECONDS = 0
    settings.NOTIFY_DELAY_SECONDS = 3600  # turn emails left to the sweep: not part of this
    deck = unsettled_deck()
    endings = []
    for _ in range(4):
        game = start_game(alice, bob, deck=deck)
        endings.append((game, all_but_the_last_move(game)))
    bot_game = game_with_a_bot_to_move_next(alice)

    queue = f"test-{uuid.uuid4().hex}"
    worker_env = {
        "DATABASE_URL": database_url_of_this_test(),
        "CELERY_QUEUE": queue,
        "EMAIL_URL": "dummymail://",  # the game-over emails, sent and dropped
        "ANALYSIS_TIME_LIMIT_SECONDS": str(ANALYSIS_SECONDS),
        "NOTIFY_DELAY_SECONDS": "3600",
    }
    with (
        celery_config(task_always_eager=False, task_default_queue=queue),
        celery_worker(queue, **worker_env),
        celery_worker(f"{queue}-analysis", **worker_env),
    ):
        worker_ready(queue)
        worker_ready(f"{queue}-analysis")
        for game, last_move in endings:
            play.submit_action(game.pk, current_user(game), last_move, game.turn)
        state = bot_game.load_state()
        clue = next(a for a in state.legal_actions() if type(a).__name__ == "Clue")
        play.submit_action(bot_game.pk, alice, action_to_dict(clue), bot_game.turn)

        analyses = Outbox.objects.filter(kind="analysis")
        bot_turn = {"game": bot_game.pk, "turn": bot_game.turn + 1}
        bot_move = Outbox.objects.get(kind="bot_move", payload=bot_turn)
        wait_for(lambda: Outbox.objects.get(pk=bot_move.pk).done_at is not None, seconds=60)
        wait_for(lambda: analyses.exclude(done_at=None).exists(), seconds=60)

    bot_move.refresh_from_db()
    assert bot_game.moves.filter(made_by="bot").exists()
    first = analyses.exclude(done_at=None).order_by("done_at").first()
    assert analyses.count() == 4
    # Each analysis genuinely runs for its time limit (it is what the bot could wait behind)
    assert first.done_at - first.claimed_at >= timedelta(seconds=ANALYSIS_SECONDS * 0.75)
    # and the bot did not wait behind any of them.
    assert bot_move.done_at < first.done_at, (
        f"the bot moved {bot_move.done_at - bot_move.created_at} after its turn came, "
        f"the first analysis was done {first.done_at - bot_move.created_at} after it"
    )
