"""A finished game's page says whether its deal could have been won: a worker computes the
analysis once (an outbox row written when the game ends) and the page shows it when ready."""

from games.engine import GameOptions, new_deck, replay
from games.hindsight import page_context
from games.models import DealAnalysis
from games.services import announce
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import play_to_the_end, start_game
from tests.games.helpers import analysed, analysis_row


def test_a_finished_game_shows_its_deal_analysis(
    client, alice, bob, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(game)
    assert analysis_row(game).done_at is not None  # enqueued after the ending's commit, run
    result = DealAnalysis.objects.get(game=game).result
    team, solitaire = result["team"], result["solitaire"]
    assert team["exact"] and team["lower"] == team["upper"] == 25
    assert (solitaire["h"], solitaire["c"], solitaire["winnable"]) == (10, 5, True)
    # The winning line is real: the engine replays it to 25.
    line = replay(game.game_options, game.deck_source, team["actions"])
    assert line.score == 25 and line.is_over

    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/replay/{game.turn}/").content.decode()
    assert "Could this deal have been won?" in page
    assert "<strong>Yes.</strong>" in page and "25 of 25" in page
    assert "h&nbsp;=&nbsp;10" in page and "can be won." in page
    assert f"Your table scored {game.score}." in page
    assert f"({len(team['actions'])} turns)" in page


def test_the_analysis_is_computed_once_however_often_its_row_runs(alice, bob):
    game = analysed(play_to_the_end(start_game(alice, bob)))
    row = analysis_row(game)
    first = DealAnalysis.objects.get(game=game)
    Outbox.objects.filter(pk=row.pk).update(done_at=None, claimed_at=None)
    assert delivery.run(row.pk)
    assert DealAnalysis.objects.get(game=game).created_at == first.created_at
    # A second ending of the same game cannot schedule a second row.
    announce.game_over(game)
    assert Outbox.objects.filter(kind="analysis").count() == 1


def test_the_page_waits_for_the_analysis_then_shows_it(client, alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/replay/0/").content.decode()
    assert "Working it out" in page and f'hx-get="/games/{game.pk}/analysis/"' in page
    partial = client.get(f"/games/{game.pk}/analysis/", HTTP_HX_REQUEST="true").content.decode()
    assert "Working it out" in partial and 'hx-trigger="every 5s"' in partial

    analysed(game)
    partial = client.get(f"/games/{game.pk}/analysis/", HTTP_HX_REQUEST="true").content.decode()
    assert "Yes." in partial and "hx-trigger" not in partial  # the polling stops


def test_an_unwinnable_deal_says_so(client, alice, bob, settings):
    """All fifteen 1s at the bottom of the deck: the paper's model with h = 10 cannot win it
    (eleven or more cards would have to wait in hand), and so no team can."""
    settings.ANALYSIS_TIME_LIMIT_SECONDS = 3  # the page must say what it has, settled or not
    options = GameOptions(players=2)
    deck = new_deck(options, 5)
    deck = [card for card in deck if card.rank != 1] + [card for card in deck if card.rank == 1]
    game = analysed(play_to_the_end(start_game(alice, bob, deck=[list(card) for card in deck])))
    result = DealAnalysis.objects.get(game=game).result
    assert result["solitaire"]["winnable"] is False
    assert result["team"]["upper"] < 25
    context = page_context(game, game.seat_names())
    assert context["analysis"]["team"]["upper"] == result["team"]["upper"]
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/replay/0/").content.decode()
    assert "<strong>cannot</strong> be won" in page
    if result["team"]["exact"]:
        assert "<strong>No.</strong>" in page
    else:
        assert "<strong>Not settled.</strong>" in page


def test_no_analysis_while_the_game_goes_on(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    assert client.get(f"/games/{game.pk}/analysis/").status_code == 404
    assert not Outbox.objects.filter(kind="analysis").exists()


def test_games_finished_before_the_analysis_existed_get_one(alice, bob):
    from importlib import import_module

    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    migration = import_module("games.migrations.0008_analyse_finished_games")
    # The models as that migration knew them: the outbox was part of games then.
    apps = MigrationLoader(connection).project_state(("games", "0008_analyse_finished_games")).apps
    old = play_to_the_end(start_game(alice, bob))
    Outbox.objects.filter(kind="analysis").delete()  # as before the analysis existed
    new = play_to_the_end(start_game(alice, bob))
    playing = start_game(alice, bob)

    migration.schedule_missing_analyses(apps, None)
    rows = Outbox.objects.filter(kind="analysis")
    assert sorted(row.payload["game"] for row in rows) == [old.pk, new.pk]
    assert playing.pk not in {row.payload["game"] for row in rows}
    analysed(old)
    assert DealAnalysis.objects.filter(game=old).exists()


def test_a_game_in_play_is_never_analysed_even_if_a_row_asks(alice, bob):
    from outbox import delivery

    game = start_game(alice, bob)
    row = delivery.schedule("analysis", {"game": game.pk})
    assert delivery.run(row.pk) is True
    assert not DealAnalysis.objects.filter(game=game).exists()


def test_the_outbox_admin_is_for_reading(client, alice, bob):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root@example.org", "pw-root-123456")
    client.force_login(admin)
    assert client.get("/admin/outbox/outbox/add/").status_code == 403
    start_game(alice, bob)
    row = Outbox.objects.first()
    page = client.get(f"/admin/outbox/outbox/{row.pk}/change/").content.decode()
    assert 'name="_save"' not in page and "Delete" not in page
