"""bench/bots.py's search table, which measures what a test once asserted on 12 decks (the
search scores more than the conventions alone): its rows are the baseline and the search
at each table size the search plays, and its gain is read deck by deck."""

import importlib.util
import sys
from pathlib import Path

import pytest

from games.bots.search import SEARCH_UP_TO
from games.engine import GameOptions

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bots.py"


@pytest.fixture(scope="module")
def bench():
    """bench/bots.py as a module (bench/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def outcome(bench, score: int):
    return bench.GameOutcome(
        score=score, perfect=score == 25, strikeout=False, misplays={}, early_misplays={}, times={}
    )


def test_the_search_table_pairs_the_search_with_the_conventions_alone(bench):
    table = bench.rows({"search"}, (2, 3, 4, 5))
    assert [(row.options.players, row.seats) for row in table] == [
        (players, seats)
        for players in range(2, SEARCH_UP_TO + 1)
        for seats in ((bench.CONVENTIONS,), (bench.KNOWN,))
    ]
    # The baseline is the default bot without its search, told the same bot seats.
    assert bench.KNOWING[bench.KNOWN] is bench.choose_action
    assert bench.KNOWING[bench.CONVENTIONS] is bench.conventions_alone


def test_the_gain_is_read_deck_by_deck(bench):
    options = GameOptions(players=2)
    baseline = bench.Row("search", options, (bench.CONVENTIONS,))
    searched = bench.Row("search", options, (bench.KNOWN,))
    baseline.outcomes = [outcome(bench, s) for s in (20, 22, 24, 25)]
    searched.outcomes = [outcome(bench, s) for s in (21, 22, 23, 25)]
    ((paired_baseline, paired_search),) = bench.search_pairs([baseline, searched])
    assert (paired_baseline, paired_search) == (baseline, searched)
    line = bench.gain_line(baseline, searched)
    assert line.startswith("2 players, the search over the conventions alone: +0.00 ± 0.41")
    assert "(median +0)" in line
    assert line.endswith("more on 1, the same on 2, less on 1 of 4 decks")
