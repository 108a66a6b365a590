"""Tables of bots only play a shared deal: one of house bots and one of expert bots, 2 to 5
players, each run by an outbox row on the queue `deals`; their scores appear on the page."""

import pytest

from deals import outbox_kinds
from deals.bot_tables import play_with_bots
from deals.models import DEAL_BOT_KINDS, DealBotScore
from deals.services import share
from games.engine import GameOptions, new_deck, replay
from games.models import BotKind
from outbox import delivery
from outbox.models import Outbox
from tests.conftest import make_user
from tests.deals.conftest import finished_game
from tests.mail import run_due


@pytest.mark.parametrize(
    "players",
    # Two house bots search their endgame: seconds of CPU.
    [pytest.param(2, marks=pytest.mark.slow), 3, 4, 5],
)
def test_bots_only_tables_play_the_deal_and_their_scores_show(db, client, players):
    users = [make_user(f"p{n}") for n in range(players)]
    deal = share(finished_game(*users, seed=31))
    rows = Outbox.objects.filter(kind=outbox_kinds.BOT_TABLE)
    assert sorted(row.payload["bot_kind"] for row in rows) == sorted(DEAL_BOT_KINDS)
    assert {delivery.queue_for(row.kind) for row in rows} == {"celery-deals"}

    assert run_due(outbox_kinds.BOT_TABLE) == 2
    options = GameOptions(players=players)
    for kind in DEAL_BOT_KINDS:
        stored = DealBotScore.objects.get(deal=deal, bot_kind=kind)
        assert (stored.score, stored.end) == play_with_bots(options, deal.deck, kind)
    client.force_login(users[0])
    page = client.get(f"/deals/{deal.pk}/").content.decode()
    for stored in DealBotScore.objects.filter(deal=deal):
        assert f"<strong>{stored.score} / 25</strong>" in page
    assert "being played…" not in page


def test_a_bot_table_row_run_twice_plays_once(alice, bob, carol):
    deal = share(finished_game(alice, bob, carol))
    rows = list(Outbox.objects.filter(kind=outbox_kinds.BOT_TABLE))
    assert run_due(outbox_kinds.BOT_TABLE) == 2
    Outbox.objects.filter(pk__in=[row.pk for row in rows]).update(done_at=None, claimed_at=None)
    assert run_due(outbox_kinds.BOT_TABLE) == 2  # ran again, and found its score there
    assert DealBotScore.objects.filter(deal=deal).count() == 2


def test_the_bots_play_the_deal_itself():
    """Each seat sees only its own view; the deck is the deal's, top first."""
    options = GameOptions(players=3)
    deck = [list(card) for card in new_deck(options, 5)]
    score, end = play_with_bots(options, deck, BotKind.EXPERT)
    assert 0 <= score <= 25 and end
    assert replay(options, deck, []).deck == tuple(tuple(card) for card in deck)
