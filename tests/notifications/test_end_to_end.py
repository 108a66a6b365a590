"""The whole way, for real: a move commits, its task goes through Redis to a Celery worker
in another process, and the worker emails the next player through an SMTP server."""

import uuid

import pytest

from games.engine import action_to_dict
from games.services import play
from tests.celery_helpers import (
    celery_config,
    celery_worker,
    database_url_of_this_test,
    wait_for,
)
from tests.games.conftest import current_user, play_to_the_end, start_game
from tests.notifications.conftest import LocalSMTPServer


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_emails_each_player_in_turn_and_everyone_at_the_end(
    smtp_server: LocalSMTPServer, alice, bob, settings
):
    settings.NOTIFY_DELAY_SECONDS = 0
    queue = f"test-{uuid.uuid4().hex}"
    worker_env = {
        "DATABASE_URL": database_url_of_this_test(),
        "EMAIL_URL": smtp_server.email_url,
        "NOTIFY_DELAY_SECONDS": "0",
    }
    with (
        celery_worker(queue, **worker_env),
        celery_config(task_always_eager=False, task_default_queue=queue),
    ):
        game = start_game(alice, bob)
        first = current_user(game)
        wait_for(lambda: len(smtp_server.messages) == 1)
        assert smtp_server.messages[0]["To"] == first.email
        assert smtp_server.messages[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

        state = game.load_state()
        clue = next(a for a in state.legal_actions() if type(a).__name__ == "Clue")
        play.submit_action(game.pk, first, action_to_dict(clue), 0)
        second = current_user(game)
        wait_for(lambda: len(smtp_server.messages) == 2)
        assert smtp_server.messages[1]["To"] == second.email
        assert "Since your last turn:" in smtp_server.messages[1].get_body(("plain",)).get_content()

        play_to_the_end(game)
        wait_for(lambda: sum("is over" in m["Subject"] for m in smtp_server.messages) == 2)
    over = [m for m in smtp_server.messages if "is over" in m["Subject"]]
    assert sorted(m["To"] for m in over) == sorted([alice.email, bob.email])
