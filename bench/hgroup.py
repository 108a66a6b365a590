"""The H-Group bot (games.bots.hgroup, issue 30) at every level it has: with itself, and
beside the house bot, the cautious and saver partners and the scripted H-Group person
(games.bots.hgroup.person). Not a test: it prints a Markdown table.

    nice -n 10 .venv/bin/python bench/hgroup.py --games 100                 # every row
    nice -n 10 .venv/bin/python bench/hgroup.py --games 40 --games-at 3=100 # 100 at 3 players
    nice -n 10 .venv/bin/python bench/hgroup.py --quick                     # a smoke run
    nice -n 10 .venv/bin/python bench/hgroup.py --self-play --players 3 --games 200 \
        --seed 21 22 23 --levels 2 5 --workers 2    # self-play only, on 600 decks

With several --seed values, each row plays --games decks of each seed (the decks of one
seed, then the next): a figure pooled over decks the code was never tuned on.

Levels: every level of ``games.bots.hgroup.LEVELS`` when this runs (level 2 appears by
itself once it exists). For each level and 2 to 5 players, the rows:

* self-play: every seat the H-Group bot at that level;
* mixed: two players at one table, seats alternating (seat 0 the H-Group bot, seat 1 the
  other, and so on): beside ``default`` (the house bot, from the history alone, as beside
  people), ``cautious`` and ``saver`` (games.bots.partners, who know no convention), and the
  H-Group person of the same level (its mistakes at ``person.RATES``; its draws seeded by
  the game's deck seed, so each game has its own).

Each row: games, mean score ± its standard error (a strike-out scores 0), strike-outs,
misplays per game by each player (in brackets, those made while cards were left to draw),
and the H-Group bot's median time per decision (CPU time of the process, the view excluded,
as ``bench/bots.py`` measures it). Game i of every row is dealt from the same deck (from
--seed and i, ``bench/bots.py``'s decks), so the rows are paired. The games are played as
``bench/bots.py`` plays them: every seat gets only ``view_for`` of its seat, and the engine
raises on an illegal action.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import bots as house  # noqa: E402
from games.bots.hgroup import LEVELS, choose_action  # noqa: E402
from games.bots.hgroup.person import Person  # noqa: E402
from games.engine import Action, GameOptions, Play, new_game, view_for  # noqa: E402

PARTNERS = ("default", "cautious", "saver")
PLAYERS = (2, 3, 4, 5)
QUICK_GAMES = 2
PERSON_SEEDS = 0x70657273  # "pers": mixed into the deck seed for the person's draws


def bot_name(level: int) -> str:
    return f"hgroup {level}"


def person_name(level: int) -> str:
    return f"person {level}"


def agent(name: str, deck_seed: int) -> Callable[[dict], Action]:
    kind, _, level = name.partition(" ")
    if kind == "hgroup" and level.isdigit():
        return partial(choose_action, level=int(level))
    if kind == "person" and level.isdigit():
        return Person(int(level), seed=deck_seed ^ PERSON_SEEDS)
    return house.BOTS[name]


def play(options: GameOptions, deck_seed: int, seats: tuple[str, ...]) -> house.GameOutcome:
    """One game: seat s is played by ``seats[s % len(seats)]`` (``bench/bots.py``'s play,
    with the H-Group players made for the game)."""
    state = new_game(options, seed=deck_seed)
    names = list(dict.fromkeys(seats))
    agents = {name: agent(name, deck_seed) for name in names}
    misplays = dict.fromkeys(names, 0)
    early = dict.fromkeys(names, 0)
    times: dict[str, list[float]] = {name: [] for name in names}
    while state.end is None:
        seat = state.current_seat
        name = seats[seat % len(seats)]
        view = view_for(state, seat)
        started = time.process_time()
        action = agents[name](view)
        times[name].append(time.process_time() - started)
        deck_left = state.deck_size
        event = state.apply(action)
        if isinstance(action, Play) and not event.placed:
            misplays[name] += 1
            if deck_left:
                early[name] += 1
    return house.GameOutcome(
        score=state.score,
        perfect=state.won,
        strikeout=str(state.end) == "strikeout",
        misplays=misplays,
        early_misplays=early,
        times=times,
    )


def _play_chunk(options: GameOptions, seeds: list[int], seats: tuple[str, ...]) -> list:
    return [play(options, seed, seats) for seed in seeds]


def run_row(row: house.Row, seeds: list[int], workers: int) -> house.Row:
    if workers <= 1:
        row.outcomes = _play_chunk(row.options, seeds, row.seats)
        return row
    size = -(-len(seeds) // (workers * 4))
    chunks = [seeds[i : i + size] for i in range(0, len(seeds), size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(
            _play_chunk, [row.options] * len(chunks), chunks, [row.seats] * len(chunks)
        ):
            row.outcomes.extend(part)
    return row


def rows(
    levels: tuple[int, ...], players: tuple[int, ...], self_play_only: bool = False
) -> list[house.Row]:
    result = []
    for level in levels:
        bot = bot_name(level)
        for n in players:
            options = GameOptions(players=n)
            result.append(house.Row("self-play", options, (bot,)))
            if self_play_only:
                continue
            for partner in (*PARTNERS, person_name(level)):
                result.append(house.Row("mixed", options, (bot, partner)))
    return result


HEADER = [
    "level",
    "players",
    "table",
    "games",
    "score ± s.e.",
    "strike-outs",
    "misplays/game (before the deck ran out)",
    "H-Group bot: median time/decision",
]


def cells(level: int, row: house.Row) -> list[str]:
    mean, error = row.mean_and_error()
    names = list(dict.fromkeys(row.seats))
    misplays = " / ".join(f"{row.misplays(n):.2f} ({row.early_misplays(n):.2f})" for n in names)
    return [
        str(level),
        str(row.options.players),
        f"{row.label}: {' + '.join(names)}",
        str(row.games),
        f"{mean:.2f} ± {error:.2f}",
        f"{100 * row.rate('strikeout'):.1f}%",
        misplays,
        f"{1000 * row.times(bot_name(level))[0]:.2f} ms",
    ]


def games_at(text: list[str]) -> dict[int, int]:
    """``["3=100", "5=40"]`` -> {3: 100, 5: 40}."""
    result = {}
    for item in text:
        players, _, games = item.partition("=")
        result[int(players)] = int(games)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per row")
    parser.add_argument(
        "--games-at",
        nargs="*",
        default=[],
        metavar="PLAYERS=GAMES",
        help="games per row at that table size, instead of --games",
    )
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_GAMES} games per row: a smoke run"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument(
        "--seed", type=int, nargs="+", default=[17], help="deck seeds (several: pooled)"
    )
    parser.add_argument("--self-play", action="store_true", help="the self-play rows only")
    parser.add_argument("--players", type=int, nargs="*", default=list(PLAYERS))
    parser.add_argument(
        "--levels", type=int, nargs="*", default=None, help="default: every level there is"
    )
    args = parser.parse_args(argv)
    levels = tuple(args.levels or LEVELS)
    per_size = {} if args.quick else games_at(args.games_at)
    default = QUICK_GAMES if args.quick else args.games
    most = max([default, *per_size.values()])
    decks = {seed: house.deck_seeds(seed, most) for seed in args.seed}
    print(
        f"H-Group levels {', '.join(map(str, levels))}; {default} games per row"
        + (" and seed" if len(args.seed) > 1 else "")
        + "".join(f", {g} at {p} players" for p, g in sorted(per_size.items()))
        + f"; seed {', '.join(map(str, args.seed))}, {args.workers} worker(s)"
    )
    print()
    print("| " + " | ".join(HEADER) + " |")
    print("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    started = time.perf_counter()
    for row in rows(levels, tuple(args.players), args.self_play):
        games = per_size.get(row.options.players, default)
        run_row(row, [d for seed in args.seed for d in decks[seed][:games]], args.workers)
        level = int(row.seats[0].split()[1])
        print("| " + " | ".join(cells(level, row)) + " |", flush=True)
    print()
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
