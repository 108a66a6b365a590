"""The H-Group bot's review in the game-over email, for whoever asks for it on their profile
(issue 30): how many of their moves the bot would have made the same, and the first ones it
would have made otherwise, with its reasons, in the reader's language."""

import pytest

from accounts.models import User
from games import review
from games.services import replays
from tests.games.conftest import play_to_the_end, start_game
from tests.mail import html_body, run_due

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once")]


def own_turns(game, user) -> list:
    seat = game.seats.get(user=user).position
    turns = review.page_context(game, replays.game_record(game, ""))["review"]
    return [turn for turn in turns if turn.seat == seat]


def test_the_review_comes_to_whoever_asked_for_it_and_to_nobody_else(alice, bob, mailoutbox):
    User.objects.filter(pk=alice.pk).update(review_by_email=True)
    game = play_to_the_end(start_game(alice, bob, seed=21))
    mailoutbox.clear()
    run_due("game_over")
    (to_alice,) = [m for m in mailoutbox if m.to == [alice.email]]
    (to_bob,) = [m for m in mailoutbox if m.to == [bob.email]]
    mine = own_turns(game, alice)
    differing = [turn for turn in mine if not turn.agrees]
    assert differing, "a game where the bot would have moved otherwise at least once"
    agreed = len(mine) - len(differing)
    assert (
        f"The H-Group bot's review (level 1): it would have made {agreed} of your "
        f"{len(mine)} moves as you did." in to_alice.body
    )
    for turn in differing[:8]:
        assert f"Turn {turn.turn}: {turn.played}. The bot: {turn.suggested}." in to_alice.body
        assert turn.reason in to_alice.body
    assert f"It would have made {agreed} of your {len(mine)} moves" in html_body(to_alice)
    # Only the reader's own moves: none of Bob's turns is listed.
    for turn in own_turns(game, bob):
        assert f"Turn {turn.turn}:" not in to_alice.body
    assert "review" not in to_bob.body.lower()


@pytest.mark.usefixtures("translated")
def test_the_review_in_the_email_speaks_the_readers_language(alice, bob, mailoutbox):
    User.objects.filter(pk=alice.pk).update(review_by_email=True, language="de")
    play_to_the_end(start_game(alice, bob, seed=21))
    mailoutbox.clear()
    run_due("game_over")
    (to_alice,) = [m for m in mailoutbox if m.to == [alice.email]]
    assert "Die Auswertung des H-Group-Bots (Stufe 1): Er hätte" in to_alice.body
    assert "Der Bot: " in to_alice.body and "The bot:" not in to_alice.body


def test_the_profile_saves_the_choice(client, alice):
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert "The bot&#x27;s review in the game-over email" in page
    client.post(
        "/accounts/profile/",
        {
            "display_name": alice.display_name,
            "notify": alice.notify,
            "time_zone": alice.time_zone,
            "language": alice.language,
            "review_by_email": "on",
        },
    )
    alice.refresh_from_db()
    assert alice.review_by_email is True
