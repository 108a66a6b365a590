"""The review's best line (issue 30): the worker stores what a team seeing every card could
still reach at the start of each turn of a finished game (games/analysis/turns.py, through
games/hindsight.py), and the review says, beside a move that lowered it, what the team
could have reached and how. Never during play."""

import re

import pytest
from django.utils import translation

from games import review as reviews
from games.analysis.turns import reachable_by_turn
from games.engine import Clue, Discard, GameOptions, action_from_dict, action_to_dict, replay
from games.hindsight import analyse_turns, review_context
from games.models import TurnAnalysis
from games.services import play, replays
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import current_user, play_to_the_end, start_game
from tests.games.helpers import analysed, analysis_row, deck

# Two players: seat 0 holds ids 0-4, seat 1 ids 5-9 (the only red 5 is id 5, white 1 id 9).
TOP = "R1 R2 Y1 G1 B1  R5 R3 B2 R4 W1"


def move(game, action) -> None:
    game.refresh_from_db()
    play.submit_action(game.pk, current_user(game), action_to_dict(action), game.turn)


def thrown_red_five(alice, bob):
    """Turn 1: seat 0 clues seat 1's white 1 (no loss). Turn 2: seat 1 discards the only red
    5, so no team can reach 25 any more. Then discards (and what else is legal) to the end."""
    game = start_game(alice, bob, deck=deck(TOP))
    move(game, Clue(1, colour="white"))
    move(game, Discard(5))
    return play_to_the_end(game)


@pytest.fixture
def quick_deal_analysis(settings):
    settings.ANALYSIS_TIME_LIMIT_SECONDS = 2


def test_the_last_red_five_thrown_lowers_what_the_team_could_reach(alice, bob, quick_deal_analysis):
    game = analysed(thrown_red_five(alice, bob))
    result = TurnAnalysis.objects.get(game=game).result
    turns = result["turns"]
    assert len(turns) == game.turn and [t["turn"] for t in turns] == list(range(1, game.turn + 1))
    first, second = turns[0], turns[1]
    # Before the throw a seeing team could still win: the bounds are true, and here they met.
    assert first["lower"] == first["upper"] == 25 and not first["lost"]
    assert second["lower"] == 25 and second["lost"]
    assert second["after_upper"] <= 24  # no red 5 left: 24 at most
    # The stored line is real: from the state before turn 2 the engine plays it to 25.
    record = replays.game_record(game, "")
    before = replay(record["options"], record["deck_source"], record["actions"], upto=1)
    for data in second["line"]:
        before.apply(action_from_dict(data))
    assert before.is_over and before.score == second["lower"] == 25
    # Every entry: bounds in order, the true value never rises, and a lost turn's line
    # replays to its claimed score.
    state = replay(record["options"], record["deck_source"], [])
    for entry, action in zip(turns, record["actions"], strict=True):
        assert entry["lower"] <= entry["upper"] and entry["after_lower"] <= entry["after_upper"]
        assert entry["after_upper"] <= entry["upper"]
        assert entry["lost"] == (entry["lower"] > entry["after_upper"])
        if entry["lost"]:
            line = state.copy()
            for data in entry["line"]:
                line.apply(action_from_dict(data))
            assert line.is_over and line.score == entry["lower"]
        else:
            assert entry["line"] == []
        state.apply(action_from_dict(action))
    assert turns[-1]["after_lower"] == turns[-1]["after_upper"] == game.score


def test_the_turn_analysis_is_stored_once_however_often_the_row_runs(
    alice, bob, quick_deal_analysis
):
    game = analysed(thrown_red_five(alice, bob))
    first = TurnAnalysis.objects.get(game=game)
    row = analysis_row(game)
    Outbox.objects.filter(pk=row.pk).update(done_at=None, claimed_at=None)
    assert delivery.run(row.pk)
    assert TurnAnalysis.objects.filter(game=game).count() == 1
    again = TurnAnalysis.objects.get(game=game)
    assert (again.created_at, again.result) == (first.created_at, first.result)
    assert analyse_turns(game).created_at == first.created_at


def review_rows(page: str) -> list[tuple[str, str]]:
    """(turn number, best-line sentence or "") for each reviewed move of the page."""
    rows = re.findall(
        r'<tr class="review-turn[^"]*">\s*<td><a [^>]*>(\d+)</a></td>.*?</tr>\s*'
        r'(<tr class="review-best-line">.*?</tr>)?',
        page,
        re.S,
    )
    return [(turn, re.sub(r"<[^>]+>", "", best).strip()) for turn, best in rows]


def test_the_review_shows_the_best_line_where_points_were_lost_and_only_there(
    client, alice, bob, quick_deal_analysis
):
    game = thrown_red_five(alice, bob)
    names = game.seat_names()
    client.force_login(alice)
    url = f"/games/{game.pk}/replay/{game.turn}/?review=1"
    page = client.get(url).content.decode()
    assert "is still being worked out" in page  # the worker has not run yet
    assert "review-best-line" not in page

    analysed(game)
    page = client.get(url).content.decode()
    assert "is still being worked out" not in page
    rows = review_rows(page)
    assert len(rows) == game.turn
    turns = TurnAnalysis.objects.get(game=game).result["turns"]
    lost = {str(t["turn"]) for t in turns if t["lost"]}
    assert {turn for turn, best in rows if best} == lost
    assert "2" in lost and "1" not in lost
    best = dict(rows)["2"]
    assert best.startswith("Turn 2, seeing every card: Here the team could still reach 25 if ")
    # The line's first moves, named as the review names moves: seat 1 (who threw the red 5)
    # had another move, then seat 0 moves.
    line = turns[1]["line"]
    assert best.count(names[1]) >= 1 and f"{names[0]} " in best
    assert ("plays slot" in best or "discards slot" in best or "clues" in best) and " …" in best
    assert len(line) > 3
    assert re.search(r"After the move played: (at most )?(\d+)\.$", best)
    assert int(re.search(r"(\d+)\.$", best).group(1)) == turns[1]["after_upper"] <= 24
    # The same through the section's own address (the button's htmx request).
    partial = client.get(f"/games/{game.pk}/review/", HTTP_HX_REQUEST="true").content.decode()
    assert dict(review_rows(partial))["2"] == best


def test_the_best_line_in_german_and_french(alice, bob, quick_deal_analysis):
    game = analysed(thrown_red_five(alice, bob))
    record = replays.game_record(game, "")
    with translation.override("de"):
        german = review_context(game, record)["best_lines"][2]
    with translation.override("fr"):
        french = review_context(game, record)["best_lines"][2]
    assert german.startswith("Hier hätte das Team noch 25 erreichen können, etwa so: ")
    assert french.startswith("Ici, l'équipe pouvait encore atteindre 25 si ")
    assert "Nach dem gespielten Zug" in german and "Après le coup joué" in french


def test_nothing_of_it_during_play(client, alice, bob):
    game = start_game(alice, bob, deck=deck(TOP))
    move(game, Clue(1, colour="white"))
    move(game, Discard(5))
    game.refresh_from_db()
    assert game.is_playing()
    # A row that asks anyway computes nothing while the game goes on.
    row = delivery.schedule("analysis", {"game": game.pk})
    assert delivery.run(row.pk) is True
    assert not TurnAnalysis.objects.filter(game=game).exists()
    for user in (alice, bob):
        client.force_login(user)
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(f"/games/{game.pk}/review/", **headers)
            assert response.status_code == 403
            assert "could still reach" not in response.content.decode()
        assert client.get(f"/games/{game.pk}/replay/2/?review=1").status_code == 404
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert "could still reach" not in page and "review-best-line" not in page
    with pytest.raises(ValueError):
        reviews.page_context(game, {})


def test_a_game_the_clock_ended_does_not_blame_its_last_move():
    """A game that stopped before the rules end it (time ran out on a turn): the state its
    last move left is searched too, so the last move did not lose the points the clock took
    (pure Python, no database)."""
    options = GameOptions(players=2)
    moves = [Clue(1, colour="white"), Clue(0, rank=1)]
    result = reachable_by_turn(options, deck(TOP), [action_to_dict(a) for a in moves])
    assert [(t["turn"], t["lost"]) for t in result["turns"]] == [(1, False), (2, False)]
    assert result["turns"][-1]["after_lower"] == 25  # not the 0 the fireworks stopped at
