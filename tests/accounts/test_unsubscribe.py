"""One-click unsubscribe from game emails (RFC 8058): the link in the List-Unsubscribe
header and in every game email's footer."""

import pytest
from django.conf import settings
from django.core import mail, signing
from django.test import Client

from accounts.models import User
from accounts.unsubscribe import Link, link_for_token, unsubscribe_url
from games.emails import send_game_email
from games.models import Seat
from moderation import services as moderation
from tests.conftest import make_moderator
from tests.games.conftest import current_user, start_game
from tests.mail import run_due, send_at_once  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

# What a mail provider sends when its reader clicks "Unsubscribe" (RFC 8058, section 3.1).
ONE_CLICK_BODY = "List-Unsubscribe=One-Click"
FORM_ENCODED = "application/x-www-form-urlencoded"


def unsubscribe_path(user: User) -> str:
    url = unsubscribe_url(user)
    assert url.startswith(settings.SITE_URL + "/accounts/unsubscribe/")
    return url.removeprefix(settings.SITE_URL)


def tampered(path: str) -> str:
    token = path.split("/")[-2]
    last = "A" if token[-1] != "A" else "B"
    return path.replace(token, token[:-1] + last)


def mail_provider() -> Client:
    """A client like a mail provider's server: no cookies, no session, and a CSRF check
    that would refuse any POST without a token."""
    return Client(enforce_csrf_checks=True)


def notify_of(user: User) -> str:
    user.refresh_from_db()
    return user.notify


def test_the_page_asks_first_and_changes_nothing(alice):
    # Link checkers and mail scanners fetch every link in an email.
    response = mail_provider().get(unsubscribe_path(alice))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Stop game emails for alice@example.org?</h1>" in html
    assert '<form method="post"' in html
    assert '<input type="hidden" name="List-Unsubscribe" value="One-Click">' in html
    assert '<button type="submit">Stop game emails</button>' in html
    assert 'href="/accounts/profile/"' in html
    assert notify_of(alice) == User.Notify.EVERY_TURN


def test_a_one_click_post_without_cookies_unsubscribes(alice):
    response = mail_provider().post(
        unsubscribe_path(alice), ONE_CLICK_BODY, content_type=FORM_ENCODED
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Game emails are off</h1>" in html
    assert "We will not email alice@example.org about games any more." in html
    assert '<a href="/accounts/profile/">Turn game emails back on in your preferences</a>' in html
    assert notify_of(alice) == User.Notify.NONE


def test_the_button_on_the_page_unsubscribes(client, alice):
    response = client.post(unsubscribe_path(alice), {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert notify_of(alice) == User.Notify.NONE


def test_a_daily_digest_can_be_unsubscribed_too(alice):
    alice.notify = User.Notify.DAILY_DIGEST
    alice.save(update_fields=["notify"])
    mail_provider().post(unsubscribe_path(alice), ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert notify_of(alice) == User.Notify.NONE


def test_unsubscribing_twice_is_fine(alice):
    path = unsubscribe_path(alice)
    for _ in range(2):
        response = mail_provider().post(path, ONE_CLICK_BODY, content_type=FORM_ENCODED)
        assert response.status_code == 200
    assert notify_of(alice) == User.Notify.NONE


def test_the_link_unsubscribes_only_its_owner(alice, bob):
    mail_provider().post(unsubscribe_path(alice), ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert notify_of(bob) == User.Notify.EVERY_TURN


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_tampered_link_says_it_is_broken_and_changes_nothing(alice, method):
    path = tampered(unsubscribe_path(alice))
    if method == "GET":
        response = mail_provider().get(path)
    else:
        response = mail_provider().post(path, ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert response.status_code == 400
    html = response.content.decode()
    assert "<h1>This unsubscribe link is broken</h1>" in html
    assert "Nothing has been changed." in html
    assert 'href="/accounts/profile/"' in html
    assert notify_of(alice) == User.Notify.EVERY_TURN


@pytest.mark.parametrize(
    "token",
    [
        "nonsense",
        # Signed by this site, but for something else: not an unsubscribe link.
        signing.dumps(1),
        signing.dumps(1, salt="accounts.login"),
    ],
    # Signed tokens hold the time: named, so that every pytest-xdist worker collects the same.
    ids=["nonsense", "signed-unsalted", "signed-for-login"],
)
def test_other_tokens_are_refused(alice, token):
    path = f"/accounts/unsubscribe/{token}/"
    response = mail_provider().post(path, ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert response.status_code == 400
    assert notify_of(alice) == User.Notify.EVERY_TURN


def test_the_link_of_a_deleted_account_is_refused_politely(alice):
    path = unsubscribe_path(alice)
    alice.delete()
    response = mail_provider().post(path, ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert response.status_code == 400
    assert "This unsubscribe link is broken" in response.content.decode()


# Issue 25: the link in an email about one game mutes that game for its player (the same
# mute as the game page's), and its page offers every game email as a second, explicit
# choice. The links above, made for no game, are the ones sent before: they keep doing what
# their footer said ("Unsubscribe from game emails"), every game email off.


def game_unsubscribe_path(user: User, game) -> str:
    url = unsubscribe_url(user, game_id=game.pk)
    assert url.startswith(settings.SITE_URL + "/accounts/unsubscribe/")
    return url.removeprefix(settings.SITE_URL)


def assert_offers_every_game_email(html: str, user: User) -> None:
    """The page's second form posts to the user's link for every game email. Its token is
    signed with the second it was made in, so it is read back rather than compared."""
    prefix = '<form method="post" action="/accounts/unsubscribe/'
    assert prefix in html
    token = html.split(prefix, 1)[1].split("/", 1)[0]
    assert link_for_token(token) == Link(user, None)


def muted(user: User, game) -> bool:
    return Seat.objects.get(game=game, user=user).muted


def test_a_game_link_asks_first_offers_both_choices_and_changes_nothing(alice, bob):
    game = start_game(alice, bob)
    response = mail_provider().get(game_unsubscribe_path(alice, game))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<h1>Mute game {game.pk} for alice@example.org?</h1>" in html
    assert '<button type="submit">Mute this game</button>' in html
    # The second choice posts to the link of every game email, as a mail program would.
    assert_offers_every_game_email(html, alice)
    assert '<button type="submit">Stop all game emails</button>' in html
    assert not muted(alice, game)
    assert notify_of(alice) == User.Notify.EVERY_TURN


def test_a_one_click_post_on_a_game_link_mutes_that_game_only(alice, bob):
    game = start_game(alice, bob)
    other = start_game(alice, bob, seed=99)
    response = mail_provider().post(
        game_unsubscribe_path(alice, game), ONE_CLICK_BODY, content_type=FORM_ENCODED
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<h1>Emails about game {game.pk} are muted</h1>" in html
    assert_offers_every_game_email(html, alice)
    assert muted(alice, game)
    assert not muted(alice, other)
    assert not muted(bob, game)
    assert notify_of(alice) == User.Notify.EVERY_TURN
    # Twice is fine.
    mail_provider().post(
        game_unsubscribe_path(alice, game), ONE_CLICK_BODY, content_type=FORM_ENCODED
    )
    assert muted(alice, game) and not muted(alice, other)


def test_the_second_choice_on_a_game_links_page_stops_every_game_email(client, alice, bob):
    game = start_game(alice, bob)
    client.get(game_unsubscribe_path(alice, game))
    client.post(unsubscribe_path(alice), {"List-Unsubscribe": "One-Click"})
    assert notify_of(alice) == User.Notify.NONE


def test_a_game_link_of_someone_no_longer_seated_changes_nothing_and_says_so(alice, bob, carol):
    game = start_game(alice, bob)
    path = game_unsubscribe_path(bob, game)
    position = Seat.objects.get(game=game, user=bob).position
    moderation.replace_seat(game.pk, make_moderator("maud"), "Bob left", position, carol.email)
    response = mail_provider().post(path, ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert response.status_code == 200
    assert f"You no longer play in game {game.pk}" in response.content.decode()
    assert not Seat.objects.filter(game=game, muted=True).exists()
    assert notify_of(bob) == User.Notify.EVERY_TURN


@pytest.mark.parametrize(
    "payload",
    [[1], [1, 2, 3], ["1", 2], [1, None], "1", None],
    ids=["short", "long", "text-user", "no-game", "text", "none"],
)
def test_a_signed_token_of_another_shape_is_refused(alice, payload):
    token = signing.dumps(payload, salt="accounts.unsubscribe")
    path = f"/accounts/unsubscribe/{token}/"
    response = mail_provider().post(path, ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert response.status_code == 400
    assert notify_of(alice) == User.Notify.EVERY_TURN


@pytest.mark.usefixtures("send_at_once")
def test_a_turn_emails_one_click_header_mutes_its_game(alice, bob, mailoutbox):
    game = start_game(alice, bob)
    other = start_game(alice, bob, seed=99)
    mover = current_user(game)
    run_due("your_turn")
    message = next(m for m in mailoutbox if m.subject == f"Your turn in Hanabi game {game.pk}")
    assert message.to == [mover.email]
    url = message.extra_headers["List-Unsubscribe"].strip("<>")
    # The link names this player and this game (compared by what it carries: the signed
    # token holds the time it was made, which may differ by a second from a new one).
    token = url.rstrip("/").rsplit("/", 1)[-1]
    link = link_for_token(token)
    assert (link.user, link.game_id) == (mover, game.pk)
    assert url.removesuffix(f"{token}/") == unsubscribe_url(mover, game.pk).rsplit("/", 2)[0] + "/"
    assert f"Mute this game's emails: {url}" in message.body  # the footer's link is the same
    assert "Unsubscribe from game emails" not in message.body
    mail_provider().post(
        url.removeprefix(settings.SITE_URL), ONE_CLICK_BODY, content_type=FORM_ENCODED
    )
    assert muted(mover, game) and not muted(mover, other)
    assert notify_of(mover) == User.Notify.EVERY_TURN


def test_a_digest_about_several_games_keeps_the_link_of_every_game_email(alice, bob):
    """An email about no single game (a digest, an invitation to a game not joined yet) has
    the link that stops every game email: there is no one game to mute."""
    alice.notify = User.Notify.DAILY_DIGEST
    alice.save(update_fields=["notify"])
    mail.outbox.clear()
    send_game_email("digest", alice, {"links": []})
    (message,) = mail.outbox
    url = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert url.startswith(settings.SITE_URL + "/accounts/unsubscribe/")
    # Read back, not compared with a new link: the token holds the second it was signed in.
    assert link_for_token(url.rstrip("/").rsplit("/", 1)[-1]) == Link(alice, None)
    assert f"Unsubscribe from game emails: {url}" in message.body
