"""/dev/mail/'s reply box (DEBUG only): a turn email is answered as a mail client would,
over SMTP to the built-in receiver; without a receiver, the page says so."""

import email
import email.policy
from pathlib import Path

import pytest

from dev import run_env
from games.models import Move
from mailplay.models import InboundMessage
from tests.celery_helpers import free_port
from tests.games.conftest import current_user, start_game
from tests.notifications.conftest import debug_urls, mail_folder  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


def newest_turn_email(folder: Path, user) -> str:
    """The file name of the newest email to `user` that takes a reply."""
    for path in sorted(folder.glob("*.eml"), reverse=True):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if message["To"] == user.email and message["Reply-To"]:
            return path.name
    raise AssertionError(f"no turn email to {user.email}")


def test_the_reply_box_sends_the_reply_to_the_receiver_and_the_move_is_made(
    client,
    settings,
    mail_folder,  # noqa: F811
    debug_urls,  # noqa: F811
    receiver,
    alice,
    bob,
):
    settings.NOTIFY_DELAY_SECONDS = 0
    settings.INBOUND_SENDER_CHECK = run_env({})["INBOUND_SENDER_CHECK"]  # as dev.py run
    game = start_game(alice, bob)
    mover = current_user(game)
    name = newest_turn_email(mail_folder, mover)
    page = client.get(f"/dev/mail/{name}/")
    assert b"Send reply" in page.content
    assert "takes a reply's From as written" in page.content.decode()
    response = client.post(f"/dev/mail/{name}/reply/", {"text": "play 1"}, follow=True)
    assert b"Reply sent to play+" in response.content
    (message,) = InboundMessage.objects.all()
    assert message.status == InboundMessage.Status.MOVED
    assert Move.objects.filter(game=game, turn=0).exists()
    # The reply is threaded and quotes the turn email below the command, as clients do.
    raw = bytes(message.raw).decode()
    assert "In-Reply-To: <outbox-" in raw and "\n> Fireworks:" in raw


def test_with_production_s_sender_check_the_page_says_its_reply_moves_nothing(
    client,
    settings,
    mail_folder,  # noqa: F811
    debug_urls,  # noqa: F811
    receiver,
    alice,
    bob,
):
    """The default: the box's reply is not signed, so it is answered and moves nothing."""
    settings.NOTIFY_DELAY_SECONDS = 0
    game = start_game(alice, bob)
    mover = current_user(game)
    name = newest_turn_email(mail_folder, mover)
    page = client.get(f"/dev/mail/{name}/")
    assert "this box's reply is not signed" in page.content.decode()
    client.post(f"/dev/mail/{name}/reply/", {"text": "play 1"})
    (message,) = InboundMessage.objects.all()
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.exists()


def test_without_a_receiver_the_page_says_so_and_nothing_moves(
    client,
    settings,
    mail_folder,  # noqa: F811
    debug_urls,  # noqa: F811
    alice,
    bob,
):
    settings.NOTIFY_DELAY_SECONDS = 0
    settings.INBOUND_SMTP_PORT = free_port()  # nobody listens there
    game = start_game(alice, bob)
    name = newest_turn_email(mail_folder, current_user(game))
    response = client.post(f"/dev/mail/{name}/reply/", {"text": "play 1"}, follow=True)
    assert b"did not take the reply" in response.content
    assert b"receive_mail" in response.content
    assert not Move.objects.exists()


def test_emails_that_take_no_reply_have_no_reply_box(
    client,
    mail_folder,  # noqa: F811
    debug_urls,  # noqa: F811
):
    from lib.emails import send_email

    send_email("mailplay/wrong_sender", "x@example.org", {"outcome": "Nothing was done."})
    (path,) = mail_folder.glob("*.eml")
    assert b"Send reply" not in client.get(f"/dev/mail/{path.name}/").content
    response = client.post(f"/dev/mail/{path.name}/reply/", {"text": "play 1"}, follow=True)
    assert b"this email takes replies" in response.content


def test_the_reply_box_is_not_there_without_debug(client, mail_folder):  # noqa: F811
    assert client.post("/dev/mail/x.eml/reply/", {"text": "play 1"}).status_code == 404
