"""Every change to what a page of a game shows raises the game's version, in the change's
transaction (games/services/versions.py); reading a page does not. One case per service call
that changes a game: forgetting the bump in any of them fails its case."""

import pytest

from games.errors import GameError
from games.models import Game, Seat
from games.services import clock, play, versions
from tests.games.changes import CASES, a_clue, playing, waiting
from tests.games.conftest import current_user, play_to_the_end


def version_of(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


@pytest.mark.parametrize(("name", "set_up", "change"), CASES, ids=[c[0] for c in CASES])
def test_every_change_raises_the_version_and_tells_the_cache_after_commit(
    name, set_up, change, people, django_capture_on_commit_callbacks, monkeypatch
):
    game = set_up(people)
    before = version_of(game)
    published = []
    monkeypatch.setattr(
        versions, "publish", lambda game_id, v, batch=None: published.append((game_id, v))
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        change(Game.objects.get(pk=game.pk), people)
    after = version_of(game)
    assert after > before, name
    assert published == [], "the cache hears of a version only after the commit"
    for callback in callbacks:
        callback()
    assert (game.pk, after) in published


def test_a_refused_change_leaves_the_version_alone(people):
    game = playing(people)
    before = version_of(game)
    waiting_player = people["alice"] if current_user(game) == people["bob"] else people["bob"]
    with pytest.raises(GameError):
        play.submit_action(game.pk, waiting_player, a_clue(game), game.turn)
    with pytest.raises(GameError):
        clock.resume(game.pk, people["alice"])  # not paused
    assert version_of(game) == before


def test_reading_the_pages_leaves_the_version_alone(client, people):
    game = playing(people)
    open_game = waiting(people)
    before = (version_of(game), version_of(open_game))
    client.force_login(people["bob"])
    hx = {"HTTP_HX_REQUEST": "true"}
    for url in (
        f"/games/{game.pk}/",
        f"/games/{game.pk}/poll/?status=playing&v={before[0]}",
        f"/games/{game.pk}/poll/?status=playing&v={before[0] - 1}",
        f"/games/{game.pk}/poll/?status=open&v={before[0] - 1}",  # told to reload
        f"/games/{open_game.pk}/",
        "/",
    ):
        assert client.get(url, **hx).status_code in (200, 204), url
    assert (version_of(game), version_of(open_game)) == before

    finished = play_to_the_end(playing(people))
    version = version_of(finished)
    for url in (
        f"/games/{finished.pk}/",
        f"/games/{finished.pk}/replay/1/",
        f"/games/{finished.pk}/export.json",
    ):
        assert client.get(url, follow=True).status_code == 200, url
    assert version_of(finished) == version


def test_a_poll_that_does_not_say_its_version_is_refused_and_changes_nothing(client, people):
    game = playing(people)
    bob = people["bob"]
    client.force_login(bob)
    hx = {"HTTP_HX_REQUEST": "true"}
    for query in ("status=playing", "status=playing&turn=0", "status=playing&v=", "v=x1"):
        response = client.get(f"/games/{game.pk}/poll/?{query}", **hx)
        assert response.status_code == 400, query
        assert b"which version" in response.content, query
    assert Seat.objects.get(game=game, user=bob).last_seen_at is None  # no presence marked
    # An outsider learns nothing more than before: no such game.
    client.force_login(people["carol"])  # not at this table
    assert client.get(f"/games/{game.pk}/poll/?status=playing", **hx).status_code == 404


def test_the_bump_needs_no_lock_and_counts_exactly(people, django_capture_on_commit_callbacks):
    game = playing(people)
    start = version_of(game)
    assert [versions.bump(game.pk) for _ in range(3)] == [start + 1, start + 2, start + 3]
    stale = Game.objects.get(pk=game.pk)
    versions.bump(game.pk)
    assert versions.bump(stale) == start + 5 == stale.version
