"""Bad input never crashes `python -m games.analysis deck` (issue 13): any file at all is
analysed, or refused with exit status 1 and one line on stderr, never a traceback."""

import contextlib
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings

from games.analysis.__main__ import main
from tests.engine.malformed import VALID, game_files


@pytest.fixture(scope="module")
def game_path(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz") / "game.json"


def run_deck(path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["deck", str(path), "--time-limit", "0.05"])
    return status, out.getvalue(), err.getvalue()


def assert_one_result_or_one_error(status: int, out: str, err: str) -> None:
    if status == 0:
        assert err == "" and out.count("\n") == 1
        json.loads(out)
    else:
        assert status == 1 and out == ""
        assert err.startswith("error: ") and err.count("\n") == 1 and err.endswith("\n"), err
        assert "Traceback" not in err and len(err) <= 1200


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(game_files())
def test_the_deck_command_answers_any_file_with_one_line(game_path, content):
    game_path.write_bytes(content)
    assert_one_result_or_one_error(*run_deck(game_path))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 10_000, "nested too deeply"),  # was a traceback (RecursionError)
        (b'{"a": ' * 10_000, "nested too deeply"),  # was a traceback (RecursionError)
        (
            json.dumps({**VALID[0], "options": {"variant": {"name": "No Variant"}}}).encode(),
            "the variant {'name': 'No Variant'} is not played here",
        ),  # was a traceback (TypeError: unhashable type)
        (b"x" * 1_000_001, "the file is larger than 1 MB"),
    ],
)
def test_each_crash_input_gets_one_line(tmp_path, content, message):
    path = tmp_path / "game.json"
    path.write_bytes(content)
    status, out, err = run_deck(path)
    assert_one_result_or_one_error(status, out, err)
    assert status == 1 and err.startswith(f"error: {path}: ") and message in err
