"""A reply moves only when its sender is authenticated for the From's domain
(mailplay/sender_authentication.py): DKIM verified here, a trusted server's
Authentication-Results, or the provider's verdicts (tests/mailplay/test_provider_verdicts.py).
Keys are made in the test; DNS is the stub of tests/mail_signing.py (no network)."""

import pytest
from django.core.checks import run_checks

from games.models import Game, Move
from mailplay.models import InboundMessage
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import current_user, start_game
from tests.mail_signing import private_key, sign, signed_by
from tests.mailplay.conftest import address_for, deliver, reply

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once")]

TRUSTED = "mx.hanabi.example"


@pytest.fixture
def game(alice, bob) -> Game:
    return start_game(alice, bob)


def a_reply(game: Game, signed: bool = False) -> tuple[bytes, str, object]:
    player = current_user(game)
    to = address_for(game, player)
    return reply(to, player.email, "play 1", signed=signed), to, player


def assert_moved(message) -> None:
    assert message.status == InboundMessage.Status.MOVED, message.outcome
    assert Move.objects.count() == 1


def assert_not_verified(message, player, mailoutbox) -> None:
    """Nothing moved; the one answer goes to the seat's player, saying why."""
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.exists()
    (note,) = [sent for sent in mailoutbox if "could not be verified" in sent.body]
    assert note.to == [player.email]


def test_a_reply_signed_for_the_players_domain_moves(game):
    raw, to, player = a_reply(game, signed=True)
    assert raw.startswith(b"DKIM-Signature:")
    assert_moved(deliver(raw, to, player.email))


def test_the_same_reply_unsigned_moves_nothing(game, mailoutbox):
    raw, to, player = a_reply(game)
    mailoutbox.clear()
    assert_not_verified(deliver(raw, to, player.email), player, mailoutbox)


def test_a_reply_signed_for_another_domain_moves_nothing(game, mailoutbox, dkim_dns):
    """The signature is good (the attacker's domain publishes its key), but not aligned."""
    raw, to, player = a_reply(game)
    mailoutbox.clear()
    message = deliver(sign(raw, "attacker.example"), to, player.email)
    assert_not_verified(message, player, mailoutbox)
    assert dkim_dns.lookups == []  # an unaligned signature is not even looked up


def test_a_reply_altered_after_signing_moves_nothing(game, mailoutbox):
    raw, to, player = a_reply(game, signed=True)
    altered = raw.replace(b"play 1", b"play 2")
    assert altered != raw
    mailoutbox.clear()
    assert_not_verified(deliver(altered, to, player.email), player, mailoutbox)


def test_a_reply_signed_with_a_key_the_domain_does_not_publish_moves_nothing(game, mailoutbox):
    raw, to, player = a_reply(game)
    forged = signed_by(raw, player.email, key=private_key("attacker"))
    mailoutbox.clear()
    assert_not_verified(deliver(forged, to, player.email), player, mailoutbox)


def test_a_signature_covering_only_part_of_the_body_is_not_taken(game, mailoutbox):
    """With l=, text appended below the signed part keeps the signature valid: such a
    signature vouches for nothing here."""
    raw, to, player = a_reply(game)
    head, body = raw.split(b"\n\n", 1)
    signed = sign(head + b"\n\n" + b"chat: hello\n", player.email.split("@")[1], length=True)
    with_more = signed.replace(b"chat: hello\n", b"chat: hello\n" + body)
    mailoutbox.clear()
    assert_not_verified(deliver(with_more, to, player.email), player, mailoutbox)


def test_a_subdomain_signature_is_aligned_with_its_organisational_domain(game):
    raw, to, player = a_reply(game)
    domain = player.email.split("@")[1]
    assert_moved(deliver(sign(raw, f"mail.{domain}"), to, player.email))


def test_a_dns_timeout_leaves_the_reply_for_later_not_refused(game, dkim_dns, mailoutbox):
    raw, to, player = a_reply(game, signed=True)
    dkim_dns.unreachable = True
    mailoutbox.clear()
    message = deliver(raw, to, player.email)
    assert message.status == InboundMessage.Status.RECEIVED
    assert not Move.objects.exists() and mailoutbox == []
    (row,) = Outbox.objects.filter(kind="inbound_email", done_at__isnull=True)
    assert row.attempts == 1 and "DNS timed out" in row.last_error

    dkim_dns.unreachable = False
    Outbox.objects.filter(pk=row.pk).update(due_at=row.created_at)  # its backoff has passed
    assert delivery.run(row.pk)
    message.refresh_from_db()
    assert_moved(message)


# --- A trusted server's Authentication-Results --------------------------------------------


def with_results(raw: bytes, *headers: str) -> bytes:
    return b"".join(f"Authentication-Results: {value}\r\n".encode() for value in headers) + raw


def test_a_trusted_servers_dmarc_pass_moves(game, settings):
    settings.INBOUND_TRUSTED_AUTHSERV_IDS = [TRUSTED]
    raw, to, player = a_reply(game)
    domain = player.email.split("@")[1]
    assert_moved(deliver(with_results(raw, f"{TRUSTED}; dmarc=pass header.from={domain}"), to))


def test_a_trusted_servers_aligned_dkim_pass_moves(game, settings):
    settings.INBOUND_TRUSTED_AUTHSERV_IDS = [TRUSTED]
    raw, to, player = a_reply(game)
    domain = player.email.split("@")[1]
    assert_moved(deliver(with_results(raw, f"{TRUSTED}; dkim=pass header.d={domain}"), to))


@pytest.mark.parametrize(
    "case",
    [
        "no server trusted",
        "another server's id",
        "below another server's header",
        "dmarc=fail",
        "dmarc=pass for another domain",
        "dkim=pass for another domain",
    ],
)
def test_results_that_do_not_vouch_for_the_sender_move_nothing(game, settings, mailoutbox, case):
    raw, to, player = a_reply(game)
    domain = player.email.split("@")[1]
    settings.INBOUND_TRUSTED_AUTHSERV_IDS = [] if case == "no server trusted" else [TRUSTED]
    passing = f"{TRUSTED}; dmarc=pass header.from={domain}"
    headers = {
        "no server trusted": [passing],
        "another server's id": [f"mx.attacker.example; dmarc=pass header.from={domain}"],
        # Written by the sender below the top: a trusted server strips only its own id.
        "below another server's header": ["mx.relay.example; none", passing],
        "dmarc=fail": [f"{TRUSTED}; dmarc=fail header.from={domain}"],
        "dmarc=pass for another domain": [f"{TRUSTED}; dmarc=pass header.from=attacker.example"],
        "dkim=pass for another domain": [f"{TRUSTED}; dkim=pass header.d=attacker.example"],
    }[case]
    mailoutbox.clear()
    assert_not_verified(deliver(with_results(raw, *headers), to), player, mailoutbox)


# --- The policy ---------------------------------------------------------------------------


def test_from_only_takes_an_unsigned_reply_as_development_does(game, settings):
    settings.INBOUND_SENDER_CHECK = "from-only"
    raw, to, player = a_reply(game)
    assert_moved(deliver(raw, to, player.email))


def test_the_default_is_authenticated(settings):
    from hanabi_site import settings as configured

    assert configured.INBOUND_SENDER_CHECK == "authenticated"


def test_an_unknown_policy_fails_the_check_and_from_only_warns_a_deployment(settings):
    settings.INBOUND_SENDER_CHECK = "trust-me"
    assert "mailplay.E001" in {message.id for message in run_checks()}
    settings.INBOUND_SENDER_CHECK = "from-only"
    assert "mailplay.W001" in {message.id for message in run_checks(include_deployment_checks=True)}
    settings.INBOUND_SENDER_CHECK = "authenticated"
    deploy = {message.id for message in run_checks(include_deployment_checks=True)}
    assert not {"mailplay.E001", "mailplay.W001"} & deploy
