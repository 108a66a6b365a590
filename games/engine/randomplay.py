"""Games of uniformly random legal actions: a smoke test of the rules and a benchmark."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from .options import GameOptions
from .shuffle import STREAM_RANDOM_PLAY, SplitMix64, stream
from .state import GameState, new_game


def play_random_game(options: GameOptions, deck_seed: int, rng: SplitMix64) -> GameState:
    """Deal from ``deck_seed`` and play uniformly random legal actions until the end."""
    state = new_game(options, seed=deck_seed)
    apply = state.apply
    legal_actions = state.legal_actions
    below = rng.below
    while state.end is None:
        actions = legal_actions()
        apply(actions[below(len(actions))])
    return state


@dataclass
class RandomRun:
    options: GameOptions
    seed: int
    games: int = 0
    seconds: float = 0.0
    scores: Counter = field(default_factory=Counter)
    ends: Counter = field(default_factory=Counter)
    turns: int = 0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    @property
    def mean_score(self) -> float:
        return sum(score * n for score, n in self.scores.items()) / self.games if self.games else 0

    def to_dict(self) -> dict:
        return {
            "options": self.options.to_dict(),
            "seed": self.seed,
            "games": self.games,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 1),
            "mean_score": round(self.mean_score, 3),
            "mean_turns": round(self.turns / self.games, 2) if self.games else 0,
            "scores": {str(score): n for score, n in sorted(self.scores.items())},
            "ends": dict(sorted(self.ends.items())),
        }


def random_games(options: GameOptions, games: int, seed: int) -> RandomRun:
    """Play ``games`` random games; game i's deck and choices come from ``seed`` and i."""
    master = stream(seed, STREAM_RANDOM_PLAY)
    run = RandomRun(options, seed)
    started = time.perf_counter()
    for _ in range(games):
        deck_seed = master.next()
        state = play_random_game(options, deck_seed, SplitMix64(master.next()))
        run.games += 1
        run.scores[state.score] += 1
        run.ends[str(state.end)] += 1
        run.turns += state.turn
    run.seconds = time.perf_counter() - started
    return run
