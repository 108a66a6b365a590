"""The H-Group bot's review of a finished game (games/review.py): each turn from the mover's
own view (the swap test), shown on the replay on request, refused while the game is played."""

import random
import re

import pytest

from games import review as reviews
from games.bots.hgroup import choose_action
from games.engine import GameOptions, Rearrange, action_to_dict, new_game, view_for
from games.review import review, suggestion
from tests.bots.helpers import swapped_twin
from tests.games.conftest import current_user, play_to_the_end, start_game

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def bot_game(players: int, seed: int) -> list[dict]:
    state = new_game(GameOptions(players=players), seed=seed)
    actions = []
    while not state.is_over:
        action = choose_action(view_for(state, state.current_seat))
        actions.append(action_to_dict(action))
        state.apply(action)
    return actions


@pytest.mark.parametrize("players", [2, 4])
def test_a_game_the_bot_played_agrees_with_it_on_every_turn(players):
    actions = bot_game(players, seed=31)
    turns = review(GameOptions(players=players), 31, actions, NAMES[:players])
    assert len(turns) == len(actions)
    assert [t.turn for t in turns] == list(range(1, len(actions) + 1))
    assert all(t.agrees for t in turns)
    assert [t.seat for t in turns[:players]] == list(range(players))
    for t in turns:
        assert t.player == NAMES[t.seat] and t.played.startswith(t.player)
        verb = t.suggested.split()[0]  # "Play", "Discard", "Clue"
        assert verb in t.reason and ": " in t.reason


def test_a_move_the_bot_would_not_make_is_marked_differ():
    # Every player discards their newest card: the bot never discards slot 1 first.
    options = GameOptions(players=3)
    state = new_game(options, seed=5)
    actions = []
    while not state.is_over and len(actions) < 12:
        legal = state.legal_actions()
        action = next(
            (a for a in legal if type(a).__name__ == "Discard"), legal[0]
        )  # 8 tokens: a clue
        actions.append(action_to_dict(action))
        state.apply(action)
    turns = review(options, 5, actions, NAMES[:3])
    assert any(not t.agrees for t in turns)
    for t in turns:
        if not t.agrees:
            assert t.suggested.split()[0] in ("Play", "Discard", "Clue")


def test_the_review_of_a_turn_uses_only_that_players_view():
    """The swap test: the mover's own cards exchanged for undealt cards that every clue
    treats alike leave the review of that turn (the move and the words) as it was."""
    rng = random.Random(2026)
    compared = 0
    for game in range(12):
        players = 2 + game % 4
        state = new_game(GameOptions(players=players), seed=900 + game)
        stop = rng.randrange(3, 50)
        while not state.is_over and state.turn < stop:
            state.apply(choose_action(view_for(state, state.current_seat)))
        if state.is_over:
            continue
        twin = swapped_twin(state, rng)
        if twin is None:
            continue
        (mine, short), (theirs, twin_short) = (
            suggestion(state, NAMES[:players]),
            suggestion(twin, NAMES[:players]),
        )
        assert (theirs.action, theirs.reason, twin_short) == (mine.action, mine.reason, short)
        compared += 1
    assert compared >= 8


# -- the site: on request on a finished game's replay; refused during play -------------------


def test_the_replay_offers_the_review_and_shows_it_on_request(client, alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/replay/0/").content.decode()
    assert f'hx-get="/games/{game.pk}/review/"' in page  # the button
    assert "review-turn" not in page  # and no review until asked for

    partial = client.get(f"/games/{game.pk}/review/", HTTP_HX_REQUEST="true")
    assert partial.status_code == 200
    html = partial.content.decode()
    assert html.count('class="review-turn') == game.turn  # one row a move
    assert "Discard chop" in html or "Play slot" in html or "Clue " in html
    assert "agreed with it on" in html

    # Opened as a page: the replay's last turn with the review in it.
    response = client.get(f"/games/{game.pk}/review/")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/replay/{game.turn}/?review=1#review"
    page = client.get(f"/games/{game.pk}/replay/{game.turn}/?review=1").content.decode()
    assert page.count('class="review-turn') == game.turn


def test_no_review_during_play(client, alice, bob):
    game = start_game(alice, bob)
    from games.services import play

    for _ in range(3):  # a few moves in
        game.refresh_from_db()
        state = game.load_state()
        move = choose_action(view_for(state, state.current_seat))
        play.submit_action(game.pk, current_user(game), action_to_dict(move), game.turn)
    game.refresh_from_db()
    assert game.is_playing()
    for user in (alice, bob):
        client.force_login(user)
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(f"/games/{game.pk}/review/", **headers)
            assert response.status_code == 403
            text = response.content.decode()
            assert text == reviews.REFUSAL and "review-turn" not in text
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert "Review with the H-Group bot" not in page and "review-turn" not in page
    with pytest.raises(ValueError):
        reviews.page_context(game, {})


def test_a_rearranged_hand_is_reviewed_in_its_new_order():
    """The free moves of cards within a hand (an option) take no turn: they get no row, and
    the next turn's review sees the hand as it was moved."""
    options = GameOptions(players=2, rearrange=True)
    state = new_game(options, seed=12)
    actions = []
    for _ in range(6):
        seat = state.current_seat
        move = Rearrange(seat, state.hand(seat)[4], 1)  # the chop to slot 1
        state.apply(move)
        actions.append(action_to_dict(move))
        bot = choose_action(view_for(state, seat))
        state.apply(bot)
        actions.append(action_to_dict(bot))
    turns = review(options, 12, actions, NAMES[:2])
    assert len(turns) == 6 and all(t.agrees for t in turns)
    # A turn named in a reason is a move's number, not a place in the history (where each
    # rearrangement is an entry too): Bob's 1s were clued on the first move.
    assert turns[5].reason.startswith("Play slot 1: it was clued 1 on turn 1;")
    for t in turns:
        for named in re.findall(r"on turn (\d+)", t.reason):
            assert int(named) < t.turn


def test_a_finished_games_review_is_computed_once(client, alice, bob, monkeypatch):
    game = play_to_the_end(start_game(alice, bob, seed=77))
    computed = []
    real = reviews.review
    monkeypatch.setattr(reviews, "review", lambda *a, **k: computed.append(1) or real(*a, **k))
    client.force_login(bob)
    pages = [
        client.get(f"/games/{game.pk}/review/", HTTP_HX_REQUEST="true").content for _ in range(3)
    ]
    assert computed == [1]  # then from the cache: a finished game never changes
    assert pages[0] == pages[1] == pages[2]
