"""Nothing lost, nothing twice (issue 13): a real worker is killed (SIGKILL) in the middle
of sending a game email, again and again, and every email still arrives; a copy that
arrives twice is the same message, Message-ID and all.

Each round starts a game, whose your-turn row a real Celery worker (prefork) sends to the
SMTP server of the test. The server keeps the message and holds back one reply; the pool
process that sends is killed while it waits for it; the row's lease is made to lapse and
the outbox sweep runs, as it would ten minutes later. Two places to be killed:

* "DATA": the server has the message and has not said so (as a real server that has queued
  it and not yet answered). Nobody can know it arrived: the row is sent again, and the
  reader's mail program sees the same Message-ID twice.
* "QUIT": the server has accepted the message and holds back its goodbye. The row was
  marked sent the moment the message was accepted: nothing is sent again.

OUTBOX_KILLS=20 (the default) rounds for each; the figures are printed (pytest -s) and in
bench/README.md ("Nothing lost, nothing twice: the outbox").
"""

import os
import re
import signal
import uuid
from collections import defaultdict
from datetime import timedelta

import pytest
from django.utils import timezone

from outbox import delivery
from outbox.models import Outbox
from tests.celery_helpers import (
    celery_config,
    celery_worker,
    child_processes,
    database_url_of_this_test,
    process_connected_from,
    redis_server,
    wait_for,
)
from tests.games.conftest import start_game
from tests.notifications.conftest import LocalSMTPServer

KILLS = int(os.environ.get("OUTBOX_KILLS", "20"))


def kill_the_sender(worker, client: tuple[str, int], smtp_server: LocalSMTPServer) -> None:
    """SIGKILL the worker's pool process that holds this SMTP connection."""
    _, port = client
    sender = process_connected_from(port, smtp_server.port, child_processes(worker))
    os.kill(sender, signal.SIGKILL)


def copies_per_row(smtp_server: LocalSMTPServer, rows: dict[int, Outbox]) -> dict[int, list]:
    """Each row's messages as the server received them (a game's row: its game's subject)."""
    by_game = defaultdict(list)
    for message in smtp_server.messages:
        game = int(re.fullmatch(r"Your turn in Hanabi game (\d+)", message["Subject"])[1])
        by_game[game].append(message)
    return {row.pk: by_game[row.payload["game"]] for row in rows.values()}


@pytest.mark.slow
@pytest.mark.postgres  # the worker, in its own process, shares the test's database
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("held", ["DATA", "QUIT"])
def test_a_worker_killed_mid_send_loses_nothing_and_a_resend_is_the_same_message(
    held, alice, bob, smtp_server: LocalSMTPServer, settings, capsys
):
    settings.NOTIFY_DELAY_SECONDS = 0
    queue = f"test-{uuid.uuid4().hex}"
    rows: dict[int, Outbox] = {}
    with redis_server() as redis:
        worker_env = {
            "DATABASE_URL": database_url_of_this_test(),
            "REDIS_URL": redis.url,
            "EMAIL_URL": smtp_server.email_url,
            "NOTIFY_DELAY_SECONDS": "0",
        }
        with (
            celery_config(
                task_always_eager=False,
                broker_url=redis.url,
                result_backend=redis.url,
                task_default_queue=queue,
            ),
            # Three pool processes: while the worker replaces the one killed, the others
            # carry on (the resend, the next round).
            celery_worker(queue, pool="prefork", concurrency=3, **worker_env) as worker,
        ):
            for _ in range(KILLS):
                smtp_server.hold_next_reply_to(held)
                game = start_game(alice, bob)  # its row is enqueued after commit
                row = Outbox.objects.get(kind="your_turn", payload__game=game.pk)
                rows[row.pk] = row
                client = smtp_server.wait_until_holding()
                kill_the_sender(worker, client, smtp_server)
                smtp_server.release()

                # Ten minutes later: the lease has lapsed and the sweep runs.
                lapsed = timezone.now() - delivery.CLAIM_LEASE - timedelta(seconds=1)
                Outbox.objects.filter(pk=row.pk, done_at=None).update(claimed_at=lapsed)
                delivery.sweep_outbox()
                wait_for(lambda row=row: Outbox.objects.get(pk=row.pk).done_at is not None)
            assert delivery.sweep_outbox() == 0

    copies = copies_per_row(smtp_server, rows)
    lost = sum(1 for messages in copies.values() if not messages)
    twice = [messages for messages in copies.values() if len(messages) > 1]
    same_id = sum(1 for messages in twice if len({m["Message-ID"] for m in messages}) == 1)
    with capsys.disabled():
        print(
            f"\nworker killed while the server held its {held} reply, {KILLS} times: "
            f"{lost} emails lost, {len(twice)} received twice "
            f"({same_id} of them with the same Message-ID both times)"
        )
    assert lost == 0
    for pk, messages in copies.items():
        assert {m["Message-ID"] for m in messages} == {Outbox.objects.get(pk=pk).message_id()}
    if held == "QUIT":
        assert twice == []  # marked sent the moment it was accepted
    else:
        assert len(twice) == KILLS  # inevitable: the server had it and never said so
