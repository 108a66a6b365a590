"""The self-play command: runs that repeat exactly, and what it prints. How strong the bot
is (3 bots averaged at least 18 over 200 games, with under 5% strike-outs, when that was a
test) is measured by bench/bots.py (the self table), not checked here."""

import json

from games.bots.__main__ import main
from games.bots.selfplay import selfplay
from games.engine import GameOptions


def test_a_run_repeats_exactly_and_does_not_depend_on_the_number_of_processes():
    options = GameOptions(players=4, multicolour=3)
    one = selfplay(options, games=6, seed=5)
    two = selfplay(options, games=6, seed=5, jobs=2)
    assert one.results == two.results
    assert selfplay(options, games=6, seed=6).results != one.results


def test_the_command_prints_one_run(capsys):
    assert main(["selfplay", "--players", "2", "--games", "3", "--seed", "1", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 games, 2 players, seed 1: average ")
    assert "perfect" in out and "strike-outs" in out and "games/s" in out


def test_the_command_prints_json(capsys):
    argv = ["selfplay", "--players", "5", "--games", "2", "--fuses", "1", "--json", "--jobs", "1"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["options"]["players"] == 5 and data["options"]["fuses"] == 1
    assert data["games"] == 2
    assert {"mean_score", "perfect_rate", "strikeout_rate", "games_per_second"} <= data.keys()


def test_the_command_prints_the_table_of_every_variant(capsys):
    assert main(["selfplay", "--table", "--players", "3", "--games", "1", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines if line.startswith("| 3 |")]
    assert [row.split("|")[2].strip() for row in rows] == [
        "no variant",
        "sixth suit",
        "sixth suit, one of each",
        "wild multicolour",
        "until perfect",
    ]


def test_the_command_refuses_bad_options(capsys):
    assert main(["selfplay", "--players", "7", "--games", "1"]) == 1
    assert "players" in capsys.readouterr().err
