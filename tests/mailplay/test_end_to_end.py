"""The whole way, for real: turn emails go out over SMTP, each player answers one by
replying over SMTP to the built-in receiver (its own process), a real Celery worker makes
the moves, and every reply is answered."""

import email
import email.policy
import os
import re
import smtplib
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage

import pytest

from games.models import Game, Move
from mailplay.models import InboundMessage
from tests.celery_helpers import (
    ROOT,
    celery_config,
    celery_worker,
    database_url_of_this_test,
    free_port,
    wait_for,
    wait_for_port,
)
from tests.games.conftest import current_user, start_game
from tests.mailplay.conftest import reply
from tests.notifications.conftest import LocalSMTPServer, smtp_server  # noqa: F401


@contextmanager
def receiver_process(port: int, **env: str) -> Iterator[subprocess.Popen]:
    """`python manage.py receive_mail` in its own process, listening on `port`."""
    process = subprocess.Popen(
        [sys.executable, "manage.py", "receive_mail", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "true", **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_for_port(port, process, "the receiver")
        yield process
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=30)
        print(output)


def turn_emails_to(server: LocalSMTPServer, address: str) -> list[EmailMessage]:
    return [
        m for m in server.messages if m["To"] == address and m["Subject"].startswith("Your turn")
    ]


def example_commands(message: EmailMessage) -> list[str]:
    """The commands the email offers (the lines under "Reply to this email with…")."""
    text = message.get_body(("plain",)).get_content()
    block = text.split("Reply to this email with one command:", 1)[1]
    return re.findall(r"^  (\S.*)$", block.split("Commands:", 1)[0], re.MULTILINE)


TRUSTED_MTA = "mx.hanabi.test"


def vouched_for(raw: bytes) -> bytes:
    """The reply as the trusted server hands it on, its DMARC verdict on top."""
    sender = email.message_from_bytes(raw, policy=email.policy.default)["From"].addresses[0]
    verdict = f"Authentication-Results: {TRUSTED_MTA}; dmarc=pass header.from={sender.domain}"
    return verdict.encode() + b"\r\n" + raw


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_replies_over_smtp_to_the_receiver_are_moved_by_a_real_worker(
    smtp_server: LocalSMTPServer,  # noqa: F811
    alice,
    bob,
    carol,
    settings,
):
    settings.NOTIFY_DELAY_SECONDS = 0
    queue = f"test-{uuid.uuid4().hex}"
    port = free_port()
    env = {
        "DATABASE_URL": database_url_of_this_test(),
        "EMAIL_URL": smtp_server.email_url,
        "NOTIFY_DELAY_SECONDS": "0",
        "CELERY_QUEUE": queue,
        # As a site behind its own mail server (Postfix with OpenDMARC, say): the worker
        # runs in its own process, where the tests' DNS stub does not reach, so the
        # sender is vouched for by the trusted server's Authentication-Results.
        "INBOUND_TRUSTED_AUTHSERV_IDS": TRUSTED_MTA,
    }
    with (
        celery_worker(queue, **env),
        receiver_process(port, **env),
        celery_config(task_always_eager=False, task_default_queue=queue),
    ):
        game = start_game(alice, bob, carol)
        for turn in range(6):
            mover = current_user(game)
            emails_before = turn // 3  # each player moves every third turn
            wait_for(
                lambda who=mover.email, n=emails_before: len(turn_emails_to(smtp_server, who)) > n
            )
            email = turn_emails_to(smtp_server, mover.email)[-1]
            commands = example_commands(email)
            assert len(commands) == 3
            command = commands[turn % 3]
            to = email["Reply-To"]
            with smtplib.SMTP("127.0.0.1", port) as smtp:
                smtp.sendmail(mover.email, [to], vouched_for(reply(to, mover.email, command)))
            moves = turn + 1
            wait_for(lambda n=moves: Move.objects.filter(game=game).count() == n)
            # Each reply is answered, in the thread of the reply.
            wait_for(
                lambda n=moves: (
                    sum("your move is made" in m["Subject"] for m in smtp_server.messages) == n
                )
            )
            game.refresh_from_db()
            if not game.is_playing():
                break
    assert InboundMessage.objects.filter(status=InboundMessage.Status.MOVED).count() == (
        Move.objects.filter(game=game).count()
    )
    assert Game.objects.get(pk=game.pk).turn >= 3
