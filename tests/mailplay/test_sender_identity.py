"""A reply moves only when its From names exactly one mailbox, the seat's player's, and
nothing else that looks like a sender; anything else moves nothing, and its answer goes to
the seat's own player, never to the address the message claims (no backscatter)."""

from base64 import b64encode

import pytest

from games.models import Game, Move
from games.reply_address import reply_address
from mailplay.models import InboundMessage
from tests.games.conftest import current_user, start_game
from tests.mail_signing import signed_by
from tests.mailplay.conftest import address_for, deliver, reply

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once")]

FORGER = "evil@attacker.example"


@pytest.fixture
def game(alice, bob, carol) -> Game:
    return start_game(alice, bob, carol)


def encoded(text: str) -> str:
    """`text` as one RFC 2047 encoded word, as a mail client writes a display name."""
    return f"=?utf-8?b?{b64encode(text.encode()).decode()}?="


def forged_froms(player: str) -> dict[str, str]:
    return {
        "display name holding the player's address": f"{player} <{FORGER}>",
        "quoted display name holding the player's address": f'"{player}" <{FORGER}>',
        "encoded-word display name": f"{encoded(player)} <{FORGER}>",
        "encoded word alone": encoded(player),
        "group syntax": f"x: {player};, {FORGER}",
        "two mailboxes": f"{player}, {FORGER}",
        "comment holding another address": f"<{player}> ({FORGER})",
        "the player's mailbox named after the forger": f'"{FORGER}" <{player}>',
    }


FORMS = list(forged_froms("player@example.org"))


def recipients(mailoutbox) -> list[str]:
    return [address.lower() for sent in mailoutbox for address in sent.recipients()]


def with_from(raw: bytes, *froms: str) -> bytes:
    """The reply with its From header(s) replaced by `froms`, written as they are."""
    head, body = raw.split(b"\n\n", 1)
    lines = [line for line in head.split(b"\n") if not line.lower().startswith(b"from:")]
    lines[:0] = [f"From: {value}".encode() for value in froms]
    return b"\n".join(lines) + b"\n\n" + body


def as_if_signed_for_the_player(raw: bytes, player) -> bytes:
    """Signed for the player's own domain, as a forger sharing it (one more account at the
    same big provider) gets their mail signed: only the From's reading refuses it."""
    return signed_by(raw, player.email)


def assert_refused_and_told_the_player(message, player, mailoutbox) -> None:
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.exists()
    assert FORGER not in recipients(mailoutbox)
    (note,) = mailoutbox
    assert note.to == [player.email]
    assert "could not be verified as yours" in note.body
    # A note about someone else's message: no table, no card, nothing the forger wrote.
    assert "Fireworks" not in note.body and "slot" not in note.body
    assert FORGER not in note.body


@pytest.mark.parametrize("form", FORMS)
def test_a_forged_from_moves_nothing_and_nothing_goes_to_the_forger(game, mailoutbox, form):
    player = current_user(game)
    to = address_for(game, player)
    raw = as_if_signed_for_the_player(
        with_from(
            reply(to, player.email, "play 1", signed=False), forged_froms(player.email)[form]
        ),
        player,
    )
    mailoutbox.clear()
    message = deliver(raw, to, FORGER)
    assert_refused_and_told_the_player(message, player, mailoutbox)


@pytest.mark.parametrize("second", [FORGER, "player"])
def test_two_from_headers_are_refused(game, mailoutbox, second):
    """Even both the player's: which one a server or a client reads is anyone's guess."""
    player = current_user(game)
    to = address_for(game, player)
    froms = (player.email, player.email if second == "player" else second)
    raw = as_if_signed_for_the_player(
        with_from(reply(to, player.email, "play 1", signed=False), *froms), player
    )
    mailoutbox.clear()
    message = deliver(raw, to, FORGER)
    assert_refused_and_told_the_player(message, player, mailoutbox)


def test_a_reply_from_a_stranger_gets_no_answer_to_the_stranger(game, mailoutbox):
    player = current_user(game)
    to = address_for(game, player)
    mailoutbox.clear()
    message = deliver(reply(to, f"Evil <{FORGER}>", "play 1"), to, FORGER)
    assert_refused_and_told_the_player(message, player, mailoutbox)


@pytest.mark.parametrize(
    "written",
    [
        "{email}",
        "{name} <{email}>",
        '"{email}" <{email}>',
        "{encoded} <{email}>",
        # An obsolete but common form (a period in an unquoted name): no forgery in it.
        "A. {name} <{email}>",
        "{email} ({name})",
    ],
)
def test_an_honest_reply_from_the_player_moves(game, mailoutbox, written):
    player = current_user(game)
    to = address_for(game, player)
    sender = written.format(
        email=player.email, name=player.display_name, encoded=encoded("Ånne Player")
    )
    message = deliver(reply(to, sender, "play 1"), to, player.email)
    assert message.status == InboundMessage.Status.MOVED, message.outcome
    assert Move.objects.filter(game=game, turn=0).exists()


def test_a_reply_to_an_address_of_no_seat_gets_no_answer_at_all(game, mailoutbox):
    player = current_user(game)
    # A well-formed address whose seat holds no such player: no seat to tell.
    forged = reply_address(game.pk, 0, 0, player.pk + 1000)
    mailoutbox.clear()
    message = deliver(reply(forged, FORGER, "play 1"), forged, FORGER)
    assert message.status == InboundMessage.Status.IGNORED
    assert not Move.objects.exists()
    assert mailoutbox == []


def test_a_reply_without_a_from_is_refused_and_told_to_the_player(game, mailoutbox):
    player = current_user(game)
    to = address_for(game, player)
    raw = with_from(reply(to, player.email, "play 1"))
    mailoutbox.clear()
    message = deliver(raw, to, FORGER)
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.exists()
    assert [sent.to for sent in mailoutbox] == [[player.email]]
