"""What the turn page shows a serious player (issue 16): the last clue marked on the cards it
touched and its slots in the history, what a teammate knows of a card (empathy), safer moves,
the board's figures, critical cards, and a misplay shown as an event."""

import re

import pytest

from games.engine import Clue, Discard, GameOptions, new_game, view_for
from games.models import Game
from games.services import play
from games.table_context import clues_still_usable, max_heights
from tests.engine.helpers import deck_with_top
from tests.games.conftest import start_game, user_at
from tests.games.helpers import card_item, deck

# Two players: seat 0 holds R1 R2 Y1 G1 B1 (ids 0-4), seat 1 R5 R3 B2 R4 W1 (ids 5-9); the
# newest card is slot 1, so seat 1's W1 (id 9) is slot 1 and its R5 (id 5) slot 5.
RED_TO_SEAT_1 = {"type": "clue", "target": 1, "colour": "red"}


@pytest.fixture
def game(alice, bob) -> Game:
    return start_game(alice, bob, deck=deck())


def page_of(client, game: Game, seat: int) -> str:
    client.force_login(user_at(game, seat))
    return client.get(f"/games/{game.pk}/").content.decode()


def test_the_last_clue_is_marked_on_the_cards_it_touched_until_the_next_action(client, game):
    play.submit_action(game.pk, user_at(game, 0), RED_TO_SEAT_1, 0)
    for seat in (0, 1):  # the giver sees the faces, the receiver the backs: both the marks
        page = page_of(client, game, seat)
        for card_id in (5, 6, 8):
            assert "Touched by the last clue" in card_item(page, card_id)
            assert re.search(rf'class="card[^"]*last-clued[^"]*" data-card-id="{card_id}"', page)
        for card_id in (7, 9, 0):
            assert "Touched by the last clue" not in card_item(page, card_id)
    play.submit_action(game.pk, user_at(game, 1), {"type": "discard", "card_id": 7}, 1)
    assert "Touched by the last clue" not in page_of(client, game, 0)


def test_a_clue_in_the_history_names_the_slots_it_touched(client, game):
    play.submit_action(game.pk, user_at(game, 0), RED_TO_SEAT_1, 0)
    names = game.seat_names()
    expected = f"{names[0]} clues {names[1]}: red, touching 3 cards (slots 2, 4, 5)"
    assert expected in page_of(client, game, 1)


def test_a_teammates_card_shows_what_its_holder_knows(client, game):
    play.submit_action(game.pk, user_at(game, 0), RED_TO_SEAT_1, 0)
    page = page_of(client, game, 0)
    holder = game.seat_names()[1]
    item = card_item(page, 6)  # red 3, clued red
    # Drawn over the card's face, shown with the whole hand's (static/js/keys.js): pips of
    # the suits and ranks its holder still thinks possible (issue 27).
    pips = re.search(r'<span class="empathy-face">(.*?)</span></span></span>', item).group(1)
    assert re.findall(r'class="pip suit-(\w+)"', pips) == ["red"]
    assert re.findall(r'class="pip rank">(\d)', pips) == ["1", "2", "3", "4", "5"]
    assert f"{holder} knows it could be R1, R2, R3, R4, R5." in item
    # An untouched card: the red clue missed it, so it is known not to be red.
    item = card_item(page, 7)
    sentence = re.search(rf"{holder} knows it could be ([^.]*)\.", item).group(1)
    assert sentence.startswith("Y1, Y2") and "R1" not in sentence
    # The viewer's own cards are backs with their own grid, not empathy.
    assert "empathy-face" not in card_item(page, 0) and 'class="card-back"' in card_item(page, 0)
    assert 'class="empathy-face"' in item


def test_empathy_counts_public_cards_only(alice, bob):
    game = start_game(alice, bob, deck=deck("R2 R2 Y1 G1 R5  R3 R1 B2 R4 W1"))
    ann, ben = user_at(game, 0), user_at(game, 1)
    play.submit_action(game.pk, ann, RED_TO_SEAT_1, 0)
    play.submit_action(game.pk, ben, {"type": "clue", "target": 0, "rank": 1}, 1)
    play.submit_action(game.pk, ann, {"type": "discard", "card_id": 0}, 2)
    play.submit_action(game.pk, ben, {"type": "clue", "target": 0, "rank": 1}, 3)
    play.submit_action(game.pk, ann, {"type": "discard", "card_id": 1}, 4)
    game.refresh_from_db()
    view = view_for(game.load_state(), 0)
    red_three = next(c for c in view["hands"][1]["cards"] if c["id"] == 5)
    # Both red 2s are discarded: public, so the holder knows the card is no red 2.
    assert "R2" in red_three["possible"] and "R2" not in red_three["possible_public"]
    # Seat 1 sees seat 0's red 5 (the only one) and could count it out; the viewer's empathy
    # must not: that would tell the viewer what they hold.
    assert "R5" in red_three["possible_public"]


def test_the_play_confirmation_names_the_slot(client, game):
    client.force_login(user_at(game, 0))
    response = client.post(f"/games/{game.pk}/move/", {"turn": 0, "kind": "play", "card": 2})
    assert "Play slot 3? If it does not fit a firework, a fuse burns." in response.content.decode()


def test_clue_buttons_name_the_slots_they_touch_and_moves_cannot_be_undone(client, game):
    page = page_of(client, game, 0)
    button = re.search(r'<button[^>]*data-clue="target:1 colour:red"[^>]*>(.*?)</button>', page)
    assert button, "a red clue button with its data-clue"
    assert 'aria-label="Clue ' in button.group(0)
    assert "touching 3 cards: slots 2, 4, 5" in button.group(0)
    assert "slots 2, 4, 5" in button.group(1)  # visible, not only to screen readers
    assert 'data-clue="target:1 rank:5"' in page
    # The cards a clue touches carry its key, for the hover highlight (no script).
    assert re.search(r'class="clue clue-touch-red suit-red" data-clue="target:1 colour:red"', page)
    for card_id in (5, 6, 8):
        assert re.search(rf'class="card[^"]* touch-red[^"]*" data-card-id="{card_id}"', page)
    for card_id in (7, 9):
        assert not re.search(rf'class="card[^"]* touch-red[^"]*" data-card-id="{card_id}"', page)
    assert 'data-action="play"' in page and 'data-action="discard"' not in page  # 8 tokens
    assert "Moves cannot be undone" in page
    assert "Moves cannot be undone" not in page_of(client, game, 1)  # not their turn


def test_the_board_shows_pace_efficiency_and_critical_cards(client, game):
    page = page_of(client, game, 0)
    # Pace: 0 + 40 cards in the deck + 2 players - 25.
    assert re.search(r"<dt[^>]*>Pace</dt><dd>17</dd>", page)
    assert "no clue given yet" in page
    # hanab.live's clues still usable: 8 tokens + 17 discards + 4 fives before the final
    # round; 25 cards to play with them.
    assert '25 cards <span class="muted">with at most 29 more clues</span>' in page
    assert re.search(r"<dt[^>]*>Needed</dt><dd>0.86 ", page)
    assert "critical" in card_item(page, 5)  # the only red 5
    assert "critical" not in card_item(page, 6)  # a red 3: another copy is left
    play.submit_action(game.pk, user_at(game, 0), RED_TO_SEAT_1, 0)
    play.submit_action(game.pk, user_at(game, 1), {"type": "play", "card_id": 9}, 1)  # W1
    page = page_of(client, game, 0)
    assert '1.00 <span class="muted">(1 played / 1 clue)</span>' in page
    # The viewer's own cards are never marked: they cannot be seen.
    assert "critical" not in "".join(card_item(page, cid) for cid in range(5))


def test_a_misplay_shows_as_an_event_on_the_next_turn(client, game):
    play.submit_action(game.pk, user_at(game, 0), RED_TO_SEAT_1, 0)
    play.submit_action(game.pk, user_at(game, 1), {"type": "play", "card_id": 6}, 1)  # red 3
    page = page_of(client, game, 0)
    assert re.search(r'<div class="fuse-burned"><dt>Fuses</dt><dd>2 of 3 left <strong', page)
    burned = r'<li class="misplay" value="2"><strong class="badge burned">a fuse burned'
    assert re.search(burned, page)
    play.submit_action(game.pk, user_at(game, 0), {"type": "discard", "card_id": 0}, 2)
    assert "a fuse burned" not in page_of(client, game, 0)


@pytest.mark.parametrize(("players", "usable"), [(2, 29), (3, 25), (4, 25), (5, 21)])
def test_clues_still_usable_at_the_start_as_hanab_live_counts_them(players, usable):
    view = view_for(new_game(GameOptions(players), seed=1), 0)
    assert clues_still_usable(view) == usable


def test_clues_still_usable_counts_lost_cards_and_ends_with_the_deck():
    options = GameOptions(2)
    state = new_game(options, deck=deck_with_top(options, "R5 R2 Y1 G1 B1  R3 R1 B2 R4 W1"))
    state.apply(Clue(1, colour="red"))
    state.apply(Clue(0, rank=5))
    state.apply(Discard(0))  # the only red 5: red can reach 4 at most
    view = view_for(state, 1)
    assert max_heights(view) == [4, 5, 5, 5, 5]
    # 24 to play: 7 tokens + (2 + 39 - 24) discards + 4 fives before the final round.
    assert clues_still_usable(view) == 7 + 17 + 4
    view["deck_size"] = 0
    assert clues_still_usable(view) is None
