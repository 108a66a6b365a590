"""The bots' tables of a deal run on a worker of the queue `deals`, as the Procfiles run it."""

import subprocess
import uuid

import pytest

from deals.models import DealBotScore
from deals.services import weekly_deal
from outbox import delivery
from tests.celery_helpers import (
    celery_config,
    database_url_of_this_test,
    procfile_command,
    procfile_process,
    wait_for,
)
from tests.test_analysis_queue import worker_ready


@pytest.mark.parametrize("procfile", ["Procfile", "Procfile.dev"])
@pytest.mark.parametrize("default_queue", ["celery", "test-1234"])
def test_the_procfiles_deals_worker_consumes_the_queue_its_rows_are_sent_to(
    procfile, default_queue
):
    env = {} if default_queue == "celery" else {"CELERY_QUEUE": default_queue}
    command = procfile_command("deals", procfile)
    expanded = subprocess.run(
        ["sh", "-c", f"printf '%s\\n' {command}"], env=env, capture_output=True, text=True
    ).stdout.split()
    queues = expanded[expanded.index("--queues") + 1]
    with celery_config(task_default_queue=default_queue):
        assert queues == delivery.queue_for("deal_bot_table") == f"{default_queue}-deals"


@pytest.mark.slow
@pytest.mark.postgres  # the worker, in its own process, shares the test's database
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_the_deals_worker_plays_the_bots_tables():
    queue = f"test-{uuid.uuid4().hex}"
    worker_env = {"DATABASE_URL": database_url_of_this_test(), "CELERY_QUEUE": queue}
    with (
        celery_config(task_always_eager=False, task_default_queue=queue),
        procfile_process("deals", **worker_env),
    ):
        worker_ready(f"{queue}-deals")
        deal = weekly_deal()  # committed: its rows are enqueued on the queue `deals`
        wait_for(lambda: DealBotScore.objects.filter(deal=deal).count() == 2, seconds=60)
    assert {score.bot_kind for score in DealBotScore.objects.filter(deal=deal)} == {
        "house",
        "expert",
    }
