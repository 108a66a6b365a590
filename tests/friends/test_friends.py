"""Friends and recent partners: who they are, the friends page, and inviting them to a game
from its waiting page by button or by name, without ever showing anyone's address.

Personas (tests/conftest.py): alice plays with bob (a finished game) and carol (a game in
play); mallory has only sat at alice's table before its start: not a partner."""

import pytest
from django.utils import timezone

from friends import services
from friends.models import Friendship
from games.engine import GameOptions
from games.errors import GameError, NotAllowed
from games.models import Game, Invitation
from games.services import lobby
from tests.conftest import make_user
from tests.games.conftest import play_to_the_end, start_game


@pytest.fixture
def tables(alice, bob, carol, mallory) -> Game:
    """The games that make alice's partners; returns an open game of alice's to invite to."""
    play_to_the_end(start_game(alice, bob))
    start_game(carol, alice)
    waiting = lobby.create_game(alice, GameOptions(players=4), Game.Visibility.INVITE)
    lobby.join_game(waiting.pk, mallory, waiting.invite_code)
    return waiting


def messages_after(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_recent_partners_are_the_people_of_tables_in_play_or_over_newest_first(
    tables, alice, bob, carol
):
    assert services.recent_partners(alice) == [carol, bob]
    assert services.recent_partners(bob) == [alice]


def test_a_table_ended_lately_is_more_recent_than_one_started_before(tables, alice, bob, carol):
    Game.objects.filter(seats__user=bob, status=Game.Status.FINISHED).update(
        finished_at=timezone.now()
    )
    assert services.recent_partners(alice) == [bob, carol]


def test_add_and_remove_a_friend(tables, alice, bob):
    services.add_friend(alice, bob.pk)
    assert list(services.friends_of(alice)) == [bob]
    assert list(services.friends_of(bob)) == []  # one direction, like a bookmark
    with pytest.raises(GameError, match="^Bob is already your friend.$"):
        services.add_friend(alice, bob.pk)
    services.remove_friend(alice, bob.pk)
    assert not Friendship.objects.exists()
    with pytest.raises(GameError, match="^That person is not among your friends.$"):
        services.remove_friend(alice, bob.pk)


def test_only_a_partner_can_be_added(tables, alice, mallory):
    """Else an id typed in the form would put a stranger's name on the friends page."""
    for person_id in (mallory.pk, alice.pk, 999_999, None):
        with pytest.raises(NotAllowed, match="only someone you have played with"):
            services.add_friend(alice, person_id)
    assert not Friendship.objects.exists()


def test_the_friends_page_lists_friends_and_partners_with_their_buttons(client, tables, alice, bob):
    client.force_login(alice)
    html = client.get("/friends/").content.decode()
    assert "Add Bob as a friend" in html and "Add Carol as a friend" in html
    response = client.post("/friends/add/", {"person": bob.pk}, follow=True)
    assert messages_after(response) == ["Bob is now your friend."]
    html = response.content.decode()
    assert "Remove Bob" in html and "Add Bob as a friend" not in html
    response = client.post("/friends/remove/", {"person": bob.pk}, follow=True)
    assert messages_after(response) == ["Removed from your friends."]
    assert not Friendship.objects.exists()


def test_a_forged_id_on_the_friends_page_changes_nothing(client, tables, alice, mallory):
    client.force_login(alice)
    for person in (mallory.pk, "nobody"):
        response = client.post("/friends/add/", {"person": person}, follow=True)
        assert messages_after(response) == [
            "You can add as a friend only someone you have played with."
        ]
    assert not Friendship.objects.exists()


def test_the_waiting_page_offers_friends_first_then_partners(client, tables, alice, bob, carol):
    services.add_friend(alice, bob.pk)
    client.force_login(alice)
    html = client.get(tables.get_absolute_url()).content.decode()
    assert html.index("Invite Bob") < html.index("Invite Carol")
    assert "Invite Mallory" not in html  # seated already, and no partner
    assert "Invite a friend by name" in html


def test_one_click_invites_a_partner_by_id(client, tables, alice, carol, mailoutbox):
    client.force_login(alice)
    response = client.post(f"/friends/invite/{tables.pk}/", {"person": carol.pk}, follow=True)
    assert messages_after(response) == ["Invitation sent to Carol."]
    assert Invitation.objects.get(game=tables).email == carol.email
    html = response.content.decode()
    assert carol.email not in html
    assert "Invite Carol" not in html  # invited: the list says so
    # The second click: refused, still without the address.
    response = client.post(f"/friends/invite/{tables.pk}/", {"person": carol.pk}, follow=True)
    assert messages_after(response) == ["Carol has already been invited to this game."]
    assert Invitation.objects.count() == 1


def test_only_friends_and_partners_are_invited_by_id(client, tables, alice):
    stranger = make_user("stranger")
    client.force_login(alice)
    for person in (stranger.pk, 999_999, "x"):
        response = client.post(f"/friends/invite/{tables.pk}/", {"person": person}, follow=True)
        assert response.redirect_chain[-1][0] == tables.get_absolute_url()
        assert messages_after(response) == [
            "You can choose only among your friends and the people you played with."
        ]
    assert not Invitation.objects.exists()


def test_invite_a_friend_by_name(client, tables, alice, bob):
    services.add_friend(alice, bob.pk)
    client.force_login(alice)
    response = client.post(f"/friends/invite/{tables.pk}/", {"name": " bob "}, follow=True)
    assert messages_after(response) == ["Invitation sent to Bob."]
    assert Invitation.objects.get().email == bob.email
    assert bob.email not in response.content.decode()


def test_a_name_among_partners_only_is_not_a_friend(client, tables, alice):
    client.force_login(alice)
    response = client.post(f"/friends/invite/{tables.pk}/", {"name": "Carol"}, follow=True)
    assert messages_after(response) == ["None of your friends is called Carol."]
    assert not Invitation.objects.exists()


def test_an_ambiguous_name_is_refused(client, tables, alice, bob):
    other_bob = make_user("robert")
    other_bob.display_name = "Bob"
    other_bob.save(update_fields=["display_name"])
    start_game(other_bob, alice)
    services.add_friend(alice, bob.pk)
    services.add_friend(alice, other_bob.pk)
    client.force_login(alice)
    response = client.post(f"/friends/invite/{tables.pk}/", {"name": "bob"}, follow=True)
    assert messages_after(response) == [
        "More than one of your friends is called bob: use the buttons of the list."
    ]
    assert not Invitation.objects.exists()


def test_only_a_player_of_the_table_invites(client, tables, bob, alice):
    services.add_friend(bob, alice.pk)
    client.force_login(bob)
    response = client.post(f"/friends/invite/{tables.pk}/", {"person": alice.pk}, follow=True)
    assert response.redirect_chain[-1][0] == "/"
    assert messages_after(response) == ["Only a player at this table can invite others."]
    assert not Invitation.objects.exists()


def test_no_page_shows_another_persons_address(client, tables, alice, bob, carol, mallory):
    services.add_friend(alice, bob.pk)
    services.invite_by_id(tables.pk, alice, bob.pk)
    services.invite_by_id(tables.pk, alice, carol.pk)
    everyone = (alice, bob, carol, mallory)
    for viewer in everyone:
        client.force_login(viewer)
        for url in ("/friends/", tables.get_absolute_url()):
            html = client.get(url, follow=True).content.decode()
            for person in everyone:
                if person != viewer:
                    assert person.email not in html, (viewer, url, person)


@pytest.mark.django_db
def test_the_lobby_links_to_the_friends_page(client, alice):
    client.force_login(alice)
    assert 'href="/friends/"' in client.get("/").content.decode()
