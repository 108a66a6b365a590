"""Looking back during a game (/games/<id>/as-seen/<turn>/): a player steps through the
earlier turns as they saw them then, and never more.

The iron rule holds at every turn: the page names none of the viewer's own cards of that
turn (nor the deck), and two games that differ only in those cards look the same."""

from django.template.loader import render_to_string

from games.engine import (
    SUITS,
    Clue,
    Discard,
    GameOptions,
    action_to_dict,
    new_deck,
)
from games.models import Game
from games.services import play
from tests.games.conftest import make_user, play_to_the_end, start_game, user_at
from tests.games.leak_probe import SEED, hide_swapped_deck, normalise
from tests.games.look_back import VIEWER, never_seen_at, play_everything

HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(game: Game, turn: int) -> str:
    return f"/games/{game.pk}/as-seen/{turn}/"


def _next_action(state, viewer_first_clue: dict | None) -> dict:
    """A move that keeps the viewer's own cards hidden: the viewer only gives clues; the
    others discard (or clue someone other than the viewer once the tokens are full)."""
    legal = state.legal_actions()
    seat = state.current_seat
    if viewer_first_clue and state.turn == 0:
        return viewer_first_clue
    if seat != VIEWER:
        discard = next((a for a in legal if isinstance(a, Discard)), None)
        if discard is not None:
            return action_to_dict(discard)
    clues = [a for a in legal if isinstance(a, Clue)]
    # (At two, the only one to clue may be the viewer.)
    return action_to_dict(next((a for a in clues if a.target != VIEWER), clues[0]))


def _play(game: Game, turns: int, first: dict | None = None) -> None:
    for _ in range(turns):
        game.refresh_from_db()
        state = game.load_state()
        action = _next_action(state, first)
        play.submit_action(game.pk, user_at(game, state.current_seat), action, game.turn)


def test_each_turn_as_the_player_saw_it_names_none_of_their_own_cards(client, db):
    users = [make_user(name) for name in ("ann", "ben", "cid")]
    game = start_game(*users, seed=SEED)
    play_everything(game, 24)
    kinds = {(move.seat, move.action["type"]) for move in game.moves.all()}
    assert {(VIEWER, "play"), (VIEWER, "discard"), (VIEWER, "clue")} <= kinds
    viewer = user_at(game, VIEWER)
    client.force_login(viewer)
    for turn in range(game.turn + 1):
        never_seen = never_seen_at(game, turn, VIEWER)
        assert never_seen, turn
        for headers in ({}, HTMX):
            response = client.get(_url(game, turn), **headers)
            assert response.status_code == 200, turn
            body = response.content.decode()
            assert f"Turn {turn + 1} of {game.turn + 1}" in body
            for card in never_seen:
                assert f"{card.name}<" not in body, (turn, card)
                assert f'"code": "{card.code}"' not in body, (turn, card)
    # The search finds what is shown: another player's cards, by the same names.
    state = game.load_state()
    shown = state.card(state.hand(2)[0])
    assert f"{shown.name}<" in client.get(_url(game, game.turn)).content.decode()


def _same_clue_to_the_viewer(state_a, state_b) -> dict | None:
    """A clue to the viewer that touches the same slots in both games (their knowledge of
    their own cards then differs in nothing either)."""
    values = [{"rank": rank} for rank in range(1, 6)] + [{"colour": c} for c in SUITS[:5]]
    for value in values:
        touches = state_a.clue_touches(VIEWER, **value)
        if touches and touches == state_b.clue_touches(VIEWER, **value):
            return {"type": "clue", "target": VIEWER, **value}
    return None


def _two_deals(users) -> tuple[Game, Game, dict]:
    """Two games that differ only in the viewer's own cards (and the deck's bottom), and a
    first clue to the viewer that is the same move in both."""
    for seed in range(SEED, SEED + 50):
        deck = [list(card) for card in new_deck(GameOptions(players=3), seed)]
        game_a = start_game(*users, deck=deck, seed=seed)
        own = list(game_a.load_state().hand(VIEWER))
        game_b = start_game(*users, deck=hide_swapped_deck(deck, own), seed=seed)
        first = _same_clue_to_the_viewer(game_a.load_state(), game_b.load_state())
        if first:
            return game_a, game_b, first
    raise AssertionError("no deal with a clue that touches the same slots in both")


def test_the_look_back_does_not_depend_on_the_viewers_own_cards(client, db):
    """Two games that differ only in the viewer's own cards, with the same moves: every
    turn looks the same to the viewer."""
    users = [make_user(name) for name in ("ann", "ben", "cid")]
    game_a, game_b, first = _two_deals(users)
    for game in (game_a, game_b):
        _play(game, 7, first)
        game.refresh_from_db()
    assert [m.action for m in game_a.moves.order_by("turn")] == [
        m.action for m in game_b.moves.order_by("turn")
    ]

    client.force_login(user_at(game_a, VIEWER))
    for turn in range(game_a.turn + 1):
        for headers in ({}, HTMX):
            page_a = client.get(_url(game_a, turn), **headers).content.decode()
            page_b = client.get(_url(game_b, turn), **headers).content.decode()
            assert normalise(page_a, game_a) == normalise(page_b, game_b), turn

    # The comparison can fail: the player beside the viewer sees the swapped cards.
    client.force_login(user_at(game_a, 0))
    page_a = client.get(_url(game_a, 1)).content.decode()
    page_b = client.get(_url(game_b, 1)).content.decode()
    assert normalise(page_a, game_a) != normalise(page_b, game_b)


def test_the_buttons_step_through_the_turns_and_back_to_the_table(client, alice, bob):
    game = start_game(alice, bob)
    _play(game, 4)
    game.refresh_from_db()
    client.force_login(alice)
    page = client.get(_url(game, 2)).content.decode()
    for rel, nav, turn in (("first", "first", 0), ("prev", "prev", 1), ("next", "next", 3)):
        assert f'href="{_url(game, turn)}" hx-get="{_url(game, turn)}" rel="{rel}" ' in page
        assert f'data-nav="{nav}"' in page
    assert f'href="{_url(game, 4)}" hx-get="{_url(game, 4)}" rel="last" data-nav="last"' in page
    assert f'href="/games/{game.pk}/"' in page and "Back to the live table" in page
    assert "Turn 3 of 5" in page and "Last move:" in page
    # No move is offered from an earlier turn.
    assert 'name="kind"' not in page
    first = client.get(_url(game, 0)).content.decode()
    assert "The cards are dealt." in first and 'data-nav="prev"' not in first
    last = client.get(_url(game, 4)).content.decode()
    assert 'data-nav="next"' not in last and 'data-nav="last"' not in last
    partial = client.get(_url(game, 1), **HTMX).content.decode()
    assert partial.lstrip().startswith('<div id="look-back"')
    assert "<title>" in partial


def test_only_the_players_see_it_and_only_turns_that_were(client, alice, bob, carol):
    game = start_game(alice, bob)
    _play(game, 2)
    client.force_login(carol)
    assert client.get(_url(game, 0)).status_code == 404
    client.force_login(alice)
    missing = client.get(_url(game, 3))
    assert missing.status_code == 404
    assert "This game is at turn 3" in missing.content.decode()
    assert client.get(f"/games/{game.pk}/as-seen/-1/").status_code == 404
    client.logout()
    assert client.get(_url(game, 0)).status_code == 302  # to the login page


def test_once_the_game_is_over_the_replay_shows_the_turn(client, alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    client.force_login(alice)
    response = client.get(_url(game, 1))
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/replay/1/"


def test_the_turn_page_links_to_the_turn_before(db):
    game = Game(pk=7)
    html = render_to_string("games/_look_back_link.html", {"game": game, "view": {"turn": 5}})
    assert 'href="/games/7/as-seen/4/"' in html and "Look back at turn 5<" in html
    html = render_to_string("games/_look_back_link.html", {"game": game, "view": {"turn": 0}})
    assert "as-seen" not in html
