"""A game's version, and what the poll keeps of it in the cache.

`Game.version` is raised by every change to what a page of the game shows (a move, chat, the
clock, seats, a moderator's action), in that change's transaction: `bump(game)`. A page sends
the version it shows with its poll (`?v=`), and the poll answers "nothing changed" (204)
without the database when the cache holds the same version for the game and says that this
browser session may poll it (games/views/table.py).

The cache is derived from the database and never trusted beyond it:
- the version is written after the commit (`transaction.on_commit`), and only ever raised
  (a late or out-of-order write, or a poll that read the database before a commit, cannot
  lower it: an atomic compare-and-set on Redis);
- a missing entry, or a cache that fails (lib/cache_failures.py), sends the poll to the
  database, which refills it;
- entries expire after VERSION_TTL, so a write that failed after a commit (Redis unreachable
  at that moment but back by the next poll) hides a change for at most that long.
The poll trusts the cache only when every process shares it (settings.POLL_FROM_CACHE:
Redis); the embedded default's per-process memory would never hear of a worker's move.
"""

import hashlib
import logging

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.db import transaction
from django.db.models import F

from games import push
from games.models import Game
from lib.cache_batch import Batch, after_commit
from lib.cache_failures import failing_cache_is_no_cache

log = logging.getLogger(__name__)

VERSION_TTL = 60  # seconds; see above
# How long a session, once checked by the database path, may poll a game from the cache
# alone. A 204 tells nothing, so a session that died meanwhile (logged out elsewhere,
# suspended) learns nothing from it; the first change sends it to the database path.
VIEWER_TTL = 600


def bump(game: Game | int) -> int:
    """Raise the game's version by one in the caller's transaction; the cache learns the new
    version after the commit. Returns it (and sets it on `game` when given a Game)."""
    game_id = game.pk if isinstance(game, Game) else game
    same_game = Game.objects.filter(pk=game_id)
    # Right whether or not the caller locked the row, and whatever `game` was read as: the
    # UPDATE raises the version in the database, and holds the row's write lock to the end
    # of the transaction, so the read after it sees this very bump. Outside a transaction
    # the block makes one (inside one, savepoint=False adds no statement).
    with transaction.atomic(savepoint=False):
        same_game.update(version=F("version") + 1)
        version = same_game.values_list("version", flat=True).first()
    if version is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    if isinstance(game, Game):
        game.version = version
    transaction.on_commit(lambda: changed(game_id, version))
    return version


def changed(game_id: int, version: int) -> None:
    """After the commit: the cache learns the new version, and open pages are told of it
    (games/push.py), in one round trip, with the rest of the commit's cache writes when a
    `lib.cache_batch.collected()` block holds them (a move's)."""
    batch = Batch()
    publish(game_id, version, batch)
    if push.enabled():
        batch.publish(
            push.channel(game_id), version, otherwise=lambda: push.announce(game_id, version)
        )
    after_commit(batch)


def publish(game_id: int, version: int, batch: Batch | None = None) -> None:
    """Tell the cache the game's version (after a commit, or as read from the database),
    never lowering it; in `batch` when given (the caller sends it). A failure is logged,
    never raised: the database stays the answer."""
    own = batch is None
    batch = Batch() if own else batch
    batch.raise_to(_version_key(game_id), version, VERSION_TTL)
    if own:
        batch.send()


def unchanged_for(game_id: int, shown_version: int, session_key: str) -> int | None:
    """The user id this session polls the game as, if the cache says that the game is still
    at `shown_version` and that the database path found this session's user seated at that
    version (seats change only with the version); None when the cache cannot say so (then
    ask the database)."""
    if not settings.POLL_FROM_CACHE:
        return None
    version_key, viewer_key = _version_key(game_id), _viewer_key(game_id, session_key)
    found = {}
    # Asked by every poll: a cache that is down would log a warning every few seconds per
    # open page (the writes that follow on the database path warn of it already).
    with failing_cache_is_no_cache(
        log, "could not read a poll from the cache", level=logging.DEBUG
    ):
        found = _cache().get_many([version_key, viewer_key])
    viewer = found.get(viewer_key)
    if found.get(version_key) != shown_version or not isinstance(viewer, tuple):
        return None
    user_id, seated_at = viewer
    return user_id if seated_at == shown_version else None


def remember_viewer(
    game_id: int, version: int, session_key: str, user_id: int, batch: Batch | None = None
) -> None:
    """After the database showed the session's user seated in the game at `version` (a page,
    or a poll through the view): the version (never lowered), and that this session may poll
    the game from the cache, as this user, while the game stays at that version. In `batch`
    when given (the turn page sends it with its table's read); else in one round trip."""
    own = batch is None
    batch = Batch() if own else batch
    publish(game_id, version, batch)
    batch.set(_viewer_key(game_id, session_key), (user_id, version), VIEWER_TTL)
    if own:
        batch.send()


def _version_key(game_id: int) -> str:
    return f"game:{game_id}:version"


def _viewer_key(game_id: int, session_key: str) -> str:
    # The session key is a secret: only a digest of it goes into the cache's key names.
    digest = hashlib.sha256(session_key.encode()).hexdigest()[:32]
    return f"game:{game_id}:viewer:{digest}"


def _cache():
    return caches[DEFAULT_CACHE_ALIAS]
