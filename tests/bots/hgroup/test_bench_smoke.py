"""bench/hgroup.py runs: 2 games per row (``--quick``), and its table has every row (the
figures themselves are the benchmark's, not checked here; nor the times)."""

import pytest

from bench import bots as house
from bench import hgroup
from games.bots.hgroup import LEVELS
from games.engine import GameOptions


@pytest.mark.slow
def test_the_quick_run_prints_every_row(capsys):
    assert hgroup.main(["--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    table = [line for line in lines if line.startswith("| ") and line[2].isdigit()]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in table]
    rows = {(int(c[0]), int(c[1]), c[2]) for c in cells}
    expected = set()
    for level in LEVELS:
        for players in (2, 3, 4, 5):
            bot = f"hgroup {level}"
            expected.add((level, players, f"self-play: {bot}"))
            for partner in ("default", "cautious", "saver", f"person {level}"):
                expected.add((level, players, f"mixed: {bot} + {partner}"))
    assert rows == expected
    assert len(table) == len(expected) == 20 * len(LEVELS)
    for c in cells:
        assert c[3] == "2"  # games
        mean, _, error = c[4].partition(" ± ")
        assert 0 <= float(mean) <= 25 and float(error) >= 0
        assert c[5].endswith("%")
        assert c[7].endswith(" ms")


def test_games_per_table_size_are_read():
    assert hgroup.games_at(["3=100", "5=40"]) == {3: 100, 5: 40}


def test_self_play_rows_on_the_decks_of_several_seeds(capsys):
    assert (
        hgroup.main(
            ["--self-play", "--players", "2", "--levels", "1", "--games", "1", "--seed", "21", "22"]
        )
        == 0
    )
    table = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 1 ")]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in table]
    assert [(c[1], c[2], c[3]) for c in cells] == [("2", "self-play: hgroup 1", "2")]
    # The two games are the first deck of each seed: the scores of those games alone.
    alone = [
        hgroup.play(GameOptions(players=2), house.deck_seeds(seed, 1)[0], ("hgroup 1",)).score
        for seed in (21, 22)
    ]
    assert cells[0][4].startswith(f"{sum(alone) / 2:.2f} ± ")
