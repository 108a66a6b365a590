"""The engine's state of a game after each move, kept in the cache (issue 15: a move without
replaying the game, and without reading its moves).

A game's moves are only ever appended, one per turn, so (game, turn) names one state for
good (the game named by its id, start time, deal and options). The state after a move is
written to the cache once that move's transaction commits, never before (a move rolled back
leaves nothing behind: its turn's state is made again by the move that does commit). The key
also holds a digest of the engine's source, so a state pickled by other engine code is never
read. Whatever the cache holds is checked against the game (the turn), and anything missing,
stale or unreadable is rebuilt from the moves: the database stays the one source of truth.
"""

import hashlib
import logging
import pickle
from pathlib import Path

from django.core.cache import cache
from django.db import transaction

from games.engine import GameState
from games.models import Game
from lib.cache_batch import Batch, after_commit
from lib.cache_failures import failing_cache_is_no_cache

log = logging.getLogger(__name__)

STATE_TTL = 2 * 24 * 3600  # seconds: two days, about as long as a slow player's turn


def _engine_digest() -> str:
    engine = Path(__file__).resolve().parents[1] / "engine"
    digest = hashlib.sha256()
    for source in sorted(engine.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


ENGINE_DIGEST = _engine_digest()


def _key(game: Game, turn: int, rearranged: int = 0) -> str:
    """The game's identity in full (ids are reused when a database is made afresh while the
    cache lives on), the turn, the free rearrangements made so far (the option: they change
    the state without a turn; like moves they are only appended, so their count names them),
    and the engine."""
    started = game.started_at.isoformat() if game.started_at else ""
    deal = repr((ENGINE_DIGEST, game.pk, started, game.deck_source, game.options)).encode()
    position = f"{turn}.{rearranged}" if rearranged else str(turn)
    return f"game:{game.pk}:state:{position}:{hashlib.sha256(deal).hexdigest()[:32]}"


def state_of(game: Game) -> GameState:
    """The game's state now (at `game.turn`): from the cache when it holds it, else rebuilt
    from the moves."""
    state = None
    # Our own pickles, in our own cache; anything unreadable is rebuilt.
    with failing_cache_is_no_cache(log, "could not read a game's state from the cache"):
        pickled = cache.get(_key(game, game.turn, len(game.rearrangements)))
        state = pickle.loads(pickled) if isinstance(pickled, bytes) else None  # noqa: S301
    if (
        isinstance(state, GameState)
        and state.turn == game.turn
        and len(state.rearrangements) == len(game.rearrangements)
    ):
        return state
    return game.load_state()


def keep_after_commit(game: Game, state: GameState) -> None:
    """Keep `state` (the game's state at `state.turn`) once the current transaction commits."""
    pickled = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    key = _key(game, state.turn, len(state.rearrangements))

    def keep() -> None:
        # With the commit's other cache writes, in one round trip (lib/cache_batch.py).
        batch = Batch()
        batch.set(key, pickled, STATE_TTL)
        after_commit(batch)

    transaction.on_commit(keep)
