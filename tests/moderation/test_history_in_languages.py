"""A moderator's action in a game's history, in the reader's language (issue 29): each
action the history shows, worded whole; the audit log keeps its English description."""

import pytest

from games.models import ChatMessage, ChatPolicy
from games.services import chat
from moderation import services as moderation
from moderation.models import ModeratorAction
from tests.conftest import make_moderator
from tests.games.conftest import start_game
from tests.test_every_page_in_languages import english_left

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("translated")]

SAID = {
    "de": [
        "Die Moderation hat die Frist um 36 Stunden verlängert",
        "Die Moderation hat die Frist um 1 Stunde verlängert",
        "Die Moderation hat die Partie pausiert",
        "Die Moderation hat die Partie fortgesetzt",
        "Die Moderation hat eine Nachricht von Bob ausgeblendet",
        "Die Moderation hat den Platz von Carol einem Bot gegeben",
    ],
    "fr": [
        "Un modérateur a prolongé le délai de 36 heures",
        "Un modérateur a prolongé le délai de 1 heure",
        "Un modérateur a mis la partie en pause",
        "Un modérateur a repris la partie",
        "Un modérateur a masqué un message de Bob",
        "Un modérateur a donné la place de Carol à un bot",
    ],
    "en": [
        "A moderator extended the deadline by 36 hours",
        "A moderator extended the deadline by 1 hour",
        "A moderator paused the game",
        "A moderator resumed the game",
        "A moderator hid a message by Bob",
        "A moderator gave Carol's seat to a bot",
    ],
}


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_history_says_what_a_moderator_did_in_the_readers_language(
    client, alice, bob, carol, language
):
    moderator = make_moderator()
    game = start_game(alice, bob, carol, turn_time_limit=24, chat_policy=ChatPolicy.DURING)
    moderation.extend_deadline(game.pk, moderator, "Bob travelling", 36)
    moderation.extend_deadline(game.pk, moderator, "a little more", 1)
    moderation.pause(game.pk, moderator, "a holiday")
    moderation.resume(game.pk, moderator, "back")
    message = chat.post_message(game.pk, bob, "rude words")
    moderation.hide_message(message.pk, moderator, "rude")
    carols_seat = game.seats.get(user=carol).position
    moderation.replace_seat(game.pk, moderator, "Carol left", carols_seat)
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    for sentence in SAID[language]:
        assert sentence in page.replace("&#x27;", "'"), sentence
    if language != "en":
        history = page[page.index('id="history-heading"') :]
        assert english_left(history[: history.index("</section>")], {"Bob", "Carol"}) == []
    # The moderators' record is unchanged, in English.
    assert ModeratorAction.objects.filter(description="extended the deadline by 36 hours").exists()
    assert ChatMessage.objects.get(pk=message.pk).hidden_at is not None
