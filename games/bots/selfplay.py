"""Self-play: a table of bots plays whole games, each seat seeing only its own view.

Every turn the seat to move gets ``view_for(state, seat)`` and nothing else, exactly as a bot
seat on the website does; the engine applies the action (and would raise on an illegal one).
Game i's deck comes from the run's seed and i, so a run repeats exactly.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from games.engine import Action, GameOptions, GameState, new_game, view_for
from games.engine.shuffle import stream

from .policy import choose_action

STREAM_SELFPLAY = 0x73656C66  # "self": the decks of a self-play run

Policy = Callable[[dict], Action]


def play_game(options: GameOptions, deck_seed: int, policy: Policy = choose_action) -> GameState:
    """Deal from ``deck_seed`` and let ``policy`` play every seat until the game ends."""
    state = new_game(options, seed=deck_seed)
    while state.end is None:
        seat = state.current_seat
        state.apply(policy(view_for(state, seat)))
    return state


def deck_seeds(seed: int, games: int) -> list[int]:
    master = stream(seed, STREAM_SELFPLAY)
    return [master.next() for _ in range(games)]


@dataclass
class GameResult:
    score: int
    end: str
    turns: int
    fuses_burnt: int


def _play_many(options: GameOptions, seeds: Sequence[int]) -> list[GameResult]:
    results = []
    for deck_seed in seeds:
        state = play_game(options, deck_seed)
        results.append(
            GameResult(state.score, str(state.end), state.turn, options.fuses - state.fuses_left)
        )
    return results


@dataclass
class SelfPlayRun:
    options: GameOptions
    seed: int
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def mean_score(self) -> float:
        return sum(r.score for r in self.results) / self.games if self.games else 0.0

    @property
    def perfect_rate(self) -> float:
        top = self.options.max_score
        return sum(r.score == top for r in self.results) / self.games if self.games else 0.0

    @property
    def strikeout_rate(self) -> float:
        return sum(r.end == "strikeout" for r in self.results) / self.games if self.games else 0.0

    @property
    def loss_rate(self) -> float:
        """Games scoring 0 by a losing ending (strike-out, or a defeat until perfect)."""
        lost = ("strikeout", "defeat_lost_card", "defeat_no_action")
        return sum(r.end in lost for r in self.results) / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    @property
    def ends(self) -> Counter:
        return Counter(r.end for r in self.results)

    @property
    def scores(self) -> Counter:
        return Counter(r.score for r in self.results)

    def to_dict(self) -> dict:
        return {
            "options": self.options.to_dict(),
            "seed": self.seed,
            "games": self.games,
            "mean_score": round(self.mean_score, 3),
            "perfect_rate": round(self.perfect_rate, 4),
            "strikeout_rate": round(self.strikeout_rate, 4),
            "loss_rate": round(self.loss_rate, 4),
            "games_per_second": round(self.games_per_second, 2),
            "seconds": round(self.seconds, 2),
            "ends": dict(sorted(self.ends.items())),
            "scores": {str(s): n for s, n in sorted(self.scores.items())},
        }


def selfplay(options: GameOptions, games: int, seed: int, jobs: int = 1) -> SelfPlayRun:
    """Play ``games`` games (in ``jobs`` processes); the results do not depend on ``jobs``."""
    seeds = deck_seeds(seed, games)
    run = SelfPlayRun(options, seed)
    started = time.perf_counter()
    if jobs <= 1 or games < 2 * jobs:
        run.results = _play_many(options, seeds)
    else:
        size = -(-games // (jobs * 4))
        chunks = [seeds[i : i + size] for i in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_play_many, [options] * len(chunks), chunks):
                run.results.extend(part)
    run.seconds = time.perf_counter() - started
    return run
