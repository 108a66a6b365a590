"""One turn number everywhere: "Turn N" is the position from which the N-th move is made
(after N - 1 moves), on the live page, the look-back and the replay alike. The look-back
link opens the turn just before the current one: the position the last move was made from.
"""

import re

import pytest

from games.engine import Clue, Discard, action_to_dict
from games.models import Game
from games.services import play
from tests.games.conftest import current_user, play_to_the_end, start_game

# Moves made before each look at the pages: the deal, the first move, a few, a round and more.
POSITIONS = (0, 1, 2, 5, 9)


def _number(pattern: str, page: str) -> int:
    found = re.findall(pattern, page)
    assert len(found) == 1, (pattern, found)
    return int(found[0])


def _last_move(page: str) -> str:
    """The last-move line's words, without the look-back link the live page ends it with."""
    found = re.findall(r'<p class="last-action"[^>]*>(.*?)</p>', page, re.S)
    assert len(found) == 1, found
    return re.sub(r'<span class="look-back-link">.*?</a></span>', "", found[0], flags=re.S).strip()


def _move(game: Game) -> None:
    """A discard where one may, else a clue: the game goes on (no misplay ends it)."""
    game.refresh_from_db()
    state = game.load_state()
    legal = state.legal_actions()
    choice = next(a for kind in (Discard, Clue) for a in legal if isinstance(a, kind))
    play.submit_action(game.pk, current_user(game), action_to_dict(choice), game.turn)


@pytest.mark.django_db
def test_the_live_page_the_look_back_and_the_replay_count_turns_alike(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    seen = {}
    made = 0
    for k in POSITIONS:
        while made < k:
            _move(game)
            made += 1
        game.refresh_from_db()
        assert game.turn == k and game.is_playing()
        live = client.get(f"/games/{game.pk}/").content.decode()
        live_turn = _number(r"Turn (\d+) ·", live)
        assert live_turn == k + 1
        # The look-back at the same position is the same turn, of the same number of turns.
        same = client.get(f"/games/{game.pk}/as-seen/{k}/").content.decode()
        assert _number(r"Turn (\d+) as you saw it then", same) == live_turn
        assert _number(rf"Turn {live_turn} of (\d+)", same) == live_turn
        links = re.findall(rf'href="/games/{game.pk}/as-seen/(\d+)/"', live)
        if k == 0:
            assert links == []  # nothing to look back at before the first move
        else:
            # The link opens the turn just before the current one, whose move is the last.
            assert links == [str(k - 1)]
            before = client.get(f"/games/{game.pk}/as-seen/{k - 1}/").content.decode()
            assert _number(r"Turn (\d+) as you saw it then", before) == live_turn - 1
            assert f"Look back at turn {live_turn - 1}<" in live
        seen[k] = (live_turn, _last_move(live))

    play_to_the_end(game)
    game.refresh_from_db()
    assert game.is_finished() and game.turn > max(POSITIONS)
    for k, (live_turn, last_move) in seen.items():
        page = client.get(f"/games/{game.pk}/replay/{k}/").content.decode()
        assert _number(r"Turn (\d+) of \d+", page) == live_turn
        assert _number(rf"Turn {live_turn} of (\d+)", page) == game.turn + 1
        replayed = _last_move(page)
        if k == 0:
            assert last_move == "Nobody has moved yet." and replayed == "The cards are dealt."
        else:
            # The same move, in the same words.
            assert replayed == last_move
    # A finished game's look-back address opens the replay of the same position.
    response = client.get(f"/games/{game.pk}/as-seen/{POSITIONS[-1]}/")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/replay/{POSITIONS[-1]}/"
