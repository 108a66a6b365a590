"""Command line: ``python -m games.analysis deck FILE.json [--time-limit SECONDS]``.

Reads a game export (hanab.live JSON, as the site's download gives, or this engine's record)
and prints the hindsight analysis of its deal as one JSON object: the paper's solitaire
verdict and the best score of a team that sees every card, beside the score the game reached.
Exit status 0 on success, 1 if the file is unreadable or malformed (an illegal action
too), with one line on stderr saying why, whatever the file holds.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games.engine import IllegalAction, replay
from games.engine.gamefile import FILE_ERRORS, read_game_file

from .deal import analyse


def _fail(message: str) -> int:
    # One line whatever the message holds (a file name may hold a newline).
    print("error: " + " ".join(message.splitlines()), file=sys.stderr)
    return 1


def cmd_deck(path: str, time_limit: float) -> int:
    try:
        game = read_game_file(path)
        played = replay(game.options, game.deck, game.actions)
    except OSError as error:
        return _fail(f"cannot read {path}: {error.strerror or error}")
    except (*FILE_ERRORS, IllegalAction) as error:
        return _fail(f"{path}: {error}")
    result = {
        "file": path,
        "options": game.options.to_dict(),
        "game": {"score": played.score, "turns": played.turn, "over": played.is_over},
        **analyse(game.options, game.deck, time_limit=time_limit),
    }
    print(json.dumps(result))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.analysis", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    deck = commands.add_parser("deck", help="analyse the deal of a game export")
    deck.add_argument("file", help="path to the JSON file")
    deck.add_argument("--time-limit", type=float, default=10.0, help="seconds for the search")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return cmd_deck(args.file, args.time_limit)


if __name__ == "__main__":
    sys.exit(main())
