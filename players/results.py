"""What a finished game counts as on its players' profiles: one definition for the incremental
figures (players/stats.py) and for their recount (players/rebuild.py)."""

from dataclasses import dataclass

from games.engine import End


@dataclass(frozen=True)
class Result:
    score: int
    max_score: int
    end: str  # Game.end: an engine End, or "timed_out" (ended by the timeout policy)

    @property
    def won(self) -> bool:
        return self.score == self.max_score

    @property
    def perfect(self) -> bool:
        return self.end == End.PERFECT

    @property
    def struck_out(self) -> bool:
        """The last fuse burned."""
        return self.end == End.STRIKEOUT

    @classmethod
    def of(cls, game) -> "Result":
        return cls(game.score, game.max_score, game.end)
