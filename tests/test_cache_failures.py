"""lib/cache_failures.py: a failing cache is logged and carried on from, never raised; what
is not a failure of the cache (a cancelled stream, an interrupt) still goes through."""

import asyncio
import logging

import pytest

from lib.cache_failures import failing_cache_is_no_cache

log = logging.getLogger("tests.cache_failures")


def test_a_failure_is_logged_with_its_traceback_and_the_code_after_the_block_runs(caplog):
    found = "nothing yet"
    with caplog.at_level(logging.WARNING, logger=log.name):
        with failing_cache_is_no_cache(log, "could not read game %s", 7):
            raise ConnectionError("Redis is not there")
        found = "carried on"
    assert found == "carried on"
    (record,) = caplog.records
    assert record.levelno == logging.WARNING and record.getMessage() == "could not read game 7"
    assert "Redis is not there" in caplog.text  # the traceback


def test_a_block_that_works_logs_nothing_and_keeps_its_result(caplog):
    with caplog.at_level(logging.DEBUG, logger=log.name), failing_cache_is_no_cache(log, "no"):
        found = {"game:1:version": 3}
    assert found == {"game:1:version": 3} and caplog.records == []


def test_the_level_is_the_callers(caplog):
    quiet = failing_cache_is_no_cache(log, "asked by every poll", level=logging.DEBUG)
    with caplog.at_level(logging.DEBUG, logger=log.name), quiet:
        raise TimeoutError("Redis is frozen")
    (record,) = caplog.records
    assert record.levelno == logging.DEBUG


@pytest.mark.parametrize("stop", [KeyboardInterrupt, asyncio.CancelledError])
def test_what_is_not_a_failure_of_the_cache_goes_through(stop):
    with pytest.raises(stop), failing_cache_is_no_cache(log, "not this"):
        raise stop()
