"""Command line: ``python -m games.engine replay FILE.json`` and ``... random``.

replay: reads a hanab.live game JSON file (or this engine's own record) and prints one JSON
line: score, max_score, end, turns. Exit status 0 if the file replays, 2 if an action in it is
illegal (the message names the action's index and why), 1 if the file is unreadable or
malformed; either error is one line on stderr, whatever the file holds.

random: plays games of uniformly random legal actions and prints the score distribution and
games per second.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .actions import IllegalAction
from .gamefile import FILE_ERRORS, read_game_file
from .hanablive import HanabLiveImportError
from .options import GameOptions, InvalidOptions
from .randomplay import random_games
from .state import rating_word, replay

EXIT_OK, EXIT_BAD_FILE, EXIT_ILLEGAL = 0, 1, 2


def _fail(message: str, status: int) -> int:
    # One line whatever the message holds (a file name may hold a newline).
    print("error: " + " ".join(message.splitlines()), file=sys.stderr)
    return status


def cmd_replay(path: str) -> int:
    try:
        game = read_game_file(path)
        state = replay(game.options, game.deck, game.actions)
    except OSError as error:
        return _fail(f"cannot read {path}: {error.strerror or error}", EXIT_BAD_FILE)
    except HanabLiveImportError as error:
        status = EXIT_ILLEGAL if error.action_index is not None else EXIT_BAD_FILE
        return _fail(f"{path}: {error}", status)
    except IllegalAction as error:
        return _fail(f"{path}: {error}", EXIT_ILLEGAL)
    except FILE_ERRORS as error:
        return _fail(f"{path}: {error}", EXIT_BAD_FILE)

    result = {
        "score": state.score,
        "max_score": state.max_score,
        "end": None if state.end is None else str(state.end),
        "turns": state.turn,
        "rating": rating_word(state.score, state.options) if state.is_over else None,
    }
    if game.dropped_actions:
        result["dropped_actions"] = game.dropped_actions
    if game.end_marker is not None:
        result["end_marker"] = game.end_marker
    print(json.dumps(result))
    return EXIT_OK


def cmd_random(args: argparse.Namespace) -> int:
    try:
        options = GameOptions(
            players=args.players,
            multicolour=args.multicolour,
            until_perfect=args.until_perfect,
            fuses=args.fuses,
            empty_clues=args.empty_clues,
        )
    except InvalidOptions as error:
        return _fail(str(error), EXIT_BAD_FILE)
    if args.games < 1:
        return _fail("--games must be at least 1", EXIT_BAD_FILE)
    run = random_games(options, args.games, args.seed)
    if args.json:
        print(json.dumps(run.to_dict()))
        return EXIT_OK
    print(f"{run.games} random games: {options.describe()}; seed {args.seed}")
    print("score  games")
    widest = max(run.scores.values())
    for score in range(0, options.max_score + 1):
        count = run.scores.get(score, 0)
        if count:
            bar = "#" * max(1, round(40 * count / widest))
            print(f"{score:5d}  {count:5d}  {bar}")
    print(f"mean score {run.mean_score:.2f}; mean turns {run.turns / run.games:.1f}")
    print("ends: " + ", ".join(f"{end} {n}" for end, n in sorted(run.ends.items())))
    print(f"{run.games_per_second:.0f} games/s ({run.seconds:.2f} s)")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)

    replay = commands.add_parser("replay", help="replay a hanab.live JSON game (or a record)")
    replay.add_argument("file", help="path to the JSON file")

    random = commands.add_parser("random", help="play games of random legal actions")
    random.add_argument("--players", type=int, required=True)
    random.add_argument("--games", type=int, default=1000)
    random.add_argument("--seed", type=int, default=0)
    random.add_argument("--multicolour", type=int, default=0, choices=(0, 1, 2, 3))
    random.add_argument("--until-perfect", action="store_true")
    random.add_argument("--fuses", type=int, default=3)
    random.add_argument("--empty-clues", action="store_true")
    random.add_argument("--json", action="store_true", help="print one JSON object instead")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        return cmd_replay(args.file)
    return cmd_random(args)


if __name__ == "__main__":
    sys.exit(main())
