"""The profile and history pages: who sees them, what they show, the history's filters and
pages, the owner's privacy setting. Personas: alice owns, bob plays with her, mallory is
another logged-in person."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.engine import End
from games.models import Game
from players.models import PlayerProfile
from players.views import PARTNER_CHOICES
from tests.conftest import make_user
from tests.games.conftest import start_game
from tests.players.helpers import finished_game


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def games(alice, bob, carol):
    """Alice's finished games: two at 2 players (one won), one at 3 with a strike-out, one
    with a sixth suit, and a public one; newest last."""
    start = timezone.now() - timedelta(days=10)
    return [
        finished_game([alice, bob], score=25, end=End.PERFECT, finished_at=start),
        finished_game([bob, alice], score=17, finished_at=start + timedelta(days=1)),
        finished_game(
            [alice, bob, carol], score=0, end=End.STRIKEOUT, finished_at=start + timedelta(days=2)
        ),
        finished_game(
            [alice, carol], score=22, multicolour=1, finished_at=start + timedelta(days=3)
        ),
        finished_game(
            [carol, alice],
            score=19,
            finished_at=start + timedelta(days=4),
            visibility=Game.Visibility.PUBLIC,
        ),
    ]


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_log_in(alice):
    for path in (f"/players/{alice.pk}/", f"/players/{alice.pk}/games/"):
        response = Client().get(path)
        assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.django_db
def test_an_unknown_player_is_not_found(mallory):
    assert client_of(mallory).get("/players/999999/").status_code == 404


@pytest.mark.django_db
def test_the_profile_shows_the_figures_and_the_max_scores_table(alice, bob, games):
    response = client_of(bob).get(f"/players/{alice.pk}/")
    assert response.status_code == 200
    totals = response.context["totals"]
    assert (totals.played, totals.won, totals.best_score, totals.perfect, totals.strikeouts) == (
        5,
        1,
        25,
        1,
        1,
    )
    assert totals.average == pytest.approx((25 + 17 + 0 + 22 + 19) / 5)
    rows = {row.variant: row for row in response.context["variant_rows"]}
    assert list(rows) == ["no variant", "sixth suit"]
    no_variant = rows["no variant"]
    assert [cell and cell.best_score for cell in no_variant.cells] == [25, 0, None, None, None]
    assert [cell and cell.played for cell in no_variant.cells] == [3, 1, None, None, None]
    assert rows["sixth suit"].max_score == 30
    page = response.content.decode()
    assert "Max scores" in page and "2 won of" not in page and "1 won of 3" in page
    partners = {s.partner_id: s for s in response.context["partners"]}
    assert (partners[bob.pk].played, partners[bob.pk].best_score) == (3, 25)


@pytest.mark.django_db
def test_replays_are_linked_for_those_who_may_open_them(alice, bob, mallory, games):
    """Alice's invite-only games are hers and their players' to open; a public one is
    anyone's (games/views/access.py)."""
    own = client_of(alice).get(f"/players/{alice.pk}/").content.decode()
    for game in games:
        assert f"/games/{game.pk}/replay/0/" in own
    other = client_of(mallory).get(f"/players/{alice.pk}/").content.decode()
    public, *private = reversed(games)
    assert f"/games/{public.pk}/replay/0/" in other
    for game in private:
        assert f"/games/{game.pk}/replay/0/" not in other
    assert client_of(mallory).get(f"/games/{public.pk}/replay/0/").status_code == 200


@pytest.mark.django_db
def test_a_game_in_progress_does_not_appear(alice, bob):
    start_game(alice, bob)
    response = client_of(bob).get(f"/players/{alice.pk}/")
    assert response.status_code == 200
    assert response.context["totals"].played == 0 and response.context["last_games"] == []
    assert "No finished game yet." in response.content.decode()


@pytest.mark.django_db
def test_a_hidden_profile_is_private_to_others_and_shown_to_its_owner(alice, mallory, games):
    response = client_of(alice).post("/players/privacy/", {"hidden": "1"})
    assert response.status_code == 302 and response["Location"] == f"/players/{alice.pk}/"
    assert PlayerProfile.objects.get(user=alice).hidden
    for path in (f"/players/{alice.pk}/", f"/players/{alice.pk}/games/"):
        page = client_of(mallory).get(path).content.decode()
        assert "This profile is private." in page
        assert "Max scores" not in page
        assert not any(f"/games/{game.pk}/" in page for game in games)
    own = client_of(alice).get(f"/players/{alice.pk}/").content.decode()
    assert "Max scores" in own and "Your profile is private" in own
    client_of(alice).post("/players/privacy/", {"hidden": "0"})
    assert "Max scores" in client_of(mallory).get(f"/players/{alice.pk}/").content.decode()
    # The setting kept the figures.
    assert PlayerProfile.objects.get(user=alice).best_streak == 1


@pytest.mark.django_db
def test_privacy_is_set_by_a_post_of_the_owner_only(alice, mallory):
    assert client_of(alice).get("/players/privacy/").status_code == 405
    assert Client().post("/players/privacy/", {"hidden": "1"}).status_code == 302
    assert not PlayerProfile.objects.exists()


def history(client, user, **query) -> list[int]:
    response = client.get(f"/players/{user.pk}/games/", query)
    assert response.status_code == 200
    return [row["record"].game_id for row in response.context["rows"]]


@pytest.mark.django_db
def test_the_history_filters(alice, bob, carol, mallory, games):
    client = client_of(mallory)
    by_number = [game.pk for game in reversed(games)]  # newest first
    assert history(client, alice) == by_number
    assert history(client, alice, variant="sixth suit") == [games[3].pk]
    assert history(client, alice, players=3) == [games[2].pk]
    assert history(client, alice, partner=bob.pk) == [g.pk for g in reversed(games[:3])]
    assert history(client, alice, partner=carol.pk) == [g.pk for g in reversed(games[2:])]
    assert history(client, alice, result="won") == [games[0].pk]
    assert history(client, alice, result="struck_out") == [games[2].pk]
    assert history(client, alice, result="lost") == [g.pk for g in reversed(games[1:])]
    day = timezone.localdate(games[1].finished_at)
    assert history(client, alice, date_from=day, date_to=day) == [games[1].pk]
    assert history(client, alice, date_from=day + timedelta(days=3)) == [games[4].pk]
    assert history(client, alice, variant="sixth suit", partner=bob.pk) == []


@pytest.mark.django_db
def test_a_bad_filter_says_so_and_filters_nothing(alice, mallory, games):
    response = client_of(mallory).get(
        f"/players/{alice.pk}/games/", {"players": "9", "partner": str(mallory.pk)}
    )
    assert response.status_code == 200
    assert len(response.context["rows"]) == len(games)
    assert "Select a valid choice" in response.content.decode()
    response = client_of(mallory).get(
        f"/players/{alice.pk}/games/", {"date_from": "2026-02-02", "date_to": "2026-02-01"}
    )
    assert "The first date comes after the last." in response.content.decode()


@pytest.mark.django_db
def test_the_history_is_paged_and_keeps_its_filters(alice, bob, mallory):
    start = timezone.now() - timedelta(days=1)
    for n in range(30):
        finished_game([alice, bob], score=n % 26, finished_at=start + timedelta(minutes=n))
    finished_game([alice, bob], score=3, multicolour=1)
    client = client_of(mallory)
    response = client.get(f"/players/{alice.pk}/games/", {"variant": "no variant"})
    assert len(response.context["rows"]) == 25
    page = response.content.decode()
    assert "30 games, page 1 of 2" in page
    assert "?variant=no+variant&amp;page=2" in page
    second = client.get(f"/players/{alice.pk}/games/", {"variant": "no variant", "page": 2})
    assert len(second.context["rows"]) == 5


@pytest.mark.django_db
def test_the_lobby_links_to_my_profile(alice):
    page = client_of(alice).get("/").content.decode()
    assert f'href="/players/{alice.pk}/"' in page


@pytest.mark.django_db
def test_the_partner_filter_offers_the_most_frequent_and_takes_any_partner(alice, mallory):
    """A long-time player has thousands of partners: the list offers the most frequent,
    and a link naming another partner still filters by them."""
    regular = make_user("regular")
    for _ in range(2):
        finished_game([alice, regular])
    once = [make_user(f"once{n}") for n in range(PARTNER_CHOICES)]
    games = {user.pk: finished_game([alice, user]) for user in once}
    response = client_of(mallory).get(f"/players/{alice.pk}/games/")
    offered = [pk for pk, _ in response.context["filters"].fields["partner"].choices if pk]
    assert len(offered) == PARTNER_CHOICES and regular.pk in offered
    (left_out,) = [user for user in once if user.pk not in offered]
    assert history(client_of(mallory), alice, partner=left_out.pk) == [games[left_out.pk].pk]
