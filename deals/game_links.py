"""Which shared deal a game is played on, read on every request to a game's pages
(deals/middleware.py) and so kept in the cache: for the many games on no shared deal, the
page makes no extra query.

A game is linked to its deal once (DealGame) and never unlinked. The writer sets the cache
after its commit; a reader that missed puts what the database said only if nothing is there
yet (`add`), so a reader that read before the commit cannot overwrite the writer. "On no
deal" is kept for a few minutes only: if the writer's set was lost (the cache unreachable
at that moment), the game's pages learn of its deal soon anyway."""

import logging

from django.core.cache import cache
from django.db import transaction

from deals.models import DealGame
from lib.cache_failures import failing_cache_is_no_cache

log = logging.getLogger(__name__)
NO_DEAL = 0
NO_DEAL_SECONDS = 300


def _key(game_id: int) -> str:
    return f"deals:deal-of-game:{game_id}"


def deal_id_of(game_id: int) -> int | None:
    cached = None
    with failing_cache_is_no_cache(log, "could not read game %s's deal from the cache", game_id):
        cached = cache.get(_key(game_id))
    if cached is not None:
        return cached or None
    deal_id = DealGame.objects.filter(game_id=game_id).values_list("deal_id", flat=True).first()
    with failing_cache_is_no_cache(log, "could not write game %s's deal to the cache", game_id):
        if deal_id is None:
            cache.add(_key(game_id), NO_DEAL, timeout=NO_DEAL_SECONDS)
        else:
            cache.add(_key(game_id), deal_id, timeout=None)
    return deal_id


def remember_after_commit(game_id: int, deal_id: int) -> None:
    def remember() -> None:
        with failing_cache_is_no_cache(log, "could not write game %s's deal", game_id):
            cache.set(_key(game_id), deal_id, timeout=None)

    transaction.on_commit(remember)
