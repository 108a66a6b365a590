"""Each provider's verdicts on the sender decide as docs/SECURITY.md says: first, what each
webhook stores from the provider's own fields (never from headers the sender wrote); then,
for each provider, which verdicts move a reply and which do not.

In the second part the reply's own DKIM signature (if any) is made with a key its domain
does not publish, so that only the provider's word can vouch for it."""

import json

import pytest

from games.models import Game, Move
from mailplay.inbound import receive
from mailplay.models import InboundMessage
from tests.games.conftest import current_user, start_game
from tests.mail import run_due
from tests.mail_signing import private_key, sign
from tests.mailplay.conftest import address_for, reply
from tests.mailplay.test_webhooks import (  # noqa: F401  (configured, no_network: fixtures)
    AUTH,
    SENDER,
    a_reply,
    configured,
    mailgun_mime,
    mailgun_parsed,
    mailgun_signed,
    no_network,
    post_as,
    post_postmark,
    postmark_payload,
    sendgrid_raw,
)

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailNotSupportedWarning"),
]

POSTMARK_SPF = (
    "Pass (sender SPF authorized) identity=mailfrom; client-ip=192.0.2.10; "
    "helo=mail.example.org; envelope-from={envelope}; receiver=<UNKNOWN>"
)


# --- What each webhook stores --------------------------------------------------------------


def the_stored_verdicts() -> dict:
    (message,) = InboundMessage.objects.all()
    return message.provider_verdicts


def test_amazon_ses_stores_its_receipt_verdicts_and_the_mail_from(client):
    assert post_as("amazon_ses", client, a_reply()).status_code == 200
    assert the_stored_verdicts() == {
        "spfVerdict": "PASS",
        "dkimVerdict": "PASS",
        "dmarcVerdict": "PASS",
        "envelope_from": SENDER,
    }


def test_sendgrid_stores_its_dkim_and_spf_fields_and_the_envelope_sender(client):
    assert client.post("/anymail/sendgrid/inbound/", sendgrid_raw(a_reply()), **AUTH)
    assert the_stored_verdicts() == {
        "dkim": "{@example.org : pass}",
        "SPF": "pass",
        "envelope_from": SENDER,
    }


def test_mailgun_stores_the_headers_it_adds_on_top_not_the_senders_copies(client):
    fields = mailgun_parsed()
    headers = json.loads(fields["message-headers"])
    forged = [["X-Mailgun-Dkim-Check-Result", "Pass"], ["X-Mailgun-Spf", "Pass"]]
    ours = [["X-Mailgun-Spf", "SoftFail"], ["X-Mailgun-Dkim-Check-Result", "Fail"]]
    fields["message-headers"] = json.dumps(ours + headers + forged)
    fields = mailgun_signed({k: v for k, v in fields.items() if k not in SIGNING})
    assert client.post("/anymail/mailgun/inbound/", fields, **AUTH).status_code == 200
    assert the_stored_verdicts() == {
        "X-Mailgun-Spf": "SoftFail",
        "X-Mailgun-Dkim-Check-Result": "Fail",
        "envelope_from": SENDER,
    }


SIGNING = ("timestamp", "token", "signature")


def test_mailgun_raw_mime_stores_the_headers_on_top_of_the_message(client):
    raw = b"X-Mailgun-Spf: Pass\r\nX-Mailgun-Dkim-Check-Result: Pass\r\n" + a_reply()
    assert client.post("/anymail/mailgun/inbound_mime/", mailgun_mime(raw), **AUTH)
    assert the_stored_verdicts() == {
        "X-Mailgun-Spf": "Pass",
        "X-Mailgun-Dkim-Check-Result": "Pass",
        "envelope_from": SENDER,
    }


def test_postmark_stores_the_first_received_spf_header(client):
    payload = postmark_payload(a_reply())
    mine = POSTMARK_SPF.format(envelope=SENDER)
    payload["Headers"][:0] = [{"Name": "Received-SPF", "Value": mine}]
    payload["Headers"].append({"Name": "Received-SPF", "Value": "Pass (forged by the sender)"})
    assert post_postmark(client, payload).status_code == 200
    assert the_stored_verdicts() == {"Received-SPF": mine}


# --- What each provider's verdicts decide ----------------------------------------------------

DOMAIN = "{domain}"  # the player's domain, filled in by the test
ELSEWHERE = "attacker.example"

# (source, verdicts, the reply's signatures (domains, by a key nobody publishes), moves?)
CASES = {
    "ses dmarc pass": ("amazon_ses", {"dmarcVerdict": "PASS"}, [], True),
    "ses dmarc fail": ("amazon_ses", {"dmarcVerdict": "FAIL", "dkimVerdict": "FAIL"}, [], False),
    "ses dmarc gray": ("amazon_ses", {"dmarcVerdict": "GRAY"}, [DOMAIN], False),
    "ses dkim pass, aligned": ("amazon_ses", {"dkimVerdict": "PASS"}, [DOMAIN], True),
    "ses dkim pass, no signature": ("amazon_ses", {"dkimVerdict": "PASS"}, [], False),
    "ses dkim pass, one unaligned": (
        "amazon_ses",
        {"dkimVerdict": "PASS"},
        [DOMAIN, ELSEWHERE],
        False,
    ),
    "ses spf pass, aligned": (
        "amazon_ses",
        {"spfVerdict": "PASS", "envelope_from": f"bounce@{DOMAIN}"},
        [],
        True,
    ),
    "ses spf pass, unaligned": (
        "amazon_ses",
        {"spfVerdict": "PASS", "envelope_from": f"bounce@{ELSEWHERE}"},
        [],
        False,
    ),
    "mailgun dkim pass, aligned": (
        "mailgun",
        {"X-Mailgun-Dkim-Check-Result": "Pass"},
        [DOMAIN],
        True,
    ),
    "mailgun dkim pass, unaligned": (
        "mailgun",
        {"X-Mailgun-Dkim-Check-Result": "Pass"},
        [ELSEWHERE],
        False,
    ),
    "mailgun dkim fail": ("mailgun", {"X-Mailgun-Dkim-Check-Result": "Fail"}, [DOMAIN], False),
    "mailgun spf pass, aligned": (
        "mailgun",
        {"X-Mailgun-Spf": "Pass", "envelope_from": f"me@{DOMAIN}"},
        [],
        True,
    ),
    "mailgun spf pass, unaligned": (
        "mailgun",
        {"X-Mailgun-Spf": "Pass", "envelope_from": f"me@{ELSEWHERE}"},
        [],
        False,
    ),
    "mailgun spf softfail": (
        "mailgun",
        {"X-Mailgun-Spf": "SoftFail", "envelope_from": f"me@{DOMAIN}"},
        [],
        False,
    ),
    "sendgrid dkim pass": ("sendgrid", {"dkim": f"{{@{DOMAIN} : pass}}"}, [], True),
    "sendgrid dkim pass elsewhere": ("sendgrid", {"dkim": f"{{@{ELSEWHERE} : pass}}"}, [], False),
    "sendgrid dkim fail": ("sendgrid", {"dkim": f"{{@{DOMAIN} : fail}}"}, [], False),
    "sendgrid spf pass, aligned": (
        "sendgrid",
        {"SPF": "pass", "envelope_from": f"me@{DOMAIN}"},
        [],
        True,
    ),
    "sendgrid spf pass, unaligned": (
        "sendgrid",
        {"SPF": "pass", "envelope_from": f"me@{ELSEWHERE}"},
        [],
        False,
    ),
    "postmark spf pass, aligned": (
        "postmark",
        {"Received-SPF": POSTMARK_SPF.format(envelope=f"me@{DOMAIN}")},
        [],
        True,
    ),
    "postmark spf pass, unaligned": (
        "postmark",
        {"Received-SPF": POSTMARK_SPF.format(envelope=f"me@{ELSEWHERE}")},
        [],
        False,
    ),
    "postmark spf fail": (
        "postmark",
        {"Received-SPF": "Fail " + POSTMARK_SPF.format(envelope=f"me@{DOMAIN}")[4:]},
        [],
        False,
    ),
    # The built-in receiver has no provider: verdicts under its name are never read.
    "smtp with a provider's fields": ("smtp", {"dmarcVerdict": "PASS"}, [], False),
}


@pytest.fixture
def game(alice, bob) -> Game:
    return start_game(alice, bob)


@pytest.mark.usefixtures("send_at_once")
@pytest.mark.parametrize("case", list(CASES))
def test_the_providers_verdicts_decide(game, case):
    source, verdicts, signers, moves = CASES[case]
    player = current_user(game)
    domain = player.email.rpartition("@")[2]
    to = address_for(game, player)
    raw = reply(to, player.email, "play 1", signed=False)
    for signer in signers:
        raw = sign(raw, signer.replace(DOMAIN, domain), key=private_key("unpublished"))
    filled = {name: value.replace(DOMAIN, domain) for name, value in verdicts.items()}
    message = receive(raw, source, [to], player.email, filled)
    run_due("inbound_email")
    message.refresh_from_db()
    expected = InboundMessage.Status.MOVED if moves else InboundMessage.Status.ANSWERED
    assert message.status == expected, message.outcome
    assert Move.objects.exists() == moves
