"""What just happened is on the live page, under the status line, in the history's words:
"Last move: Ann plays red 1 (slot 3)"; and every play and discard line of the history names
the slot its card left. The card named is face up by then (on the board or the discards);
the card drawn in its place, still in a hand, is never named."""

import re

import pytest

from games.engine import Clue, Discard, Play, action_to_dict
from games.models import Game
from games.services import play
from tests.games.conftest import start_game, user_at


def _last_move(page: str) -> str:
    """The last-move line's words, without the look-back link the live page ends it with."""
    found = re.findall(r'<p class="last-action"[^>]*>(.*?)</p>', page, re.S)
    assert len(found) == 1, found
    return re.sub(r'<span class="look-back-link">.*?</a></span>', "", found[0], flags=re.S).strip()


def _history(page: str) -> list[str]:
    section = page[page.index('id="history-heading"') :]
    section = section[: section.index("</ol>")]
    return [re.sub(r"<[^>]+>", "", line) for line in re.findall(r"<li[^>]*>(.*?)</li>", section)]


def _move_from_slot(game: Game, kind: type, slot: int) -> tuple[str, str, str]:
    """The current player plays or discards the card in `slot`: (their name, the card's
    name, the name of the card drawn in its place)."""
    game.refresh_from_db()
    state = game.load_state()
    seat = state.current_seat
    card_id = state.hand(seat)[slot - 1]
    drawn = state.card(state.cards_drawn).name
    play.submit_action(game.pk, user_at(game, seat), action_to_dict(kind(card_id)), game.turn)
    return game.seat_names()[seat], state.card(card_id).name, drawn


def _clue(game: Game) -> None:
    game.refresh_from_db()
    state = game.load_state()
    clue = next(a for a in state.legal_actions() if isinstance(a, Clue))
    play.submit_action(game.pk, user_at(game, state.current_seat), action_to_dict(clue), game.turn)


@pytest.mark.django_db
def test_the_live_page_says_what_just_happened(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert _last_move(page) == "Nobody has moved yet."
    # Under the status line, above the board.
    assert page.index('class="status-line"') < page.index('class="last-action"')
    assert page.index('class="last-action"') < page.index('class="board')

    _clue(game)  # a token to spend, so that a discard is allowed
    who, card, drawn = _move_from_slot(game, Discard, 3)
    for viewer in (alice, bob):
        client.force_login(viewer)
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert _last_move(page) == f"Last move: {who} discards {card} (slot 3)"
        assert _history(page)[0] == f"{who} discards {card} (slot 3)"

    who, card, _ = _move_from_slot(game, Play, 2)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    line = _last_move(page)
    assert re.fullmatch(
        rf"Last move: {who} (plays {card} \(slot 2\)|misplays {card} \(slot 2; fuse burns\))",
        line,
    ), line
    history = _history(page)
    # (A misplay's line starts with its burned-fuse badge.)
    assert len(history) == 3 and history[0].endswith(line.removeprefix("Last move: "))


@pytest.mark.django_db
def test_the_last_move_names_no_card_still_in_a_hand(client, alice, bob):
    """The drawn card's name is not in the line, whoever looks (it is shown, if at all, as a
    face in a teammate's hand, never in the words of a move)."""
    game = start_game(alice, bob)
    _clue(game)
    who, card, drawn = _move_from_slot(game, Discard, 1)
    for viewer in (alice, bob):
        client.force_login(viewer)
        line = _last_move(client.get(f"/games/{game.pk}/").content.decode())
        assert card in line
        if drawn != card:
            assert drawn not in line
