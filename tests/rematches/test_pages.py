"""The rematch's pages: the offer under a finished game, the invitation page, the answers
by its buttons, and a clear message for a forged id."""

import pytest

from games.models import Game
from rematches import services
from rematches.models import Invitee, Rematch


def page(client, user, url: str) -> str:
    client.force_login(user)
    response = client.get(url, follow=True)  # a finished game: on to its replay
    assert response.status_code == 200
    return response.content.decode()


def messages_after(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_the_players_of_a_finished_game_are_offered_a_rematch(client, finished, alice):
    html = page(client, alice, finished.get_absolute_url())
    assert "Play again with the same table" in html


def test_a_visitor_of_a_public_finished_game_is_offered_nothing(client, finished, alice, mallory):
    Game.objects.filter(pk=finished.pk).update(visibility=Game.Visibility.PUBLIC)
    services.propose(finished.pk, alice)
    html = page(client, mallory, finished.get_absolute_url())
    assert "Final score" in html
    assert "Play again" not in html and "proposed to play again" not in html


def test_a_click_proposes_and_opens_the_invitation_page(client, finished, alice):
    client.force_login(alice)
    response = client.post(f"/rematches/propose/{finished.pk}/", follow=True)
    rematch = Rematch.objects.get()
    assert response.redirect_chain[-1][0] == f"/rematches/{rematch.pk}/"
    assert "The others are invited to play again." in messages_after(response)
    html = response.content.decode()
    assert "Bob: has not answered yet" in html and "Carol: has not answered yet" in html
    assert "Start now with bots in the empty seats" in html
    # A second click shows the same proposal.
    response = client.post(f"/rematches/propose/{finished.pk}/", follow=True)
    assert response.redirect_chain[-1][0] == f"/rematches/{rematch.pk}/"
    assert "A rematch of this game was proposed already: here it is." in messages_after(response)
    assert Rematch.objects.count() == 1


def test_the_finished_games_page_shows_the_proposal_and_the_answers(client, finished, alice, bob):
    assert "Play again with the same table" in page(client, bob, finished.get_absolute_url())
    rematch, _ = services.propose(finished.pk, alice)
    html = page(client, bob, finished.get_absolute_url())
    assert "Alice proposed to play again" in html
    assert f'action="/rematches/{rematch.pk}/accept/"' in html
    services.accept(rematch.pk, bob)
    html = page(client, bob, finished.get_absolute_url())
    assert "Bob: accepted" in html
    assert f'action="/rematches/{rematch.pk}/accept/"' not in html


def test_the_invitee_accepts_from_the_page(client, finished, alice, bob, carol):
    rematch, _ = services.propose(finished.pk, alice)
    html = page(client, bob, rematch.get_absolute_url())
    assert "Will you play again?" in html
    assert "Start now with bots" not in html
    response = client.post(f"/rematches/{rematch.pk}/accept/", follow=True)
    assert "You have a seat at the new table." in messages_after(response)
    assert "Bob: accepted" in response.content.decode()
    # The last one to accept lands on the game, started.
    client.force_login(carol)
    response = client.post(f"/rematches/{rematch.pk}/accept/")
    assert response.status_code == 302 and response.url == f"/games/{rematch.game_id}/"
    assert Game.objects.get(pk=rematch.game_id).is_playing()


def test_the_proposer_starts_with_bots_from_the_page(client, finished, alice, bob):
    rematch, _ = services.propose(finished.pk, alice)
    services.decline(rematch.pk, bob)
    assert "Bob: declined" in page(client, alice, rematch.get_absolute_url())
    response = client.post(f"/rematches/{rematch.pk}/start/")
    assert response.url == f"/games/{rematch.game_id}/"
    assert Game.objects.get(pk=rematch.game_id).is_playing()


def test_the_invitation_page_is_for_the_table_only(client, finished, alice, mallory):
    rematch, _ = services.propose(finished.pk, alice)
    client.force_login(mallory)
    assert client.get(rematch.get_absolute_url()).status_code == 404
    response = client.post(f"/rematches/{rematch.pk}/accept/", follow=True)
    assert messages_after(response) == ["You are not invited to this rematch."]
    assert not Invitee.objects.filter(user=mallory).exists()


@pytest.mark.parametrize("action", ["accept", "decline", "start"])
def test_a_forged_rematch_id_gets_a_clear_message(client, bob, action):
    client.force_login(bob)
    response = client.post(f"/rematches/999999/{action}/", follow=True)
    assert response.redirect_chain[-1][0] == "/"
    assert messages_after(response) == ["There is no such rematch."]


def test_a_refusal_comes_back_to_the_invitation(client, finished, alice, bob):
    rematch, _ = services.propose(finished.pk, alice)
    services.accept(rematch.pk, bob)
    client.force_login(bob)
    response = client.post(f"/rematches/{rematch.pk}/accept/", follow=True)
    assert response.redirect_chain[-1][0] == f"/rematches/{rematch.pk}/"
    assert messages_after(response) == ["You have already accepted this rematch."]


def test_no_page_shows_anyones_address(client, finished, alice, bob, carol):
    rematch, _ = services.propose(finished.pk, alice)
    services.decline(rematch.pk, carol)
    urls = [finished.get_absolute_url(), rematch.get_absolute_url()]
    for viewer in (alice, bob, carol):
        for url in urls:
            html = page(client, viewer, url)
            for person in (alice, bob, carol):
                assert person.email not in html, (viewer, url, person)
