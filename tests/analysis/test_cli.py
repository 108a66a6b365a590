"""`python -m games.analysis deck FILE.json` on a game export, run as a person runs it."""

import json
import subprocess
import sys
from pathlib import Path

from games.engine import GameOptions, new_deck, replay, to_record
from games.engine.hanablive import to_hanablive
from games.engine.randomplay import play_random_game
from games.engine.shuffle import SplitMix64

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.analysis", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_analysis_of_a_hanab_live_export(tmp_path):
    options = GameOptions(players=3)
    deck = new_deck(options, 77)
    played = play_random_game(options, 77, SplitMix64(1))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_hanablive(options, deck, played.actions, ["A", "B", "C"])))

    done = run_cli("deck", str(path), "--time-limit", "5")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"]["score"] == played.score
    assert result["solitaire"]["h"] == 15 and result["solitaire"]["N"] == 50
    team = result["team"]
    assert team["lower"] <= team["upper"] <= 25
    assert replay(options, deck, team["actions"]).score == team["lower"]


def test_a_record_with_a_seed_is_read_too(tmp_path):
    options = GameOptions(players=2, multicolour=1)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(to_record(options, 5, [])))
    done = run_cli("deck", str(path), "--time-limit", "5")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["max_score"] == 30 and result["solitaire"]["c"] == 6
    assert result["game"] == {"score": 0, "turns": 0, "over": False}


def test_a_malformed_file_gets_a_clear_message(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"players": ["A"], "deck": []}')
    done = run_cli("deck", str(path))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"error: {path}:")
    path.write_text("not json")
    assert run_cli("deck", str(path)).returncode == 1
    assert "cannot read" in run_cli("deck", str(tmp_path / "missing.json")).stderr
