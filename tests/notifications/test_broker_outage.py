"""A move answers at once whatever the broker's state, and nothing is lost (issue 13): with
Redis stopped, the move commits and its page comes back at once; its email goes out, once,
when Redis and a worker are back and the outbox sweep finds the row.

Redis here is a server of the test's own, killed and started again on the same port; the
site's Celery app is pointed at it with the configuration settings.py gives any REDIS_URL.
"""

import time
import uuid

import pytest
from django.conf import settings as django_settings

from games.engine import action_to_dict
from games.models import Game
from outbox import delivery
from outbox.models import Outbox
from tests.celery_helpers import (
    celery_config,
    celery_worker,
    database_url_of_this_test,
    redis_server,
    wait_for,
)
from tests.games.conftest import current_user, start_game
from tests.notifications.conftest import LocalSMTPServer


def first_clue_form(game: Game) -> dict:
    """The move form's fields for the first legal clue."""
    state = game.load_state()
    clue = action_to_dict(next(a for a in state.legal_actions() if type(a).__name__ == "Clue"))
    value = {"colour": clue["colour"]} if "colour" in clue else {"rank": clue["rank"]}
    return {"turn": game.turn, "kind": "clue", "target": clue["target"], **value}


def your_turn_emails_to(smtp_server: LocalSMTPServer, address: str) -> list:
    return [
        message
        for message in smtp_server.messages
        if message["To"] == address and message["Subject"].startswith("Your turn")
    ]


@pytest.mark.slow
@pytest.mark.postgres  # the worker, in its own process, shares the test's database
@pytest.mark.django_db(transaction=True)
def test_a_move_answers_at_once_with_redis_stopped_and_its_email_goes_out_once_it_is_back(
    client, alice, bob, smtp_server: LocalSMTPServer, settings
):
    settings.NOTIFY_DELAY_SECONDS = 0
    queue = f"test-{uuid.uuid4().hex}"
    with redis_server() as redis:
        site_config = celery_config(
            task_always_eager=False,
            broker_url=redis.url,
            result_backend=redis.url,
            task_default_queue=queue,
        )
        with site_config:
            # The settings' fail-fast options, as production gets them.
            assert django_settings.BROKER_FAIL_FAST.items() <= (
                delivery.run_row.app.conf.broker_transport_options.items()
            )
            # The web process has been talking to Redis: its pools hold live connections.
            game = start_game(alice, bob)
            first, second = (
                current_user(game),
                game.seats.exclude(position=game.current_seat).get().user,
            )

            # A web process that has served pages already (URLs resolved, templates loaded):
            # what is measured below is the broker's share of a move.
            client.force_login(first)
            assert client.get(f"/games/{game.pk}/").status_code == 200

            redis.stop()
            seconds = []
            for player in (first, second):
                # Each move tries the broker, as it would once the outbox's pause after a
                # failure (BROKER_PAUSE_SECONDS) has passed: the second try is the one that
                # used to wait longest, on the pools' dead connections.
                delivery.forget_broker_failure()
                client.force_login(player)
                form = first_clue_form(game)
                started = time.monotonic()
                response = client.post(f"/games/{game.pk}/move/", form)
                seconds.append(time.monotonic() - started)
                assert response.status_code == 302
                game.refresh_from_db()

            print(f"moves with Redis stopped: {seconds}")
            assert max(seconds) < 1.0, f"each move must answer at once: {seconds} s"
            assert game.turn == 2  # both moves are committed all the same
            row = Outbox.objects.get(kind="your_turn", payload__turn=2)
            assert row.done_at is None and row.attempts == 0

            redis.start()
            worker_env = {
                "DATABASE_URL": database_url_of_this_test(),
                "REDIS_URL": redis.url,
                "EMAIL_URL": smtp_server.email_url,
                "NOTIFY_DELAY_SECONDS": "0",
            }
            with celery_worker(queue, **worker_env):
                # The beat's sweep, run here so that it enqueues on the test's queue.
                assert delivery.sweep_outbox() >= 1
                wait_for(lambda: not Outbox.objects.filter(done_at=None).exists())
                assert delivery.sweep_outbox() == 0
    # The rows of turns 0 and 1 find their turn played and send nothing; turn 2's is sent.
    assert len(your_turn_emails_to(smtp_server, first.email)) == 1
    assert your_turn_emails_to(smtp_server, second.email) == []
