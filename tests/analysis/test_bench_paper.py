"""Smoke test of `bench/paper.py --quick`: it runs as a person runs it and names every algorithm."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_quick_run_of_the_paper_benchmark():
    done = subprocess.run(
        [sys.executable, "bench/paper.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for heading in (
        "greedy, O(N) = O(cn) (Lemma 1)",
        "lazy, O(N + n log h) (Theorem 4)",
        "dynamic programme, O(N h c^h n^(h+c-1)) (Theorem 6)",
        "NP-complete (Theorem 7)",
        "Exact search on real decks",
    ):
        assert heading in out, heading
    assert "| 1,024 |" in out  # the first row of the greedy and lazy tables
    assert "| NO |" not in out  # search and the DP agree with the formulas' satisfiability
