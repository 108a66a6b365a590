"""Storing a deal (from a finished game, or the week's), and starting a table on one."""

import hashlib
from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from deals import game_links, outbox_kinds
from deals.models import DEAL_BOT_KINDS, Deal, DealGame, deal_key
from deals.seen import SEEN_REASON, has_seen
from games.engine import GameOptions, new_deck, replay
from games.errors import GameError, NotAllowed
from games.models import Game
from games.services import lobby
from outbox.delivery import schedule

WEEKLY_OPTIONS = GameOptions(players=3)


def deck_of(game: Game) -> list[list[int]]:
    """The game's whole deck, top first, as the engine deals it."""
    state = replay(game.game_options, game.deck_source, [])
    return [[card.suit, card.rank] for card in state.deck]


def _stored(options: GameOptions, deck: list, **fields) -> Deal:
    """The deal of these options and deck, stored once; its bot tables are scheduled with it."""
    options_dict = options.to_dict()
    deal, created = Deal.objects.get_or_create(
        key=deal_key(options_dict, deck), defaults={"options": options_dict, "deck": deck, **fields}
    )
    if created:
        for kind in DEAL_BOT_KINDS:
            schedule(
                outbox_kinds.BOT_TABLE,
                {"deal": deal.pk, "bot_kind": kind},
                dedupe_key=f"deal:{deal.pk}:{kind}",
            )
    return deal


def share(game: Game) -> Deal:
    """The deal of a finished game, stored and linked to it the first time it is asked for."""
    if not game.is_finished():
        raise GameError(_("A game's deal can be shared only once the game has ended."))
    with transaction.atomic():
        link = DealGame.objects.filter(game=game).select_related("deal").first()
        if link is not None:
            return link.deal
        deal = _stored(game.game_options, deck_of(game))
        DealGame.objects.get_or_create(game=game, defaults={"deal": deal})
        game_links.remember_after_commit(game.pk, deal.pk)
    return deal


def start_table(deal_id: int, user: User, visibility: str) -> Game:
    """A new table on the deal with `user` in the first seat, for others to join; refused to
    anyone who has seen the deal."""
    with transaction.atomic():
        # The deal's row lock puts this after (or before) the same person opening the deal's
        # page (deals/views.py), so that nobody both sees the deal and sits down to play it.
        deal = Deal.objects.select_for_update().filter(pk=deal_id).first()
        if deal is None:
            raise GameError(_("There is no such deal."))
        if has_seen(deal.pk, user):
            raise NotAllowed(SEEN_REASON)
        game = lobby.create_game(user, deal.game_options, visibility, deck=deal.deck)
        DealGame.objects.create(deal=deal, game=game)
        game_links.remember_after_commit(game.pk, deal.pk)
    return game


def week_of(day: date) -> date:
    """The Monday of the ISO week of `day`."""
    return day - timedelta(days=day.weekday())


def weekly_seed(monday: date) -> int:
    year, week, _weekday = monday.isocalendar()
    digest = hashlib.sha256(f"hanabi weekly deal {year}-W{week:02d}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits, as Game.seed


def this_week() -> date:
    """The Monday of this week, in UTC: the same week for everyone, wherever they are."""
    return week_of(timezone.now().date())


def weekly_deal_if_made(day: date | None = None) -> Deal | None:
    return Deal.objects.filter(weekly_of=week_of(day or timezone.now().date())).first()


def weekly_deal(day: date | None = None) -> Deal:
    """The deal of the week (UTC), the same for everyone: made by the first to ask for its
    page or to play it (the lobby only reads it, so that showing the lobby writes nothing)."""
    monday = week_of(day or this_week())
    deal = Deal.objects.filter(weekly_of=monday).first()
    if deal is not None:
        return deal
    deck = [[card.suit, card.rank] for card in new_deck(WEEKLY_OPTIONS, weekly_seed(monday))]
    with transaction.atomic():
        return _stored(WEEKLY_OPTIONS, deck, weekly_of=monday)
