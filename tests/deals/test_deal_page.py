"""A deal's page: every finished table's score, the bots' scores when their tables have
played, the best score of a seeing team when a game's analysis is done; links to the games
only for who has seen the deal; nothing for who plays it."""

import re

from deals.models import DealView
from deals.services import share, start_table
from games import outbox_kinds as game_kinds
from games.models import Game
from tests.deals.conftest import finished_game, join_and_start
from tests.mail import run_due


def test_anonymous_visitors_are_asked_to_log_in(client, alice, bob):
    deal = share(finished_game(alice, bob))
    for url in (f"/deals/{deal.pk}/", f"/deals/{deal.pk}/play/", "/deals/weekly/"):
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response["Location"], url


def test_the_page_lists_every_finished_table_with_its_score(client, alice, bob, carol, mallory):
    original = finished_game(alice, bob)
    deal = share(original)
    again = join_and_start(start_table(deal.pk, carol, Game.Visibility.PUBLIC), mallory)
    from tests.games.conftest import play_to_the_end

    play_to_the_end(again)
    again.refresh_from_db()
    client.force_login(alice)
    page = client.get(f"/deals/{deal.pk}/").content.decode()
    for game in (original, again):
        row = re.search(rf"<tr>\s*<td>(<a [^>]+>)?Game {game.pk}.*?</tr>", page, re.S).group(0)
        assert f"{game.score} / {game.max_score}" in row
        for seat in game.seats.all():
            assert seat.name in row


def test_links_to_the_games_only_for_who_has_seen_the_deal(client, alice, bob, mallory):
    original = finished_game(alice, bob)
    deal = share(original)
    client.force_login(mallory)
    page = client.get(f"/deals/{deal.pk}/").content.decode()
    assert f'href="/games/{original.pk}/"' not in page
    assert "Start a table on this deal" in page
    assert not DealView.objects.exists()  # the results show no card: not seen yet
    client.post(f"/deals/{deal.pk}/look/")
    page = client.get(f"/deals/{deal.pk}/").content.decode()
    assert f'href="/games/{original.pk}/"' in page
    assert "Start a table on this deal" not in page
    assert f"/deals/{deal.pk}/play/" in page  # the link to share


def test_bot_scores_and_the_best_score_appear_when_ready(client, alice, bob, carol):
    original = finished_game(alice, bob, carol, seed=7)  # 3 players: the bots do not search
    deal = share(original)
    client.force_login(alice)
    page = client.get(f"/deals/{deal.pk}/").content.decode()
    assert page.count("being played…") == 2
    assert 'hx-trigger="every 5s"' in page  # the results ask again
    assert "Being worked out" in page

    assert run_due(game_kinds.ANALYSIS) == 1
    team = original.deal_analysis.result["team"]
    assert run_due("deal_bot_table") == 2
    partial = client.get(f"/deals/{deal.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<section id="deal-results"')
    assert "being played…" not in partial and "every 5s" not in partial
    for score in deal.bot_scores.all():
        assert f"{score.get_bot_kind_display().split(':')[0]}: <strong>{score.score} / 25" in (
            partial
        )
    if team["exact"]:
        assert f"<strong>{team['upper']} / 25</strong>" in partial
    else:
        assert f"At least <strong>{team['lower']}</strong>" in partial
