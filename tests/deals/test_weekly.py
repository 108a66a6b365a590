"""The deal of the week: the same for everyone in an ISO week, made by the first to ask,
shown on the lobby with its results and a button to play it."""

import re
from datetime import date

from deals.models import Deal
from deals.services import WEEKLY_OPTIONS, weekly_deal, weekly_seed
from games.engine import new_deck
from games.models import Game
from tests.conftest import make_user


def weekly_play_link(client) -> str:
    """Where the lobby's "Play the weekly deal" leads: the week's deal's play page."""
    lobby = client.get("/").content.decode()
    (link,) = re.findall(r'href="([^"]+)">Play the weekly deal', lobby)
    response = client.get(link)
    assert response.status_code == 302
    return response["Location"]


def test_the_lobby_alone_makes_no_deal(client, alice):
    client.force_login(alice)
    assert "Play the weekly deal" in client.get("/").content.decode()
    assert not Deal.objects.exists()  # the lobby writes nothing


def test_two_people_get_the_same_weekly_deal(client, alice, bob):
    client.force_login(alice)
    first = weekly_play_link(client)
    client.force_login(bob)
    assert weekly_play_link(client) == first
    deal = Deal.objects.get()
    assert first == f"/deals/{deal.pk}/play/"
    assert client.get("/deals/weekly/")["Location"] == f"/deals/{deal.pk}/"
    assert deal.game_options == WEEKLY_OPTIONS and WEEKLY_OPTIONS.players == 3
    assert deal.game_options.variant_name() == WEEKLY_OPTIONS.variant_name()


def test_the_week_decides_the_deal(db):
    monday, sunday, next_monday = date(2026, 11, 23), date(2026, 11, 29), date(2026, 11, 30)
    deal = weekly_deal(monday)
    assert weekly_deal(sunday) == deal and deal.weekly_of == monday
    following = weekly_deal(next_monday)
    assert following != deal and following.deck != deal.deck
    assert deal.deck == [[c.suit, c.rank] for c in new_deck(WEEKLY_OPTIONS, weekly_seed(monday))]
    assert Deal.objects.count() == 2


def test_the_weekly_deal_is_played_from_the_lobby(client, alice, bob):
    client.force_login(alice)
    response = client.post(weekly_play_link(client))
    game = Game.objects.get(creator=alice)
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.deck == weekly_deal().deck
    from games.services import lobby

    lobby.join_game(game.pk, bob)
    lobby.join_game(game.pk, make_user("dora"))
    client.force_login(make_user("eve"))
    lobby_page = client.get("/").content.decode()
    assert "Play the weekly deal" in lobby_page  # eve has seen nothing of it


def test_anonymous_visitors_see_the_weekly_deal_and_a_login(client, db):
    lobby = client.get("/").content.decode()
    assert "The deal of the week" in lobby and "to play it" in lobby
