"""Nobody who sits at a game on a deal that is not over reaches anything of that deal: its
page, its results, its other games, starting a table, the weekly deal. The leak probe's
twin method (tests/games/leak_probe.py): two deals that differ only in the viewer's own
cards (and the deck's bottom) look exactly the same to the viewer by every URL added here,
and no response names a card the viewer cannot see."""

import re

import pytest
from django.urls import URLPattern

from deals import urls as deal_urls
from deals.services import share, start_table, weekly_deal
from games.engine import GameOptions, new_deck
from games.models import Game
from tests.conftest import make_user
from tests.deals.conftest import join_and_start
from tests.games.conftest import play_to_the_end, start_game
from tests.games.leak_probe import SEED, hide_swapped_deck

VIEWER_SEAT = 1


def table_on(deal_id: int, creator, *others) -> Game:
    """A started table on the deal, its players seated as the probe's seed seats them."""
    game = start_table(deal_id, creator, Game.Visibility.PUBLIC)
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    return join_and_start(game, *others)


def hidden_cards(game: Game) -> list:
    """The viewer's own cards and the undealt deck, less any card the viewer sees too."""
    state = game.load_state()
    visible = {state.card(c) for seat in range(3) if seat != VIEWER_SEAT for c in state.hand(seat)}
    hidden = [state.card(c) for c in state.hand(VIEWER_SEAT)]
    hidden += [state.card(c) for c in range(state.cards_drawn, len(state.deck))]
    return [card for card in hidden if card not in visible]


def assert_names_no_card(body: str, cards: list, url: str) -> None:
    for card in cards:
        assert f"{card.name}<" not in body, (url, card)
        assert f'"code": "{card.code}"' not in body, (url, card)
        assert f">{card.code}<" not in body, (url, card)
    assert '"deck"' not in body and "[[" not in body, url


def twin(deck: list, players: list, others: list, viewer):
    """A finished game on `deck` by `others`, its deal shared, and the viewer's table on it."""
    finished = play_to_the_end(start_game(*others, deck=deck, seed=SEED))
    # Open to everyone once over: what keeps its pages from the viewer is the deal alone.
    Game.objects.filter(pk=finished.pk).update(visibility=Game.Visibility.PUBLIC)
    deal = share(finished)
    users = {user.pk: user for user in players}
    # The seats follow the seed: seat VIEWER_SEAT for the viewer.
    mine = table_on(deal.pk, *[users[pk] for pk in seating_for(players, viewer)])
    assert mine.seats.get(position=VIEWER_SEAT).user == viewer
    return deal, finished, mine


def seating_for(players: list, viewer) -> list[int]:
    """Joining order that the seed's seating puts the viewer at VIEWER_SEAT."""
    from games.engine import seating_order

    order = seating_order(SEED, 3)  # seat s gets the order[s]-th to join
    joining = [None] * 3
    rest = iter(p.pk for p in players if p != viewer)
    joining[order[VIEWER_SEAT]] = viewer.pk
    return [pk if pk is not None else next(rest) for pk in joining]


def urls_of(deal, finished, mine) -> list[tuple[str, str, dict]]:
    return [
        ("get", f"/deals/{deal.pk}/", {}),
        ("get", f"/deals/{deal.pk}/", {"HTTP_HX_REQUEST": "true"}),
        ("post", f"/deals/{deal.pk}/look/", {}),
        ("get", f"/deals/{deal.pk}/play/", {}),
        ("post", f"/deals/{deal.pk}/play/", {}),
        ("get", f"/deals/from-game/{finished.pk}/", {}),
        ("get", f"/games/{finished.pk}/", {}),
        ("get", f"/games/{finished.pk}/replay/1/", {}),
        ("get", f"/games/{finished.pk}/export.json", {}),
        ("get", f"/games/{finished.pk}/analysis/", {"HTTP_HX_REQUEST": "true"}),
        ("get", f"/games/{finished.pk}/poll/?status=playing&v=0", {"HTTP_HX_REQUEST": "true"}),
    ]


def normalise(text: str, deal, finished, mine) -> str:
    text = re.sub(r'csrfmiddlewaretoken" value="[^"]+"', "csrf", text)
    text = re.sub(r'"X-CSRFToken": "[^"]+"', "csrf", text)
    # The footer's language switch names the page's own path: /deals/from-game/<id>/ too.
    for thing, name in (
        (deal, "deals"),
        (finished, "games"),
        (mine, "games"),
        (finished, "from-game"),
    ):
        text = text.replace(f"/{name}/{thing.pk}/", f"/{name}/{type(thing).__name__}/")
    return text


def test_the_deals_pages_do_not_depend_on_the_viewers_own_cards(client, db):
    others = [make_user(name) for name in ("xia", "yan", "zoe")]
    players = [make_user(name) for name in ("ann", "ben", "cid")]
    viewer = players[1]
    deck = [list(card) for card in new_deck(GameOptions(players=3), SEED)]
    deal_a, finished_a, mine_a = twin(deck, players, others, viewer)
    own = list(mine_a.load_state().hand(VIEWER_SEAT))
    deck_b = hide_swapped_deck(deck, own)
    others_b = [make_user(name) for name in ("xib", "yab", "zob")]
    players_b = [make_user(name) for name in ("anb", "beb", "cib")]
    # The twin's viewer is another account with the same name, so that the pages, which
    # name the viewer, can be compared.
    players_b[1].display_name = viewer.display_name
    players_b[1].save(update_fields=["display_name"])
    deal_b, finished_b, mine_b = twin(deck_b, players_b, others_b, players_b[1])
    assert [deck[i] for i in own] != [deck_b[i] for i in own]
    hidden = hidden_cards(mine_a)

    for (method, url_a, headers), (_, url_b, _) in zip(
        urls_of(deal_a, finished_a, mine_a), urls_of(deal_b, finished_b, mine_b), strict=True
    ):
        client.force_login(viewer)
        response_a = getattr(client, method)(url_a, follow=True, **headers)
        client.force_login(players_b[1])
        response_b = getattr(client, method)(url_b, follow=True, **headers)
        assert response_a.status_code == response_b.status_code == 403, url_a
        body_a, body_b = response_a.content.decode(), response_b.content.decode()
        assert normalise(body_a, deal_a, finished_a, mine_a) == normalise(
            body_b, deal_b, finished_b, mine_b
        ), url_a
        assert_names_no_card(body_a, hidden, url_a)
        assert "Not while you play this deal" in body_a

    # The comparison can fail: someone who has not seen the deals is shown their results.
    client.force_login(make_user("mallory"))
    page_a = client.get(f"/deals/{deal_a.pk}/").content.decode()
    page_b = client.get(f"/deals/{deal_b.pk}/").content.decode()
    assert normalise(page_a, deal_a, finished_a, mine_a) != normalise(
        page_b, deal_b, finished_b, mine_b
    )


@pytest.fixture
def weekly_in_progress(db):
    """The weekly deal: a finished table of others, and the viewer's table not over."""
    deal = weekly_deal()
    others = [make_user(name) for name in ("xia", "yan", "zoe")]
    finished = play_to_the_end(table_on(deal.pk, *others))
    viewer, *partners = [make_user(name) for name in ("ann", "ben", "cid")]
    mine = table_on(deal.pk, viewer, *partners)
    return deal, finished, mine, viewer


def test_every_deal_url_refuses_a_player_of_the_deal(client, weekly_in_progress):
    deal, finished, mine, viewer = weekly_in_progress
    hidden = hidden_cards(mine) if mine.seats.get(user=viewer).position == VIEWER_SEAT else []
    state = mine.load_state()
    seat = mine.seats.get(user=viewer).position
    hidden = [state.card(c) for c in state.hand(seat)] + hidden
    client.force_login(viewer)
    kwargs = {"deal_id": deal.pk, "game_id": finished.pk}
    for pattern in deal_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        names = pattern.pattern.converters.keys()
        url = "/deals/" + str(pattern.pattern).replace("<int:deal_id>", str(deal.pk)).replace(
            "<int:game_id>", str(kwargs["game_id"])
        )
        assert set(names) <= set(kwargs), url
        for method in ("get", "post"):
            response = getattr(client, method)(url, follow=True)
            if response.status_code == 405:
                continue  # this URL takes the other method
            assert response.status_code == 403, (method, url)
            body = response.content.decode()
            assert "Not while you play this deal" in body, (method, url)
            assert_names_no_card(body, hidden, url)
    assert Game.objects.filter(shared_deal__deal=deal).count() == 2  # no table started


def test_the_lobby_shows_a_player_of_the_weekly_deal_none_of_its_results(
    client, weekly_in_progress
):
    deal, finished, mine, viewer = weekly_in_progress
    client.force_login(viewer)
    lobby = client.get("/").content.decode()
    section = lobby[lobby.index('id="weekly-deal-heading"') :].split("</section>")[0]
    assert "is not over" in section and f"/games/{mine.pk}/" in section
    assert "/ 25" not in section and "Play the weekly deal" not in section
    client.force_login(make_user("mallory"))
    lobby = client.get("/").content.decode()
    assert f"{finished.score} / 25" in lobby and "Play the weekly deal" in lobby


def test_a_player_of_the_deal_cannot_watch_another_table_of_it(client, weekly_in_progress):
    deal, finished, mine, viewer = weekly_in_progress
    watched = table_on(deal.pk, *[make_user(name) for name in ("una", "vic", "wes")])
    Game.objects.filter(pk=watched.pk).update(spectators="during")
    client.force_login(make_user("mallory"))  # who may watch it: the comparison can fail
    assert client.get(f"/games/{watched.pk}/watch/").status_code == 200
    client.force_login(viewer)
    for url in (f"/games/{watched.pk}/watch/", f"/games/{watched.pk}/"):
        response = client.get(url)
        assert response.status_code == 403, url
        assert "Not while you play this deal" in response.content.decode()
