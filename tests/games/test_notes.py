"""Private notes on cards (games/services/notes.py): written by a small form per card, kept
by card id, shown to the writer alone while the game goes on, to everyone in the replay."""

import re

import pytest

from games.errors import GameError, NotAllowed
from games.models import Game
from games.services import notes, play
from tests.games.conftest import play_to_the_end, start_game, user_at
from tests.games.helpers import card_item, deck

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(alice, bob) -> Game:
    return start_game(alice, bob, deck=deck())


def test_parse_note_reads_hanab_live_shorthand():
    assert notes.parse_note("r3") == {"identity": "R3", "tags": []}
    assert notes.parse_note("b") == {"identity": "B", "tags": []}
    assert notes.parse_note("5") == {"identity": "5", "tags": []}
    assert notes.parse_note("kt") == {"identity": None, "tags": ["known trash"]}
    assert notes.parse_note("f, r2 cm") == {"identity": "R2", "tags": ["finesse", "chop move"]}
    assert notes.parse_note("r1 [r4]") == {"identity": "R4", "tags": []}  # the last one
    assert notes.parse_note("the red one, surely") == {"identity": None, "tags": []}
    entry = notes.note_entry("g4 f")
    assert entry["badges"] == ["G4", "F"] and entry["text"] == "g4 f"


def test_a_note_is_shown_to_its_writer_only_at_once(client, game):
    writer, other = user_at(game, 0), user_at(game, 1)
    client.force_login(writer)
    page = client.get(f"/games/{game.pk}/").content.decode()  # now in the table cache
    assert "bob thinks" not in page
    version = Game.objects.get(pk=game.pk).version
    response = client.post(f"/games/{game.pk}/note/", {"card": 6, "note": "r3 f bob thinks"})
    assert response.status_code == 302
    page = client.get(f"/games/{game.pk}/").content.decode()
    item = card_item(page, 6)
    assert "bob thinks" in item and ">R3<" in item and ">F<" in item
    assert "bob thinks" not in card_item(page, 7)
    # Nobody else's page changes: no version raised, and the other player sees no note.
    assert Game.objects.get(pk=game.pk).version == version
    client.force_login(other)
    assert "bob thinks" not in client.get(f"/games/{game.pk}/").content.decode()


def test_a_note_by_htmx_comes_back_with_the_table(client, game):
    client.force_login(user_at(game, 1))
    response = client.post(f"/games/{game.pk}/note/", {"card": 2, "note": "kt"}, **HTMX)
    assert response.status_code == 200
    item = card_item(response.content.decode(), 2)
    assert ">KT<" in item and 'value="kt"' in item


def test_notes_on_own_cards_follow_the_card_across_turns(client, game):
    seat1 = user_at(game, 1)
    notes.write_note(game.pk, seat1, 9, "chop? 5")  # its own newest card: slot 1
    client.force_login(seat1)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert re.search(r'data-card-id="9" data-slot="1"', page)
    assert "chop? 5" in card_item(page, 9)
    play.submit_action(game.pk, user_at(game, 0), {"type": "clue", "target": 1, "colour": "red"}, 0)
    play.submit_action(game.pk, seat1, {"type": "discard", "card_id": 7}, 1)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert re.search(r'data-card-id="9" data-slot="2"', page)  # a new card came in front
    assert "chop? 5" in card_item(page, 9)
    assert "chop? 5" not in card_item(page, 10)


@pytest.mark.parametrize(
    ("card", "text", "message"),
    [
        (10, "r1", "That card is not on the table"),  # still in the deck
        (3, "x" * 61, "at most 60 characters"),
        (3, "bad\x00text", "plain text only"),
        ("abc", "r1", "That card is not on the table"),
        ("", "r1", "That card is not on the table"),
    ],
)
def test_bad_notes_get_a_message_and_change_nothing(client, game, card, text, message):
    user = user_at(game, 0)
    notes.write_note(game.pk, user, 3, "kept")
    client.force_login(user)
    response = client.post(f"/games/{game.pk}/note/", {"card": card, "note": text}, follow=True)
    assert message in response.content.decode()
    assert game.seats.get(position=0).notes == {"3": "kept"}


def test_an_empty_note_removes_it_and_strangers_cannot_write(client, game, mallory):
    user = user_at(game, 0)
    notes.write_note(game.pk, user, 3, "  two   spaces ")
    assert game.seats.get(position=0).notes == {"3": "two spaces"}
    notes.write_note(game.pk, user, 3, "")
    assert game.seats.get(position=0).notes == {}
    with pytest.raises(NotAllowed):
        notes.write_note(game.pk, mallory, 3, "r1")
    client.force_login(mallory)
    assert client.post(f"/games/{game.pk}/note/", {"card": 3, "note": "x"}).status_code == 404


def test_the_replay_shows_every_players_notes_with_their_name(client, game):
    ann, ben = user_at(game, 0), user_at(game, 1)
    notes.write_note(game.pk, ann, 5, "r5 save it")
    notes.write_note(game.pk, ben, 0, "kt")
    game = play_to_the_end(game)
    with pytest.raises(GameError):  # the game is over: notes are fixed
        notes.write_note(game.pk, ann, 5, "changed")
    client.force_login(ben)
    page = client.get(f"/games/{game.pk}/replay/0/").content.decode()
    assert "r5 save it" in card_item(page, 5) and f"{ann.display_name}:" in card_item(page, 5)
    assert ">KT<" in card_item(page, 0) and f"{ben.display_name}:" in card_item(page, 0)
