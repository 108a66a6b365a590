"""Issue 15: the outbox rows of one change are written in one INSERT (`delivery.batched()`),
with the same guarantees as one by one: each row enqueued after the commit, and never a
second row of the same kind and dedupe key."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from outbox import delivery
from outbox.delivery import batched, schedule
from outbox.models import Outbox

pytestmark = pytest.mark.django_db


def inserts(context) -> list[str]:
    return [q["sql"] for q in context.captured_queries if q["sql"].startswith("INSERT")]


def test_the_rows_of_a_block_are_one_insert_and_each_is_enqueued_after_the_commit(
    django_capture_on_commit_callbacks, monkeypatch
):
    enqueued = []
    monkeypatch.setattr(
        delivery,
        "_enqueue_unless_the_broker_just_failed",
        lambda pk, kind, delay: enqueued.append(pk),
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with CaptureQueriesContext(connection) as context, batched():
            first = schedule("your_turn", {"game": 1, "turn": 3})
            second = schedule("bot_move", {"game": 1, "turn": 3})
            assert first.pk is None and not Outbox.objects.exists()
        assert len(inserts(context)) == 1
    assert first.pk and second.pk
    assert len(callbacks) == 2
    assert enqueued == [first.pk, second.pk]
    assert list(Outbox.objects.order_by("pk").values_list("kind", "payload")) == [
        ("your_turn", {"game": 1, "turn": 3}),
        ("bot_move", {"game": 1, "turn": 3}),
    ]


def test_a_key_already_written_is_never_written_again(django_capture_on_commit_callbacks):
    assert schedule("analysis", {"game": 1}, dedupe_key="1") is not None
    with django_capture_on_commit_callbacks() as callbacks:
        with CaptureQueriesContext(connection) as context, batched():
            schedule("analysis", {"game": 1}, dedupe_key="1")  # taken
            schedule("game_over", {"game": 1, "user": 5}, dedupe_key="1:5")
            schedule("game_over", {"game": 1, "user": 5}, dedupe_key="1:5")
            schedule("game_over", {"game": 1, "user": 6}, dedupe_key="1:6")
        assert len(inserts(context)) == 1
        # and no savepoint: a key taken is skipped, never an error
        assert not any("SAVEPOINT" in q["sql"] for q in context.captured_queries)
    assert len(callbacks) == 2  # the two new rows only
    assert Outbox.objects.filter(kind="analysis").count() == 1
    game_over = Outbox.objects.filter(kind="game_over")
    assert sorted(game_over.values_list("dedupe_key", flat=True)) == ["1:5", "1:6"]
    # One by one, as before: None when the key is taken.
    assert schedule("game_over", {"game": 1, "user": 6}, dedupe_key="1:6") is None
    assert schedule("digest", {"user": 6}, dedupe_key="6:2025-01-01") is not None
    # The same key under another kind is another row.
    assert schedule("digest", {"user": 1}, dedupe_key="1") is not None


def test_rows_with_and_without_keys_in_one_block(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks, batched():
        plain = schedule("your_turn", {"game": 2, "turn": 1})
        keyed = schedule("analysis", {"game": 2}, dedupe_key="2")
    assert plain.pk and keyed.pk
    assert Outbox.objects.get(pk=keyed.pk).dedupe_key == "2"
    assert len(callbacks) == 2


def test_a_block_that_raises_writes_nothing():
    with pytest.raises(RuntimeError), batched():
        schedule("your_turn", {"game": 1, "turn": 3})
        raise RuntimeError("the change failed")
    assert not Outbox.objects.exists()
    # and the next row is written at once again, outside any block
    assert schedule("your_turn", {"game": 1, "turn": 4}).pk


def test_nested_blocks_are_written_by_the_outermost():
    with batched():
        with batched():
            schedule("your_turn", {"game": 1, "turn": 3})
        assert not Outbox.objects.exists()
        schedule("reminder", {"game": 1, "turn": 3, "deadline": "x"})
    assert Outbox.objects.count() == 2


def test_far_off_rows_wait_for_the_sweep(django_capture_on_commit_callbacks):
    from datetime import timedelta

    with django_capture_on_commit_callbacks() as callbacks, batched():
        schedule("your_turn", {"game": 1, "turn": 3})
        schedule(
            "reminder",
            {"game": 1, "turn": 3, "deadline": "x"},
            delay=delivery.SHORT_DELAY + timedelta(minutes=1),
        )
    assert len(callbacks) == 1
    assert Outbox.objects.count() == 2


def test_a_row_written_in_a_transaction_that_rolls_back_is_not_there():
    with pytest.raises(RuntimeError), transaction.atomic():
        with batched():
            schedule("analysis", {"game": 3}, dedupe_key="3")
        raise RuntimeError
    assert schedule("analysis", {"game": 3}, dedupe_key="3") is not None
