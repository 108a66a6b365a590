"""python -m games.engine replay FILE.json / random."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import GameOptions, new_game, to_hanablive, to_record
from games.engine.__main__ import main

from .helpers import cheating_greedy, run

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[2]


def replay(path, capsys):
    status = main(["replay", str(path)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "no_variant_3p_strikeout.json",
            {"score": 0, "max_score": 25, "end": "strikeout", "turns": 12},
        ),
        (
            "rainbow_all_or_nothing_2p.json",
            {"score": 0, "max_score": 30, "end": "defeat_lost_card", "turns": 7},
        ),
        (
            "black_4p_empty_clues_terminated.json",
            {"score": 7, "max_score": 30, "end": None, "turns": 11},
        ),
    ],
)
def test_replay_hand_written_hanablive_files(name, expected, capsys):
    status, out, err = replay(DATA / name, capsys)
    assert status == 0, err
    assert out.count("\n") == 1
    result = json.loads(out)
    assert {key: result[key] for key in expected} == expected


def test_replay_a_game_exported_by_the_engine(tmp_path, capsys):
    options = GameOptions(4, multicolour=1)
    state = run(new_game(options, seed=77), cheating_greedy)
    path = tmp_path / "game.json"
    names = ["Ann", "Bob", "Cid", "Dee"]
    path.write_text(json.dumps(to_hanablive(options, state.deck, state.actions, names)))
    status, out, _ = replay(path, capsys)
    assert status == 0
    assert json.loads(out) == {
        "score": state.score,
        "max_score": 30,
        "end": str(state.end),
        "turns": state.turn,
        "rating": json.loads(out)["rating"],
    }


def test_replay_an_engine_record_with_fewer_fuses(tmp_path, capsys):
    options = GameOptions(3, fuses=1)
    state = run(new_game(options, seed=8), cheating_greedy)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(to_record(options, 8, state.actions)))
    status, out, _ = replay(path, capsys)
    assert status == 0
    assert json.loads(out)["turns"] == state.turn


def test_an_illegal_action_exits_2_naming_the_action_and_why(tmp_path, capsys):
    data = json.loads((DATA / "no_variant_3p_strikeout.json").read_text())
    # Action 6 is Alice's; card 7 is in Bob's hand.
    data["actions"][6] = {"type": 0, "target": 7, "value": 0}
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data))
    status, out, err = replay(path, capsys)
    assert status == 2
    assert out == ""
    assert "action 6" in err and "card 7 is not in your hand" in err


def test_an_illegal_action_in_a_record_exits_2(tmp_path, capsys):
    options = GameOptions(2)
    record = to_record(options, 1, [])
    record["actions"] = [{"type": "discard", "card_id": 0}]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    status, _, err = replay(path, capsys)
    assert status == 2
    assert "action 0" in err and "clue tokens" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not JSON"),
        ('{"players": ["A", "B"]}', '"deck"'),
        (
            '{"players": ["A", "B"], "deck": [], "actions": [], "options": {"variant": "Null"}}',
            "Null",
        ),
    ],
)
def test_a_malformed_file_exits_1(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    status, _, err = replay(path, capsys)
    assert status == 1
    assert message in err


def test_a_missing_file_exits_1(tmp_path, capsys):
    status, _, err = replay(tmp_path / "nope.json", capsys)
    assert status == 1 and "cannot read" in err


def test_random_prints_the_score_distribution_and_speed(capsys):
    status = main(["random", "--players", "3", "--games", "50", "--seed", "4"])
    out = capsys.readouterr().out
    assert status == 0
    assert "50 random games: 3 players; seed 4" in out
    assert "score  games" in out and "games/s" in out


def test_random_with_options_and_json(capsys):
    argv = ["random", "--players", "5", "--games", "30", "--seed", "1", "--multicolour", "3"]
    argv += ["--until-perfect", "--fuses", "2", "--empty-clues", "--json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 30
    assert sum(result["scores"].values()) == 30
    assert result["options"] == GameOptions(5, 3, True, 2, True).to_dict()
    # the same seed plays the same games
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["scores"] == result["scores"] and again["ends"] == result["ends"]


def test_random_refuses_bad_options(capsys):
    assert main(["random", "--players", "7", "--games", "1"]) == 1
    assert "players" in capsys.readouterr().err


def test_python_dash_m_runs_the_command_line():
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "games.engine",
            "replay",
            str(DATA / "no_variant_3p_strikeout.json"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["end"] == "strikeout"
