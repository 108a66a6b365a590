import pytest

from games.engine import action_to_dict
from games.errors import GameError, NotAllowed
from games.models import ChatMessage, ChatPolicy, Game
from games.services import chat, play
from moderation import services as moderation
from moderation.models import Report
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import current_user, play_to_the_end, start_game


def test_a_quiet_table_opens_its_chat_only_when_the_game_ends(client, alice, bob):
    game = start_game(alice, bob)
    assert game.chat_policy == ChatPolicy.AFTER
    with pytest.raises(GameError, match="keeps quiet during play"):
        chat.post_message(game.pk, alice, "play your red card!")
    client.force_login(alice)
    assert "the chat opens when the game ends" in client.get(f"/games/{game.pk}/").content.decode()
    play_to_the_end(game)
    chat.post_message(game.pk, alice, "  good   game  ")
    assert ChatMessage.objects.get(game=game).text == "good game"
    page = client.get(f"/games/{game.pk}/", follow=True).content.decode()
    assert "good game" in page and "Table talk" in page


def test_a_chatty_table_talks_during_play_through_the_page(client, alice, bob, mallory):
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(chat_policy=ChatPolicy.DURING)
    client.force_login(bob)
    response = client.post(f"/games/{game.pk}/chat/", {"text": "hello <b>Alice</b>"}, follow=True)
    page = response.content.decode()
    assert "hello &lt;b&gt;Alice&lt;/b&gt;" in page  # escaped, never markup
    for bad in ("", "x" * 501):
        client.post(f"/games/{game.pk}/chat/", {"text": bad})
    assert ChatMessage.objects.count() == 1
    # 500 characters once the spaces are squeezed: what the service takes, the page takes.
    spaced = "y" * 498 + " " * 40 + "z"
    response = client.post(f"/games/{game.pk}/chat/", {"text": spaced}, follow=True)
    assert ChatMessage.objects.count() == 2, response.content.decode()
    assert ChatMessage.objects.latest("pk").text == "y" * 498 + " z"
    with pytest.raises(NotAllowed):
        chat.post_message(game.pk, mallory, "let me in")


def test_the_turn_email_carries_what_was_said_since_my_last_turn(alice, bob, settings, mailoutbox):
    settings.NOTIFY_DELAY_SECONDS = 0
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(chat_policy=ChatPolicy.DURING)
    mover = current_user(game)
    other = bob if mover == alice else alice
    chat.post_message(game.pk, other, "take your time")
    state = game.load_state()
    clue = next(a for a in state.legal_actions() if type(a).__name__ == "Clue")
    play.submit_action(game.pk, mover, action_to_dict(clue), 0)
    chat.post_message(game.pk, mover, "your move, friend")
    for row_id in Outbox.objects.filter(kind="your_turn").values_list("pk", flat=True):
        delivery.run(row_id)
    to_other = next(m for m in mailoutbox if m.to == [other.email])
    assert "Table talk since your last turn:" in to_other.body
    assert f"{mover.display_name}: your move, friend" in to_other.body
    assert "take your time" not in to_other.body  # their own words are not news to them


def test_players_report_a_message_a_player_or_the_game(client, alice, bob, mallory):
    game = play_to_the_end(start_game(alice, bob))
    message = chat.post_message(game.pk, bob, "rude words")
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/", follow=True).content.decode()
    assert f'name="message" value="{message.pk}"' in page
    response = client.post(
        f"/games/{game.pk}/report/", {"reason": "insults", "message": message.pk}, follow=True
    )
    assert "a moderator will look at it" in response.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.message, report.reported_user) == (alice, message, bob)
    assert report.status == Report.Status.OPEN

    moderation.report(game.pk, alice, "the whole game was odd")
    with pytest.raises(GameError):
        moderation.report(game.pk, alice, "   ")
    with pytest.raises(NotAllowed):
        moderation.report(game.pk, mallory, "I was not there")
    with pytest.raises(GameError, match="does not play"):
        moderation.report(game.pk, alice, "who?", reported_user_id=mallory.pk)
    assert Report.objects.count() == 2


def test_a_player_reports_another_player_from_the_game_page(client, alice, bob, mallory):
    game = start_game(alice, bob)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'<option value="{bob.pk}">Bob</option>' in page
    assert f'<option value="{alice.pk}">' not in page  # nobody reports themselves

    response = client.post(
        f"/games/{game.pk}/report/", {"reason": "stalls on purpose", "reported_user": bob.pk}
    )
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.reported_user, report.message, report.reason) == (bob, None, "stalls on purpose")

    # A forged id names someone who is not at this table: a clear message, nothing stored.
    response = client.post(
        f"/games/{game.pk}/report/", {"reason": "x", "reported_user": mallory.pk}, follow=True
    )
    assert "does not play in this game" in response.content.decode()
    response = client.post(
        f"/games/{game.pk}/report/", {"reason": "x", "reported_user": alice.pk}, follow=True
    )
    assert "You cannot report yourself" in response.content.decode()
    assert Report.objects.count() == 1
