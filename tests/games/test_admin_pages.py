"""The admin as moderators use it: finding games, reading a game's record and its cards at
any turn, and list pages whose query count does not grow with the site."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import Discard, action_to_dict, replay
from games.models import ChatMessage, Game
from games.services import chat, play
from moderation import services as moderation
from moderation.models import Report
from tests.conftest import make_moderator
from tests.games.conftest import current_user, make_user, play_to_the_end, start_game


@pytest.fixture
def moderator(db):
    return make_moderator("maud")


def listed(client, query: str) -> set[int]:
    """The pks of the games the admin's game list shows for this query string."""
    page = client.get(f"/admin/games/game/?{query}")
    assert page.status_code == 200
    return {game.pk for game in page.context["cl"].result_list}


def test_moderators_find_games_by_player_variant_player_count_and_age(
    client, moderator, alice, bob, carol, mallory
):
    plain = start_game(alice, bob)
    wild = start_game(alice, bob, carol, multicolour=3, fuses=2)
    old = start_game(mallory, carol)
    Game.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(days=40),
        turn_started_at=timezone.now() - timedelta(days=4),
    )
    assert (wild.player_count, wild.variant) == (3, "wild multicolour, 2 fuses")
    client.force_login(moderator)

    assert listed(client, "") == {plain.pk, wild.pk, old.pk}
    assert listed(client, "q=mallory@example.org") == {old.pk}  # the creator
    assert listed(client, "q=Bob") == {plain.pk, wild.pk}  # a player, not the creator
    assert listed(client, "variant=wild+multicolour%2C+2+fuses") == {wild.pk}
    assert listed(client, "variant=no+variant") == {plain.pk, old.pk}
    assert listed(client, "player_count=3") == {wild.pk}
    # The link of the admin's own "Past 7 days" choice.
    page = client.get("/admin/games/game/").context["cl"]
    (age,) = [f for f in page.filter_specs if getattr(f, "field_path", "") == "created_at"]
    past_week = next(choice for choice in age.choices(page) if choice["display"] == "Past 7 days")
    assert listed(client, past_week["query_string"].lstrip("?")) == {plain.pk, wild.pk}
    assert listed(client, "waiting=3") == {old.pk}
    assert listed(client, "waiting=7") == set()


def test_a_game_record_is_read_only_in_the_admin(client, moderator, alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    chat.post_message(game.pk, bob, "well played")
    client.force_login(moderator)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "well played" in page
    first_move = game.moves.order_by("turn").first()
    assert f"{first_move.action['type']}" in page
    assert 'name="moves-0-turn"' not in page  # shown, not editable
    assert 'name="seed"' not in page and 'name="deck"' not in page
    assert f"/admin/games/game/{game.pk}/turn/0/" in page


def hand_labels(game: Game, turn: int) -> list[str]:
    moves = list(game.moves.order_by("turn").values_list("action", flat=True))
    state = replay(game.game_options, game.deck_source, moves, upto=turn)
    return [state.card(cid).name for hand in state.hands for cid in hand]


def test_a_moderator_sees_every_hand_at_any_turn(client, moderator, alice, bob):
    game = start_game(alice, bob)
    for _ in range(3):
        legal = game.load_state().legal_actions()
        action = next((a for a in legal if isinstance(a, Discard)), legal[0])
        play.submit_action(game.pk, current_user(game), action_to_dict(action), game.turn)
        game.refresh_from_db()
    client.force_login(moderator)
    for turn in (0, 2, 3):
        page = client.get(f"/admin/games/game/{game.pk}/turn/{turn}/")
        assert page.status_code == 200
        body = page.content.decode()
        assert f"Turn {turn + 1} of 4" in body
        for label in hand_labels(game, turn):
            assert f"{label}<" in body, (turn, label)
    assert client.get(f"/admin/games/game/{game.pk}/turn/4/").status_code == 404


def test_nobody_else_sees_the_cards_of_a_game_in_play(client, moderator, alice, bob):
    game = start_game(alice, bob)
    url = f"/admin/games/game/{game.pk}/turn/0/"

    client.force_login(alice)  # a player, not staff: sent to the admin's login page
    assert client.get(url).status_code == 302
    staff = make_user("stan")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    client.force_login(staff)
    assert client.get(url).status_code == 403

    # A moderator who plays in the game sees no more of it than any player ...
    seated = make_moderator("mo")
    playing = start_game(seated, bob)
    client.force_login(seated)
    response = client.get(f"/admin/games/game/{playing.pk}/turn/0/")
    assert response.status_code == 403
    own = playing.load_state().hand(playing.seats.get(user=seated).position)
    change = client.get(f"/admin/games/game/{playing.pk}/change/").content.decode()
    for cid in own:
        assert f"{playing.load_state().card(cid).name}<" not in change
    # ... until it is over.
    play_to_the_end(playing)
    assert client.get(f"/admin/games/game/{playing.pk}/turn/0/").status_code == 200


def make_games(count: int, creator, *others) -> None:
    for _ in range(count):
        game = start_game(creator, *others)
        ChatMessage.objects.create(game=game, author=others[0], text="hello")
        moderation.report(game.pk, creator, "slow", reported_user_id=others[0].pk)


ADMIN_LISTS = [
    "/admin/games/game/",
    "/admin/games/game/?q=bob",
    "/admin/games/game/?status__exact=playing&player_count=2",
    "/admin/games/move/",
    "/admin/moderation/report/?status__exact=open",
    "/admin/moderation/moderatoraction/",
    "/admin/games/chatmessage/",
    "/admin/accounts/user/",
]


def test_no_admin_list_makes_more_queries_as_the_site_grows(client, moderator, alice, bob):
    client.force_login(moderator)
    make_games(2, alice, bob)
    before = {}
    for url in ADMIN_LISTS:
        assert client.get(url).status_code == 200, url
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        before[url] = len(queries)
    make_games(6, alice, bob)
    for other in range(4):
        make_games(1, make_user(f"extra{other}"), bob)
    for url, count in before.items():
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        assert len(queries) == count, (url, [q["sql"] for q in queries.captured_queries])
    assert Report.objects.count() == 12
