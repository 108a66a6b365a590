"""Play this deal: a new table on a finished game's deck and options, for people who have
not seen it; and who has seen a deal (played it, watched it, opened its games)."""

import pytest

from deals.models import Deal, DealGame, DealView
from deals.seen import SEEN_REASON
from deals.services import share, start_table
from games.errors import GameError, NotAllowed
from games.models import Game, Spectator
from games.services import lobby
from tests.conftest import make_user
from tests.deals.conftest import finished_game, join_and_start
from tests.games.conftest import start_game


def test_a_table_on_a_shared_deal_is_dealt_the_same_cards(alice, bob, carol, mallory):
    original = finished_game(alice, bob, seed=99, fuses=2)
    deal = share(original)
    game = start_table(deal.pk, carol, Game.Visibility.PUBLIC)
    assert DealGame.objects.get(game=game).deal == deal
    assert game.options == original.options
    join_and_start(game, mallory)
    first, again = original.load_state(moves=[]), game.load_state(moves=[])
    assert first.deck == again.deck
    assert [first.hand(s) for s in range(2)] == [again.hand(s) for s in range(2)]
    assert [[first.card(c) for c in first.hand(s)] for s in range(2)] == [
        [again.card(c) for c in again.hand(s)] for s in range(2)
    ]


def test_sharing_twice_stores_the_deal_once(alice, bob):
    game = finished_game(alice, bob)
    assert share(game) == share(game)
    assert Deal.objects.count() == 1 and DealGame.objects.filter(game=game).count() == 1


def test_a_game_not_over_cannot_be_shared(alice, bob):
    game = start_game(alice, bob)
    with pytest.raises(GameError):
        share(game)
    assert not Deal.objects.exists()


def test_who_played_the_deal_cannot_start_a_table_on_it(alice, bob):
    deal = share(finished_game(alice, bob))
    with pytest.raises(NotAllowed, match="seen this deal"):
        start_table(deal.pk, alice, Game.Visibility.PUBLIC)
    assert DealGame.objects.count() == 1


@pytest.fixture
def open_table(alice, bob, carol) -> Game:
    """A deal alice and bob played, and carol's new table on it, waiting for one more."""
    deal = share(finished_game(alice, bob))
    return start_table(deal.pk, carol, Game.Visibility.PUBLIC)


def refused_a_seat(game: Game, user) -> None:
    with pytest.raises(NotAllowed) as refusal:
        lobby.join_game(game.pk, user)
    assert str(refusal.value) == SEEN_REASON
    assert not game.seats.filter(user=user).exists()


def test_a_player_of_the_deal_is_refused_a_seat(open_table, bob):
    refused_a_seat(open_table, bob)


def test_a_player_replaced_by_a_moderator_is_refused_a_seat(open_table, alice, bob):
    original = DealGame.objects.exclude(game=open_table).get().game
    seat = original.seats.get(user=bob)
    stranger = make_user("dora")
    seat.former_users.add(stranger)
    refused_a_seat(open_table, stranger)


def test_a_spectator_of_the_deal_is_refused_a_seat(open_table, alice):
    original = DealGame.objects.exclude(game=open_table).get().game
    watcher = make_user("wanda")
    Spectator.objects.create(game=original, user=watcher)
    refused_a_seat(open_table, watcher)


def test_who_opened_the_deals_games_is_refused_a_seat(open_table, client):
    reader = make_user("rita")
    client.force_login(reader)
    deal = DealGame.objects.get(game=open_table).deal
    assert client.post(f"/deals/{deal.pk}/look/").status_code == 302
    assert DealView.objects.filter(deal=deal, user=reader).exists()
    refused_a_seat(open_table, reader)


def test_who_opened_a_finished_game_of_the_deal_has_seen_it(open_table, client):
    original = DealGame.objects.exclude(game=open_table).get().game
    reader = make_user("rita")
    client.force_login(reader)
    assert client.get(f"/games/{original.pk}/replay/1/").status_code == 404  # invitation only
    lobby.join_game(open_table.pk, reader)  # so nothing was seen
    lobby.leave_game(open_table.pk, reader)
    Game.objects.filter(pk=original.pk).update(visibility=Game.Visibility.PUBLIC)
    assert client.get(f"/games/{original.pk}/replay/1/").status_code == 200
    refused_a_seat(open_table, reader)


def test_someone_who_has_not_seen_the_deal_joins(open_table, mallory):
    lobby.join_game(open_table.pk, mallory)
    assert open_table.seats.filter(user=mallory).exists()


def test_the_deal_page_starts_a_table_after_a_confirmation(alice, bob, mallory, client):
    deal = share(finished_game(alice, bob))
    client.force_login(mallory)
    page = client.get(f"/deals/{deal.pk}/play/")
    assert page.status_code == 200 and b"Start a table on this deal" in page.content
    assert DealGame.objects.count() == 1  # the page alone starts nothing
    response = client.post(f"/deals/{deal.pk}/play/", {"visibility": "invite"})
    game = DealGame.objects.exclude(game__creator=alice).get().game
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.creator == mallory and game.visibility == Game.Visibility.INVITE
    assert game.deck == deal.deck


def test_the_play_page_tells_who_has_seen_the_deal_why_not(alice, bob, client):
    deal = share(finished_game(alice, bob))
    client.force_login(alice)
    page = client.get(f"/deals/{deal.pk}/play/")
    assert b"You have seen this deal already" in page.content
    response = client.post(f"/deals/{deal.pk}/play/", follow=True)
    assert SEEN_REASON.encode() in response.content
    assert DealGame.objects.count() == 1


def deal_links(game: Game, user) -> str:
    """What templates/games/_after_the_game.html shows under a finished game."""
    from django.template import Context, Template
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = user
    template = Template("{% load deal_tags %}{% deal_links game %}")
    return template.render(Context({"game": game, "request": request, "user": user}))


def test_a_finished_game_links_to_its_deal(alice, bob, client, django_capture_on_commit_callbacks):
    game = finished_game(alice, bob)
    assert f'href="/deals/from-game/{game.pk}/"' in deal_links(game, alice)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):  # the link kept in the cache
        response = client.get(f"/deals/from-game/{game.pk}/")
    deal = DealGame.objects.get(game=game).deal
    assert response["Location"] == f"/deals/{deal.pk}/"
    assert f'href="/deals/{deal.pk}/"' in deal_links(game, alice)


def test_a_game_nobody_may_see_is_not_shared(alice, bob, mallory, client):
    game = finished_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(spectators="nobody")
    client.force_login(mallory)
    assert client.get(f"/deals/from-game/{game.pk}/").status_code == 404
    assert not Deal.objects.exists()


def test_a_moderator_cannot_seat_someone_who_has_seen_the_deal(open_table, bob):
    """replace_seat asks the same guards as joining (moderation/services.py)."""
    from moderation.services import replace_seat
    from tests.conftest import make_moderator

    moderator = make_moderator()
    free = open_table.seats.filter(user=None).order_by("position").first()
    with pytest.raises(GameError, match="cannot take this seat"):
        replace_seat(open_table.pk, moderator, "a stand-in", free.position, bob.email)
    free.refresh_from_db()
    assert free.user is None
