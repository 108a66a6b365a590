import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import GameOptions, action_to_dict
from games.models import Game
from games.services import lobby, play
from tests.games.conftest import current_user, make_user, start_game, user_at

HTMX = {"HTTP_HX_REQUEST": "true"}


def first_clue(game: Game) -> dict:
    state = game.load_state()
    clue = next(a for a in state.legal_actions() if type(a).__name__ == "Clue")
    return action_to_dict(clue)


def test_the_turn_page_shows_the_table_to_a_player(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Your hand" in page and "Discard pile" in page and "History" in page
    other = bob.display_name
    assert other in page
    if current_user(game) == alice:
        assert "It is your turn" in page and "(Your turn)" in page
        assert f"Clue {other}:" in page
    else:
        assert f"Waiting for <strong>{other}</strong>" in page


def test_outsiders_get_404_for_a_private_game(client, alice, bob, mallory):
    game = start_game(alice, bob)
    client.force_login(mallory)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/poll/?turn=0"):
        assert client.get(url).status_code == 404
    response = client.post(f"/games/{game.pk}/move/", {"turn": 0, "kind": "play", "card": 0})
    assert response.status_code == 404
    assert game.moves.count() == 0


def test_anonymous_visitors_are_sent_to_log_in(client, alice, bob):
    game = start_game(alice, bob)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 302 and "/login/" in response.url


def test_a_clue_through_the_form_moves_the_game_on(client, alice, bob):
    game = start_game(alice, bob)
    mover = current_user(game)
    client.force_login(mover)
    clue = first_clue(game)
    value = {"colour": clue["colour"]} if "colour" in clue else {"rank": clue["rank"]}
    response = client.post(
        f"/games/{game.pk}/move/", {"turn": 0, "kind": "clue", "target": clue["target"], **value}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.turn == 1


def test_play_asks_for_confirmation_first(client, alice, bob):
    game = start_game(alice, bob)
    mover = current_user(game)
    client.force_login(mover)
    card = game.load_state().hand(game.current_seat)[0]
    form = {"turn": 0, "kind": "play", "card": card}
    response = client.post(f"/games/{game.pk}/move/", form)
    assert response.status_code == 200
    assert "Play slot 1? If it does not fit a firework" in response.content.decode()
    assert game.moves.count() == 0
    response = client.post(f"/games/{game.pk}/move/", {**form, "confirmed": "yes"})
    assert game.moves.count() == 1


def test_a_stale_form_gets_a_message_and_the_current_table(client, alice, bob):
    game = start_game(alice, bob)
    mover = current_user(game)
    client.force_login(mover)
    clue = first_clue(game)
    play.submit_action(game.pk, mover, clue, 0)
    # The same form again, as a double click or a second tab would send it.
    value = {"colour": clue["colour"]} if "colour" in clue else {"rank": clue["rank"]}
    form = {"turn": 0, "kind": "clue", "target": clue["target"], **value}
    response = client.post(f"/games/{game.pk}/move/", form)
    assert response.status_code == 409
    assert "The game moved on" in response.content.decode()
    htmx = client.post(f"/games/{game.pk}/move/", form, **HTMX)
    assert htmx.status_code == 200  # htmx swaps only 2xx: the message rides in the partial
    assert "The game moved on" in htmx.content.decode()
    assert game.moves.count() == 1


def test_a_malformed_or_forged_move_changes_nothing(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(current_user(game))
    for form in (
        {"turn": "x", "kind": "play", "card": 1},
        {"turn": 0, "kind": "dance"},
        {"turn": 0, "kind": "play", "card": 999},
        {"turn": 0, "kind": "clue", "target": 7, "rank": 1},
        {"turn": 0, "kind": "clue", "target": 1, "colour": "purple"},
    ):
        response = client.post(f"/games/{game.pk}/move/", {**form, "confirmed": "yes"})
        assert response.status_code == 400, form
        assert b'class="messages"' in response.content
    assert game.moves.count() == 0
    assert client.post("/games/999999/move/", {"turn": 0}).status_code == 404


def test_the_poll_transfers_nothing_until_the_game_moves(
    client, alice, bob, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    waiting = user_at(game, 1 - game.current_seat)
    client.force_login(waiting)
    url = f"/games/{game.pk}/poll/?status=playing&v={Game.objects.get(pk=game.pk).version}"
    response = client.get(url, **HTMX)
    assert response.status_code == 204 and response.content == b""
    with django_capture_on_commit_callbacks(execute=True):  # the cache hears of the move
        play.submit_action(game.pk, current_user(game), first_clue(game), 0)
    response = client.get(url, **HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="table"')
    assert 'turn=1"' in page and "(Your turn)" in page


def test_the_htmx_move_returns_the_table_partial(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(current_user(game))
    clue = first_clue(game)
    value = {"colour": clue["colour"]} if "colour" in clue else {"rank": clue["rank"]}
    response = client.post(
        f"/games/{game.pk}/move/",
        {"turn": 0, "kind": "clue", "target": clue["target"], **value},
        **HTMX,
    )
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="table"')
    assert "<html" not in response.content.decode()


def test_the_lobby_lists_my_games_with_mine_to_play_first(client, alice, bob, carol):
    waiting_game = start_game(alice, bob)
    other_game = start_game(alice, carol, seed=5)
    mine = [g for g in (waiting_game, other_game) if current_user(g) == alice]
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert "My games" in page
    if mine:
        first = re.search(r'<li class="my-turn">\s*<a href="/games/(\d+)/"', page)
        assert first and int(first.group(1)) == mine[0].pk


def test_turn_page_queries_do_not_grow_with_the_moves(client, alice, bob):
    from deals.game_links import deal_id_of

    game = start_game(alice, bob)

    def queries_for_page() -> int:
        client.force_login(current_user(game))
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/games/{game.pk}/").status_code == 200
        return len(captured)

    deal_id_of(game.pk)  # its shared deal (none), as any page before would have cached it
    before = queries_for_page()
    for _ in range(20):
        game.refresh_from_db()
        state = game.load_state()
        action = state.legal_actions()[-1]  # clues and discards: keeps the game going
        play.submit_action(game.pk, current_user(game), action_to_dict(action), game.turn)
    assert queries_for_page() == before


def hands_on_the_page(page: str) -> dict[str, list[tuple[str, str]]]:
    """Each hand on the turn page by its heading ("Your hand" or the player's name): for
    every card, its <li> classes and the label of its face ("red 3"; "" for a card back)."""
    hands = {}
    for section in re.findall(r'<section class="hand[^"]*"[^>]*>(.*?)</section>', page, re.S):
        (heading,) = re.findall(r'<h2 id="hand-\d+">\s*([^<]*?)\s*<', section)
        cards = []
        for classes, body in re.findall(r'<li class="card([^"]*)"[^>]*>(.*?)</li>', section, re.S):
            face = re.search(
                r'class="card-face[^"]*".*?<span class="visually-hidden">([^<]+)<', body
            )
            cards.append((classes.strip(), face.group(1) if face else ""))
        hands[heading] = cards
    return hands


# docs/RULES.md: "Hand size: 5 cards with 2 or 3 players, 4 with 4 or 5, 3 with 6."
HAND_SIZE = {2: 5, 3: 5, 4: 4, 5: 4, 6: 3}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_count_shows_the_other_hands_and_hides_mine(client, db, players):
    users = [make_user(f"p{n}") for n in range(players)]
    game = start_game(*users, multicolour=3)
    viewer = users[0]
    mine = game.seats.get(user=viewer).position
    state = game.load_state()
    client.force_login(viewer)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    page = response.content.decode()

    hands = hands_on_the_page(page)
    others = {seat.user.display_name: seat.position for seat in game.seats.exclude(position=mine)}
    assert set(hands) == {"Your hand", *others}
    size = HAND_SIZE[players]
    for name, seat in others.items():
        shown = [label for _, label in hands[name]]
        assert shown == [state.card(cid).name for cid in state.hand(seat)], name
        assert len(shown) == size
    # My own hand: as many card backs, and not one face among them.
    assert [classes.split() for classes, _ in hands["Your hand"]] == [["back"]] * size
    assert [label for _, label in hands["Your hand"]] == [""] * size

    # Hidden information: none of my cards is named anywhere on the page, unless someone
    # else holds the same identity (then the page names it for their card).
    visible = {state.card(cid) for seat in others.values() for cid in state.hand(seat)}
    never_seen = {state.card(cid) for cid in state.hand(mine)} - visible
    assert never_seen, "the deal should leave one of the viewer's cards unseen"
    for card in never_seen:
        assert f"{card.name}<" not in page, card
        assert f'"code": "{card.code}"' not in page, card


def test_the_waiting_room_poll_reloads_when_someone_joins_and_redirects_at_the_start(
    client, alice, bob, django_capture_on_commit_callbacks
):
    game = lobby.create_game(alice, GameOptions(players=2), Game.Visibility.PUBLIC)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    version = Game.objects.get(pk=game.pk).version
    assert f"status=open&amp;v={version}" in page
    url = f"/games/{game.pk}/poll/?status=open&v={version}"
    assert client.get(url, **HTMX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):  # the cache hears of each change
        lobby.join_game(game.pk, bob)
    assert client.get(url, **HTMX)["HX-Refresh"] == "true"
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start_game(game.pk, alice)
    response = client.get(url, **HTMX)
    assert response["HX-Redirect"] == f"/games/{game.pk}/"
