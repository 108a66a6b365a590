"""Pausing (every player asks), resuming (any player), extending a deadline (the creator or
a moderator), muting: through the services and through the views."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import tasks
from games.errors import GameError, NotAllowed
from games.models import Game, Move, Seat
from games.permissions import may_extend
from games.services import clock
from moderation import services as moderation
from tests.conftest import make_moderator
from tests.deadlines.conftest import make_overdue, real_move, timed_game
from tests.games.conftest import current_user, start_game


@pytest.fixture
def game(alice, bob, carol) -> Game:
    """Three players, 24 hours a turn; alice created it."""
    return timed_game(alice, bob, carol, hours=24)


def fetch(game: Game) -> Game:
    game.refresh_from_db()
    return game


def votes(game: Game) -> dict[str, bool]:
    return {s.user.display_name: s.wants_pause for s in game.seats.select_related("user")}


# -- pause and resume, through the services ------------------------------------------------


def test_the_game_pauses_only_when_every_player_has_asked(game, alice, bob, carol):
    deadline = game.turn_deadline
    clock.vote_pause(game.pk, alice)
    clock.vote_pause(game.pk, bob)
    assert not fetch(game).is_paused()
    assert game.turn_deadline == deadline  # the clock still runs

    clock.vote_pause(game.pk, carol)

    assert fetch(game).is_paused()
    assert game.turn_deadline is None
    assert votes(game) == {"Alice": True, "Bob": True, "Carol": True}


def test_a_paused_game_is_ignored_by_the_sweep(game, alice, bob, carol):
    make_overdue(game)
    for user in (alice, bob, carol):
        clock.vote_pause(game.pk, user)

    assert clock.overdue_games(timezone.now() + timedelta(days=30)) == []
    assert tasks.sweep_deadlines() == 0
    assert clock.time_out(game.pk, 0) is False
    assert not Move.objects.filter(game=game).exists()
    assert not Seat.objects.filter(game=game, timeouts_in_a_row__gt=0).exists()


def test_a_move_during_a_pause_starts_no_clock(game, alice, bob, carol):
    for user in (alice, bob, carol):
        clock.vote_pause(game.pk, user)
    real_move(game)
    assert game.turn == 1 and game.is_paused()
    assert game.turn_deadline is None


def test_a_withdrawn_vote_no_longer_counts(game, alice, bob, carol):
    clock.vote_pause(game.pk, alice)
    clock.vote_pause(game.pk, alice, wants_pause=False)
    clock.vote_pause(game.pk, bob)
    clock.vote_pause(game.pk, carol)
    assert not fetch(game).is_paused()
    assert game.turn_deadline is not None
    assert votes(game) == {"Alice": False, "Bob": True, "Carol": True}

    clock.vote_pause(game.pk, alice)
    assert fetch(game).is_paused()


def test_a_seat_a_bot_plays_has_no_vote(game, alice, bob, carol):
    Seat.objects.filter(game=game, user=carol).update(is_bot=True)
    with pytest.raises(NotAllowed):
        clock.vote_pause(game.pk, carol)
    clock.vote_pause(game.pk, alice)
    clock.vote_pause(game.pk, bob)
    assert fetch(game).is_paused()


def test_any_player_resumes_with_a_fresh_deadline(game, alice, bob, carol):
    make_overdue(game, by=timedelta(hours=3))  # it was paused with little time left
    for user in (alice, bob, carol):
        clock.vote_pause(game.pk, user)
    before = timezone.now()

    clock.resume(game.pk, bob)  # not the creator

    fetch(game)
    assert not game.is_paused()
    assert before + timedelta(hours=24) <= game.turn_deadline
    assert game.turn_deadline <= timezone.now() + timedelta(hours=24)
    assert votes(game) == {"Alice": False, "Bob": False, "Carol": False}
    assert clock.overdue_games(timezone.now()) == []


def test_outsiders_can_neither_pause_nor_resume(game, alice, bob, carol, mallory):
    with pytest.raises(NotAllowed):
        clock.vote_pause(game.pk, mallory)
    for user in (alice, bob, carol):
        clock.vote_pause(game.pk, user)
    with pytest.raises(NotAllowed):
        clock.resume(game.pk, mallory)
    assert fetch(game).is_paused()


def test_pausing_twice_or_resuming_a_running_game_is_refused(game, alice, bob, carol):
    with pytest.raises(GameError, match="not paused"):
        clock.resume(game.pk, alice)
    for user in (alice, bob, carol):
        clock.vote_pause(game.pk, user)
    with pytest.raises(GameError, match="already paused"):
        clock.vote_pause(game.pk, alice)


# -- extending a deadline, through the services --------------------------------------------


def test_the_creator_extends_the_deadline_by_the_hours_asked(game, alice):
    deadline = game.turn_deadline
    clock.extend_deadline(game.pk, alice, 12)
    assert fetch(game).turn_deadline == deadline + timedelta(hours=12)
    clock.extend_deadline(game.pk, alice, 72)
    assert fetch(game).turn_deadline == deadline + timedelta(hours=84)


def test_a_moderator_extends_the_deadline_of_a_game_they_do_not_play(game):
    moderator = make_moderator()
    deadline = game.turn_deadline
    with pytest.raises(NotAllowed):  # not from the game's page: from the admin, with a reason
        clock.extend_deadline(game.pk, moderator, 24)
    moderation.extend_deadline(game.pk, moderator, "Bob is travelling", 24)
    assert fetch(game).turn_deadline == deadline + timedelta(hours=24)
    (logged,) = game.moderator_actions.all()
    assert (logged.moderator, logged.reason) == (moderator, "Bob is travelling")


def test_an_overdue_turn_extended_before_the_sweep_is_not_timed_out(game, alice):
    make_overdue(game, by=timedelta(hours=1))
    clock.extend_deadline(game.pk, alice, 12)
    assert tasks.sweep_deadlines() == 0
    assert not Move.objects.filter(game=game).exists()


def test_other_players_and_outsiders_cannot_extend(game, bob, mallory):
    deadline = game.turn_deadline
    for user in (bob, mallory):
        with pytest.raises(NotAllowed):
            clock.extend_deadline(game.pk, user, 12)
    assert fetch(game).turn_deadline == deadline


def test_extending_needs_a_deadline_and_a_sensible_number_of_hours(game, alice, bob, carol):
    for hours in (0, -5, 24 * 7 + 1):
        with pytest.raises(GameError, match="1 hour to 7 days"):
            clock.extend_deadline(game.pk, alice, hours)
    for user in (alice, bob, carol):
        clock.vote_pause(game.pk, user)
    with pytest.raises(GameError, match="no deadline"):
        clock.extend_deadline(game.pk, alice, 12)
    untimed = start_game(alice, bob)
    with pytest.raises(GameError, match="no deadline"):
        clock.extend_deadline(untimed.pk, alice, 12)


# -- through the views ---------------------------------------------------------------------


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_pausing_and_resuming_through_the_pages(client, game, alice, bob, carol):
    url = f"/games/{game.pk}/"
    client.force_login(alice)
    response = client.post(f"{url}pause/", {"wants_pause": "yes"})
    assert response.status_code == 302 and response.url == url
    page = client.get(url).content.decode()
    assert "Asked to pause: Alice." in page
    assert "Withdraw my pause request" in page

    response = client.post(f"{url}pause/", {"wants_pause": "no"}, follow=True)
    assert "Ask to pause the game" in response.content.decode()
    assert votes(game)["Alice"] is False

    for user in (alice, bob, carol):
        client.force_login(user)
        client.post(f"{url}pause/", {"wants_pause": "yes"})
    page = client.get(url).content.decode()
    assert fetch(game).is_paused()
    assert "The game is paused: no deadline runs." in page
    assert "Time to move" not in page
    assert "Resume the game" in page

    response = client.post(f"{url}resume/", follow=True)  # carol, not the creator
    page = response.content.decode()
    assert not fetch(game).is_paused()
    assert "Time to move: until" in page and "The game is paused" not in page


def test_the_pages_report_what_cannot_be_done(client, game, alice, mallory):
    url = f"/games/{game.pk}/"
    client.force_login(alice)
    response = client.post(f"{url}resume/", follow=True)
    assert response.redirect_chain == [(url, 302)]
    assert messages_of(response) == ["The game is not paused."]

    client.force_login(mallory)
    for path in ("pause/", "resume/"):
        response = client.post(f"{url}{path}", follow=True)
        assert response.redirect_chain == [("/", 302)]
        assert len(messages_of(response)) == 1
        assert "Only a player at this table can" in messages_of(response)[0]
    assert not fetch(game).is_paused()
    assert client.get(f"{url}pause/").status_code == 405


def test_extending_through_the_page(client, game, alice, bob):
    url = f"/games/{game.pk}/"
    deadline = game.turn_deadline
    client.force_login(alice)
    assert "Give this turn more time" in client.get(url).content.decode()
    response = client.post(f"{url}extend/", {"hours": "24"})
    assert response.status_code == 302 and response.url == url
    assert fetch(game).turn_deadline == deadline + timedelta(hours=24)

    response = client.post(f"{url}extend/", {"hours": "5"}, follow=True)  # not offered
    assert messages_of(response) == [
        "The turn has 24 more hours.",  # from the first post, shown on this page
        "Choose how much more time to give.",
    ]
    assert fetch(game).turn_deadline == deadline + timedelta(hours=24)

    client.force_login(bob)
    assert "Give this turn more time" not in client.get(url).content.decode()
    response = client.post(f"{url}extend/", {"hours": "72"}, follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert messages_of(response) == ["Only the game's creator can give a turn more time."]
    assert fetch(game).turn_deadline == deadline + timedelta(hours=24)


def test_a_moderator_who_is_not_the_creator_extends_from_the_admin_not_the_page(client, game):
    """The page's button and its service ask the same question (games.permissions.may_extend):
    a moderator extends from the admin, where a reason is asked for the audit log."""
    moderator = make_moderator()
    deadline = game.turn_deadline
    client.force_login(moderator)
    response = client.post(f"/games/{game.pk}/extend/", {"hours": "12"}, follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert messages_of(response) == ["Only the game's creator can give a turn more time."]
    assert fetch(game).turn_deadline == deadline


def test_the_extend_button_shows_exactly_when_may_extend_allows_it(client, game, alice, carol):
    game.seats.filter(user=carol).update(user=make_moderator("staffer"))
    staff_player = game.seats.get(user__display_name="Staffer").user
    for user, shown in ((alice, True), (staff_player, False)):
        client.force_login(user)
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert ("Give this turn more time" in page) is shown
        assert may_extend(user, fetch(game)) is shown


def test_muting_through_the_page(client, game, alice, mallory):
    url = f"/games/{game.pk}/"
    client.force_login(alice)
    assert "Mute emails about this game" in client.get(url).content.decode()
    response = client.post(f"{url}mute/", {"muted": "yes"}, follow=True)
    assert response.redirect_chain == [(url, 302)]
    assert Seat.objects.get(game=game, user=alice).muted
    assert "Send me emails about this game again" in response.content.decode()

    response = client.post(f"{url}mute/", {"muted": "no"}, follow=True)
    assert messages_of(response) == ["Emails about this game are on."]
    assert not Seat.objects.get(game=game, user=alice).muted

    client.force_login(mallory)
    response = client.post(f"{url}mute/", {"muted": "yes"}, follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert messages_of(response) == ["You are not playing in this game."]
    assert not Seat.objects.filter(game=game, muted=True).exists()


def test_the_settings_show_no_pause_for_a_game_without_a_limit(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(current_user(game))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Ask to pause the game" not in page
    assert "Give this turn more time" not in page
    assert "Mute emails about this game" in page


def test_a_moderator_extends_a_deadline_from_the_admin(client, game):
    moderator = make_moderator()
    deadline = fetch(game).turn_deadline
    client.force_login(moderator)
    form = {"action": "extend", "_selected_action": [game.pk]}
    client.post("/admin/games/game/", form)  # asks why first
    assert fetch(game).turn_deadline == deadline
    response = client.post(
        "/admin/games/game/",
        {**form, "apply": "yes", "reason": "holiday", "hours": 24},
        follow=True,
    )
    assert f"Game {game.pk}" in response.content.decode()
    assert fetch(game).turn_deadline == deadline + timedelta(hours=24)
    assert client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
