"""The hosted providers' inbound webhooks (mailplay/webhooks.py): each provider's documented
payload is stored as an InboundMessage with its outbox row, and nothing is stored from a
request the provider did not send (no or wrong basic auth, no secret configured, a bad
Mailgun or SNS signature), nor from a malformed, oversized or misaddressed one.

The outbox row's processing does not run here: the test's transaction never commits, so the
row's task (sent on commit) is never sent. These tests are about the webhooks only.
"""

import base64
import email
import email.policy
import functools
import hashlib
import hmac
import io
import json
import logging
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.error import URLError

import pytest
from anymail.exceptions import AnymailWebhookValidationFailure
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID
from django.core.cache import cache

from mailplay import webhooks
from mailplay.models import InboundMessage
from outbox.models import Outbox

pytestmark = [
    pytest.mark.django_db,
    # SendGrid's view warns on every request that anymail no longer supports it officially.
    pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailNotSupportedWarning"),
]

REPLY = "play+12-1-7-0123456789abcdef0123@hanabi.example"
SENDER = "bob@example.org"
TEXT = "discard 4, then it is your go"
SECRET = "provider:a-long-random-webhook-secret"
MAILGUN_KEY = "key-mailgun-webhook-signing"
TOPIC = "arn:aws:sns:us-east-1:123456789012:hanabi-inbound"
CERT_URL = (
    "https://sns.us-east-1.amazonaws.com/"
    "SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem"
)


def basic_auth(credentials: str) -> dict:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(credentials.encode()).decode()}


AUTH = basic_auth(SECRET)


@pytest.fixture(autouse=True)
def configured(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": MAILGUN_KEY}
    settings.REPLY_ADDRESS_PREFIX = "play"


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """The machine has no network: any fetch of a certificate is recorded and fails, unless
    a test answers it (`fetches.answer`)."""

    class Fetches(list):
        answer: bytes | None = None

    fetches = Fetches()

    def open_url(opener, url, *args, **kwargs):
        fetches.append(url)
        if fetches.answer is None:
            raise URLError("no network in tests")
        return io.BytesIO(fetches.answer)

    monkeypatch.setattr("urllib.request.OpenerDirector.open", open_url)
    return fetches


def a_reply(to: str = REPLY, text: str = TEXT, message_id: str | None = None) -> bytes:
    message = EmailMessage()
    message["From"] = f"Bob <{SENDER}>"
    message["To"] = to
    message["Subject"] = "Re: Your turn in Hanabi game #12"
    message["Date"] = "Tue, 24 Nov 2026 09:15:00 +0000"
    message["Message-ID"] = message_id or make_msgid(domain="client.example")
    message.set_content(f"{text}\n\nOn Tue, 24 Nov 2026, Hanabi wrote:\n> Your turn\n")
    return message.as_bytes()


def text_of(raw: bytes) -> str:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    return message.get_body(("plain",)).get_content()


def the_stored_message(source: str, recipient: str = REPLY, sender: str = SENDER):
    """The one message stored, with the one outbox row that processes it."""
    (message,) = InboundMessage.objects.all()
    assert (message.source, message.recipient, message.sender) == (source, recipient, sender)
    assert message.status == InboundMessage.Status.RECEIVED
    assert TEXT in text_of(bytes(message.raw))
    (row,) = Outbox.objects.filter(kind="inbound_email")
    assert row.payload == {"message": message.pk}
    return message


def nothing_stored() -> bool:
    return (
        not InboundMessage.objects.exists()
        and not Outbox.objects.filter(kind="inbound_email").exists()
    )


# --- Mailgun: a route's forward() to the URL, form-encoded, signed -----------------------


def mailgun_signature(timestamp: str, token: str, key: str = MAILGUN_KEY) -> str:
    return hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()


def mailgun_signed(fields: dict, timestamp: int | None = None) -> dict:
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    token = uuid.uuid4().hex + uuid.uuid4().hex[:18]
    return {
        **fields,
        "timestamp": stamp,
        "token": token,
        "signature": mailgun_signature(stamp, token),
    }


def mailgun_mime(raw: bytes, recipient: str = REPLY) -> dict:
    """The fields of a forward to a URL containing "mime": the raw message in body-mime."""
    return mailgun_signed(
        {
            "recipient": recipient,
            "sender": SENDER,
            "from": f"Bob <{SENDER}>",
            "subject": "Re: Your turn in Hanabi game #12",
            "body-mime": raw.decode(),
        }
    )


def mailgun_parsed(text: str = TEXT, recipient: str = REPLY) -> dict:
    """The fields of a forward to a URL without "mime": the message parsed."""
    headers = [
        ["Received", "from mail.example.org by mxa.mailgun.org with ESMTP"],
        ["From", f"Bob <{SENDER}>"],
        ["To", recipient],
        ["Subject", "Re: Your turn in Hanabi game #12"],
        ["Date", "Tue, 24 Nov 2026 09:15:00 +0000"],
        ["Message-Id", make_msgid(domain="client.example")],
        ["Mime-Version", "1.0"],
        ["Content-Type", 'multipart/alternative; boundary="b1"'],
    ]
    quoted = "On Tue, 24 Nov 2026, Hanabi wrote:\n> Your turn"
    return mailgun_signed(
        {
            "recipient": recipient,
            "sender": SENDER,
            "from": f"Bob <{SENDER}>",
            "subject": "Re: Your turn in Hanabi game #12",
            "body-plain": f"{text}\n\n{quoted}\n",
            "stripped-text": text,
            "stripped-signature": "",
            "body-html": f"<p>{text}</p><blockquote>{quoted}</blockquote>",
            "stripped-html": f"<p>{text}</p>",
            "attachment-count": "0",
            "content-id-map": "{}",
            "message-headers": json.dumps(headers),
        }
    )


def test_mailgun_raw_mime_is_stored(client):
    raw = a_reply()
    response = client.post("/anymail/mailgun/inbound_mime/", mailgun_mime(raw), **AUTH)
    assert response.status_code == 200
    assert bytes(the_stored_message("mailgun").raw) == raw


def test_mailgun_parsed_fields_are_stored(client):
    response = client.post("/anymail/mailgun/inbound/", mailgun_parsed(), **AUTH)
    assert response.status_code == 200
    the_stored_message("mailgun")


def test_mailgun_bad_signature_is_refused(client):
    fields = mailgun_mime(a_reply())
    fields["signature"] = mailgun_signature(fields["timestamp"], fields["token"], "another key")
    assert client.post("/anymail/mailgun/inbound_mime/", fields, **AUTH).status_code == 400
    del fields["signature"]
    assert client.post("/anymail/mailgun/inbound_mime/", fields, **AUTH).status_code == 400
    assert nothing_stored()


def test_mailgun_altered_after_signing_is_refused(client):
    fields = mailgun_mime(a_reply())
    fields["timestamp"] = str(int(fields["timestamp"]) + 1)
    assert client.post("/anymail/mailgun/inbound_mime/", fields, **AUTH).status_code == 400
    assert nothing_stored()


def test_mailgun_without_signing_key_refuses_everything(client, settings, caplog):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": None}
    fields = mailgun_mime(a_reply())
    # Signed with an empty key, as anyone could: an unset key must not mean "any signature".
    fields["signature"] = mailgun_signature(fields["timestamp"], fields["token"], "")
    response = client.post("/anymail/mailgun/inbound_mime/", fields, **AUTH)
    assert response.status_code == 400  # not anymail's crash on None: a 500
    assert "MAILGUN_WEBHOOK_SIGNING_KEY" in caplog.text
    assert nothing_stored()


def test_mailgun_replay_with_an_old_timestamp_stores_nothing_new(client):
    """Anymail does not check the timestamp's age: a replayed request is accepted, and its
    message, already stored, is not stored again."""
    raw = a_reply()
    fields = mailgun_signed(
        {k: v for k, v in mailgun_mime(raw).items() if k not in ("timestamp", "token")},
        timestamp=int(time.time()) - 2 * 24 * 3600,
    )
    for _ in range(2):
        response = client.post("/anymail/mailgun/inbound_mime/", fields, **AUTH)
        assert response.status_code == 200
    assert bytes(the_stored_message("mailgun").raw) == raw


# --- Postmark: inbound JSON ---------------------------------------------------------------


def postmark_payload(
    raw: bytes | None = None,
    text: str = TEXT,
    to: str = REPLY,
    original_recipient: str | None = REPLY,
    return_path: bool = True,
) -> dict:
    """Postmark's inbound JSON; RawEmail only with "Include raw email content" on."""
    message_id = make_msgid(domain="client.example")
    headers = [
        {"Name": "Received", "Value": "by p-pm-inboundg02a-aws-useast1a with SMTP"},
        {"Name": "X-Spam-Status", "Value": "No"},
        {"Name": "X-Spam-Score", "Value": "-0.1"},
        {"Name": "Message-ID", "Value": message_id},
        {"Name": "MIME-Version", "Value": "1.0"},
    ]
    if return_path:  # Postmark puts the envelope sender first
        headers.insert(0, {"Name": "Return-Path", "Value": f"<{SENDER}>"})
    payload = {
        "FromName": "Bob",
        "MessageStream": "inbound",
        "From": SENDER,
        "FromFull": {"Email": SENDER, "Name": "Bob", "MailboxHash": ""},
        "To": to,
        "ToFull": [{"Email": to, "Name": "", "MailboxHash": to.partition("+")[2].split("@")[0]}],
        "Cc": "",
        "CcFull": [],
        "Bcc": "",
        "BccFull": [],
        "ReplyTo": "",
        "Subject": "Re: Your turn in Hanabi game #12",
        "MessageID": str(uuid.uuid4()),
        "Date": "Tue, 24 Nov 2026 09:15:00 +0000",
        "MailboxHash": "",
        "TextBody": f"{text}\n\nOn Tue, 24 Nov 2026, Hanabi wrote:\n> Your turn\n",
        "HtmlBody": f"<p>{text}</p><blockquote>Your turn</blockquote>",
        "StrippedTextReply": text,
        "Tag": "",
        "Headers": headers,
        "Attachments": [],
    }
    if original_recipient is not None:
        payload["OriginalRecipient"] = original_recipient
    if raw is not None:
        payload["RawEmail"] = raw.decode()
    return payload


def post_postmark(client, payload, auth: dict = AUTH):
    return client.post(
        "/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json", **auth
    )


def test_postmark_raw_email_is_stored(client):
    raw = a_reply()
    assert post_postmark(client, postmark_payload(raw)).status_code == 200
    assert bytes(the_stored_message("postmark").raw) == raw


def test_postmark_parsed_fields_are_stored(client):
    assert post_postmark(client, postmark_payload()).status_code == 200
    the_stored_message("postmark")


def test_postmark_envelope_recipient_wins_over_the_to_header(client):
    # Forwarded by the player's own server: To is not the reply address, the envelope is.
    payload = postmark_payload(to="bob-forwarding@example.org")
    assert post_postmark(client, payload).status_code == 200
    the_stored_message("postmark", recipient=REPLY)


def test_postmark_without_envelope_reads_to_and_from(client):
    payload = postmark_payload(original_recipient=None, return_path=False)
    assert post_postmark(client, payload).status_code == 200
    the_stored_message("postmark", recipient=REPLY, sender=SENDER)


def test_the_same_message_posted_twice_is_stored_once(client):
    raw = a_reply()
    # A retry by Postmark is a new post (a new MessageID of Postmark's), the same message.
    for _ in range(2):
        assert post_postmark(client, postmark_payload(raw)).status_code == 200
    the_stored_message("postmark")


# --- SendGrid: Inbound Parse, multipart form ----------------------------------------------


def sendgrid_envelope(recipient: str = REPLY) -> str:
    return json.dumps({"to": [recipient], "from": SENDER})


def sendgrid_raw(raw: bytes, recipient: str = REPLY) -> dict:
    """With "POST the raw, full MIME message" on."""
    return {
        "email": raw.decode(),
        "to": recipient,
        "from": f"Bob <{SENDER}>",
        "subject": "Re: Your turn in Hanabi game #12",
        "sender_ip": "192.0.2.10",
        "spam_report": "Spam detection software has NOT identified this email as spam.",
        "spam_score": "0.1",
        "envelope": sendgrid_envelope(recipient),
        "charsets": json.dumps({"to": "UTF-8", "from": "UTF-8", "subject": "UTF-8"}),
        "dkim": "{@example.org : pass}",
        "SPF": "pass",
    }


def sendgrid_parsed(text: str = TEXT, recipient: str = REPLY) -> dict:
    """The default: the message parsed into fields."""
    headers = (
        "Received: from mail.example.org by mx.sendgrid.net with ESMTP\n"
        f"From: Bob <{SENDER}>\n"
        f"To: {recipient}\n"
        "Subject: Re: Your turn in Hanabi game #12\n"
        "Date: Tue, 24 Nov 2026 09:15:00 +0000\n"
        f"Message-ID: {make_msgid(domain='client.example')}\n"
        "MIME-Version: 1.0\n"
        'Content-Type: multipart/alternative; boundary="b1"\n'
    )
    return {
        "headers": headers,
        "text": f"{text}\n\nOn Tue, 24 Nov 2026, Hanabi wrote:\n> Your turn\n",
        "html": f"<p>{text}</p>",
        "to": recipient,
        "from": f"Bob <{SENDER}>",
        "subject": "Re: Your turn in Hanabi game #12",
        "sender_ip": "192.0.2.10",
        "spam_score": "0.1",
        "envelope": sendgrid_envelope(recipient),
        "attachments": "0",
        "charsets": json.dumps(
            {"to": "UTF-8", "html": "UTF-8", "subject": "UTF-8", "from": "UTF-8", "text": "UTF-8"}
        ),
        "dkim": "{@example.org : pass}",
        "SPF": "pass",
    }


def test_sendgrid_raw_mime_is_stored(client):
    raw = a_reply()
    response = client.post("/anymail/sendgrid/inbound/", sendgrid_raw(raw), **AUTH)
    assert response.status_code == 200
    assert bytes(the_stored_message("sendgrid").raw) == raw


def test_sendgrid_parsed_fields_are_stored(client):
    response = client.post("/anymail/sendgrid/inbound/", sendgrid_parsed(), **AUTH)
    assert response.status_code == 200
    the_stored_message("sendgrid")


# --- Amazon SES: a receipt rule's SNS action, posted by an SNS HTTPS subscription ---------


@functools.cache
def a_key(name: str = "sns") -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture
def sns_key() -> rsa.RSAPrivateKey:
    return a_key()


def certificate_pem(key: rsa.RSAPrivateKey) -> bytes:
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "sns.amazonaws.com")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=365))
        .sign(key, hashes.SHA256())
    )
    return certificate.public_bytes(serialization.Encoding.PEM)


@pytest.fixture
def sns_certificate(sns_key) -> bytes:
    """The test's certificate, as if fetched from CERT_URL before."""
    pem = certificate_pem(sns_key)
    cache.set(webhooks.certificate_cache_key(CERT_URL), pem)
    return pem


def sns_sign(sns: dict, key: rsa.RSAPrivateKey, version: str = "2") -> dict:
    """Sign as SNS does (written out here from AWS's documentation, independently of the
    code under test): "Name\\nvalue\\n" for each signed field, in this order."""
    if sns["Type"] == "Notification":
        names = ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
    else:
        names = ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"]
    signed = "".join(f"{name}\n{sns[name]}\n" for name in names if name in sns)
    algorithm = hashes.SHA1() if version == "1" else hashes.SHA256()
    signature = key.sign(signed.encode(), padding.PKCS1v15(), algorithm)
    return {
        **sns,
        "SignatureVersion": version,
        "Signature": base64.b64encode(signature).decode(),
        "SigningCertURL": sns.get("SigningCertURL", CERT_URL),
    }


def ses_received(raw: bytes, recipients: list[str] | None = None) -> dict:
    """SES's "Received" notification for an SNS action with Base64 encoding."""
    recipients = recipients or [REPLY]
    verdict = {"status": "PASS"}
    return {
        "notificationType": "Received",
        "mail": {
            "timestamp": "2026-11-24T09:15:00.123Z",
            "source": SENDER,
            "messageId": "o3vrnil0e2ic28trm7dfhrc2v0clambda4nbp0g1",
            "destination": recipients,
            "headersTruncated": False,
            "headers": [
                {"name": "From", "value": f"Bob <{SENDER}>"},
                {"name": "To", "value": ", ".join(recipients)},
                {"name": "Subject", "value": "Re: Your turn in Hanabi game #12"},
            ],
            "commonHeaders": {
                "returnPath": SENDER,
                "from": [f"Bob <{SENDER}>"],
                "to": recipients,
                "subject": "Re: Your turn in Hanabi game #12",
            },
        },
        "receipt": {
            "timestamp": "2026-11-24T09:15:00.123Z",
            "processingTimeMillis": 222,
            "recipients": recipients,
            "spamVerdict": verdict,
            "virusVerdict": verdict,
            "spfVerdict": verdict,
            "dkimVerdict": verdict,
            "dmarcVerdict": verdict,
            "action": {"type": "SNS", "topicArn": TOPIC, "encoding": "BASE64"},
        },
        "content": base64.b64encode(raw).decode(),
    }


def sns_notification(message: str) -> dict:
    return {
        "Type": "Notification",
        "MessageId": str(uuid.uuid4()),
        "TopicArn": TOPIC,
        "Subject": "Amazon SES Email Receipt Notification",
        "Message": message,
        "Timestamp": "2026-11-24T09:15:01.234Z",
        "UnsubscribeURL": (
            "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe"
            f"&SubscriptionArn={TOPIC}:2bcfbf39-05c3-41de-beaa-fcfcc21c8f55"
        ),
    }


def post_sns(client, sns: dict, auth: dict = AUTH):
    return client.post(
        "/anymail/amazon_ses/inbound/",
        json.dumps(sns),
        content_type="text/plain; charset=UTF-8",
        HTTP_X_AMZ_SNS_MESSAGE_TYPE=sns["Type"],
        HTTP_X_AMZ_SNS_MESSAGE_ID=sns["MessageId"],
        HTTP_X_AMZ_SNS_TOPIC_ARN=TOPIC,
        **auth,
    )


@pytest.mark.parametrize("version", ["1", "2"])
def test_ses_notification_is_stored(client, sns_key, sns_certificate, no_network, version):
    raw = a_reply()
    sns = sns_sign(sns_notification(json.dumps(ses_received(raw))), sns_key, version)
    assert post_sns(client, sns).status_code == 200
    assert bytes(the_stored_message("amazon_ses").raw) == raw
    assert no_network == []  # the certificate came from the cache


def test_ses_reply_address_among_several_recipients(client, sns_key, sns_certificate):
    raw = a_reply()
    ses = ses_received(raw, recipients=["hello@hanabi.example", REPLY])
    assert post_sns(client, sns_sign(sns_notification(json.dumps(ses)), sns_key)).status_code == 200
    the_stored_message("amazon_ses", recipient=REPLY)


def test_ses_altered_message_is_refused(client, sns_key, sns_certificate):
    sns = sns_sign(sns_notification(json.dumps(ses_received(a_reply()))), sns_key)
    forged = a_reply(text="play 1")
    sns["Message"] = json.dumps(ses_received(forged))
    assert post_sns(client, sns).status_code == 400
    assert nothing_stored()


def test_ses_signed_by_another_key_is_refused(client, sns_certificate):
    sns = sns_sign(sns_notification(json.dumps(ses_received(a_reply()))), a_key("another"))
    assert post_sns(client, sns).status_code == 400
    assert nothing_stored()


@pytest.mark.parametrize(
    "signature",
    [{"SignatureVersion": "3"}, {"Signature": "not base64!"}, {"Signature": ""}],
)
def test_ses_unusable_signature_is_refused(client, sns_key, sns_certificate, signature):
    sns = sns_sign(sns_notification(json.dumps(ses_received(a_reply()))), sns_key)
    assert post_sns(client, {**sns, **signature}).status_code == 400
    assert nothing_stored()


@pytest.mark.parametrize(
    "url",
    [
        "https://sns.us-east-1.amazonaws.com.attacker.example/SimpleNotificationService-1.pem",
        "https://attacker.example/sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem",
        "http://sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem",
        "https://sns.us-east-1.amazonaws.com:8443/SimpleNotificationService-1.pem",
        "https://user@sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem",
        "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem?x=.pem",
        "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-1.txt",
        "https://s3.us-east-1.amazonaws.com/SimpleNotificationService-1.pem",
    ],
)
def test_ses_certificate_from_elsewhere_is_refused(client, sns_key, no_network, url):
    # Even with a good certificate for that URL at hand: the URL itself is refused.
    cache.set(webhooks.certificate_cache_key(url), certificate_pem(sns_key))
    sns = sns_notification(json.dumps(ses_received(a_reply())))
    sns = sns_sign({**sns, "SigningCertURL": url}, sns_key)
    assert post_sns(client, sns).status_code == 400
    assert no_network == []
    assert nothing_stored()


@pytest.mark.parametrize(
    "url",
    [
        CERT_URL,
        "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-01d088a6f77103d0fe307c0069e40ed6.pem",
        "https://sns.ap-southeast-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem",
    ],
)
def test_amazon_sns_certificate_urls_are_accepted(url):
    webhooks.check_certificate_url(url)  # no exception


def test_a_redirect_from_the_certificate_url_is_not_followed(monkeypatch):
    """A real fetch (from a server of the test's own): only the URL checked is read."""
    monkeypatch.undo()  # no longer the no_network stand-in
    followed = []

    class Redirecting(BaseHTTPRequestHandler):
        def do_GET(self):
            followed.append(self.path)
            self.send_response(302)
            self.send_header("Location", "/elsewhere.pem")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Redirecting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/SimpleNotificationService-1.pem"
        with pytest.raises(AnymailWebhookValidationFailure, match="302"):
            webhooks._fetch_certificate(url)
    finally:
        server.shutdown()
        server.server_close()
    assert followed == ["/SimpleNotificationService-1.pem"]


def test_ses_certificate_is_fetched_once_then_cached(client, sns_key, no_network):
    pem = certificate_pem(sns_key)
    no_network.answer = pem
    for _ in range(2):
        sns = sns_sign(sns_notification(json.dumps(ses_received(a_reply()))), sns_key)
        assert post_sns(client, sns).status_code == 200
    assert no_network == [CERT_URL]
    assert cache.get(webhooks.certificate_cache_key(CERT_URL)) == pem
    assert InboundMessage.objects.count() == 2


def test_ses_not_a_certificate_at_the_url_is_refused_and_not_cached(client, sns_key, no_network):
    no_network.answer = b"<html>Not a certificate</html>"
    sns = sns_sign(sns_notification(json.dumps(ses_received(a_reply()))), sns_key)
    assert post_sns(client, sns).status_code == 400
    assert cache.get(webhooks.certificate_cache_key(CERT_URL)) is None
    assert nothing_stored()


def test_ses_certificate_unreachable_asks_sns_to_retry(client, sns_key, no_network, caplog):
    sns = sns_sign(sns_notification(json.dumps(ses_received(a_reply()))), sns_key)
    response = post_sns(client, sns)
    assert response.status_code == 503  # SNS delivers it again later
    assert no_network == [CERT_URL]
    assert "no network in tests" in caplog.text
    assert nothing_stored()


def test_ses_subscription_confirmation_is_logged_not_fetched(
    client, sns_key, sns_certificate, no_network, caplog
):
    subscribe_url = (
        "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription"
        f"&TopicArn={TOPIC}&Token=2336412f37fb687f5d51e6e2425c464de12884c0"
    )
    sns = {
        "Type": "SubscriptionConfirmation",
        "MessageId": str(uuid.uuid4()),
        "Token": "2336412f37fb687f5d51e6e2425c464de12884c0",
        "TopicArn": TOPIC,
        "Message": f"You have chosen to subscribe to the topic {TOPIC}.\nTo confirm the "
        "subscription, visit the SubscribeURL included in this message.",
        "SubscribeURL": subscribe_url,
        "Timestamp": "2026-11-24T09:00:00.000Z",
    }
    with caplog.at_level(logging.WARNING, logger="mailplay.webhooks"):
        response = post_sns(client, sns_sign(sns, sns_key))
    assert response.status_code == 200
    assert subscribe_url in caplog.text
    assert "confirm" in caplog.text
    assert no_network == []  # neither the certificate (cached) nor the SubscribeURL
    assert nothing_stored()


def test_ses_subscription_confirmation_badly_signed_is_refused(
    client, sns_key, sns_certificate, caplog
):
    sns = {
        "Type": "SubscriptionConfirmation",
        "MessageId": str(uuid.uuid4()),
        "Token": "2336412f37fb687f5d51e6e2425c464de12884c0",
        "TopicArn": TOPIC,
        "Message": "You have chosen to subscribe to the topic.",
        "SubscribeURL": "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription",
        "Timestamp": "2026-11-24T09:00:00.000Z",
    }
    signed = sns_sign(sns, sns_key)
    signed["SubscribeURL"] = "https://attacker.example/confirm"
    assert post_sns(client, signed).status_code == 400
    assert "attacker.example" not in caplog.text


def test_ses_without_basic_auth_gets_the_challenge_sns_needs(client, sns_key, no_network):
    sns = sns_sign(sns_notification(json.dumps(ses_received(a_reply()))), sns_key)
    response = post_sns(client, sns, auth={})
    assert response.status_code == 401  # SNS sends its credentials only when asked
    assert response["WWW-Authenticate"].startswith("Basic")
    assert post_sns(client, sns, auth=basic_auth("provider:wrong")).status_code == 400
    assert no_network == []  # nothing of an unauthenticated request is looked at
    assert nothing_stored()


# --- What every provider's webhook refuses ------------------------------------------------


def post_as(provider: str, client, raw: bytes, recipient: str = REPLY, auth: dict = AUTH):
    """Post `raw` as `provider` posts a message (the raw MIME variant of each)."""
    if provider == "mailgun":
        return client.post("/anymail/mailgun/inbound_mime/", mailgun_mime(raw, recipient), **auth)
    if provider == "postmark":
        payload = postmark_payload(raw, to=recipient, original_recipient=recipient)
        return post_postmark(client, payload, auth)
    if provider == "sendgrid":
        return client.post("/anymail/sendgrid/inbound/", sendgrid_raw(raw, recipient), **auth)
    assert provider == "amazon_ses"
    key = a_key()
    cache.set(webhooks.certificate_cache_key(CERT_URL), certificate_pem(key))
    ses = ses_received(raw, recipients=[recipient])
    return post_sns(client, sns_sign(sns_notification(json.dumps(ses)), key), auth=auth)


PROVIDERS = ["mailgun", "postmark", "sendgrid", "amazon_ses"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_missing_or_wrong_basic_auth_is_refused(client, provider):
    assert post_as(provider, client, a_reply(), auth={}).status_code in (400, 401)
    for wrong in ("provider:wrong", "", SECRET + "x", SECRET.split(":")[0]):
        response = post_as(provider, client, a_reply(), auth=basic_auth(wrong))
        assert response.status_code == 400
    response = post_as(provider, client, a_reply(), auth={"HTTP_AUTHORIZATION": "Bearer x"})
    assert response.status_code == 400
    assert nothing_stored()


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailInsecureWebhookWarning")
def test_no_webhook_secret_configured_refuses_everything(client, settings, caplog, provider):
    settings.ANYMAIL = {"WEBHOOK_SECRET": None, "MAILGUN_WEBHOOK_SIGNING_KEY": MAILGUN_KEY}
    for auth in ({}, AUTH):
        assert post_as(provider, client, a_reply(), auth=auth).status_code == 400
    assert "ANYMAIL_WEBHOOK_SECRET" in caplog.text
    assert nothing_stored()


@pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailInsecureWebhookWarning")
def test_no_webhook_secret_refuses_an_sns_subscription(client, settings, sns_key, caplog):
    settings.ANYMAIL = {"WEBHOOK_SECRET": None}
    sns = {
        "Type": "SubscriptionConfirmation",
        "MessageId": str(uuid.uuid4()),
        "Token": "2336412f37fb687f5d51e6e2425c464de12884c0",
        "TopicArn": TOPIC,
        "Message": "You have chosen to subscribe to the topic.",
        "SubscribeURL": "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription",
        "Timestamp": "2026-11-24T09:00:00.000Z",
    }
    cache.set(webhooks.certificate_cache_key(CERT_URL), certificate_pem(sns_key))
    assert post_sns(client, sns_sign(sns, sns_key), auth={}).status_code == 400
    assert "Action=ConfirmSubscription" not in caplog.text


def mailjet_payload(raw_to: str = REPLY) -> dict:
    message_id = make_msgid(domain="client.example")
    return {
        "Sender": SENDER,
        "Recipient": raw_to,
        "Date": "20261124T091500",
        "From": f"Bob <{SENDER}>",
        "Subject": "Re: Your turn in Hanabi game #12",
        "Headers": {
            "From": f"Bob <{SENDER}>",
            "To": raw_to,
            "Subject": "Re: Your turn in Hanabi game #12",
            "Message-ID": message_id,
        },
        "Parts": [{"Headers": {"Content-Type": 'text/plain; charset="UTF-8"'}}],
        "Text-part": f"{TEXT}\n",
        "SpamAssassinScore": "0.1",
    }


@pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailInsecureWebhookWarning")
def test_other_anymail_providers_need_the_secret_too(client, settings):
    """include("anymail.urls") serves other providers' inbound URLs as anymail wrote them:
    the receiver refuses their messages too while no secret is set."""
    payload = json.dumps(mailjet_payload())
    url = "/anymail/mailjet/inbound/"
    response = client.post(url, payload, content_type="application/json", **AUTH)
    assert response.status_code == 200
    the_stored_message("other")
    InboundMessage.objects.all().delete()
    Outbox.objects.all().delete()

    settings.ANYMAIL = {"WEBHOOK_SECRET": None}
    response = client.post(url, json.dumps(mailjet_payload()), content_type="application/json")
    assert response.status_code == 400
    assert nothing_stored()


def malformed_requests():
    signed_not_json = sns_notification("this is not JSON")
    return {
        "postmark not JSON": (
            "/anymail/postmark/inbound/",
            {"data": "{not json", "content_type": "application/json"},
        ),
        "postmark JSON but a list": (
            "/anymail/postmark/inbound/",
            {"data": "[1, 2]", "content_type": "application/json"},
        ),
        "postmark Headers not a list of objects": (
            "/anymail/postmark/inbound/",
            {"data": json.dumps({"Headers": ["x"]}), "content_type": "application/json"},
        ),
        "sendgrid neither parsed nor raw": (
            "/anymail/sendgrid/inbound/",
            {"data": {"to": REPLY, "envelope": sendgrid_envelope()}},
        ),
        "mailgun no message-headers": (
            "/anymail/mailgun/inbound/",
            {"data": mailgun_signed({"recipient": REPLY, "body-plain": TEXT})},
        ),
        "mailgun message-headers not JSON": (
            "/anymail/mailgun/inbound/",
            {"data": mailgun_signed({"recipient": REPLY, "message-headers": "[oops"})},
        ),
        "ses not JSON": (
            "/anymail/amazon_ses/inbound/",
            {
                "data": "{not json",
                "content_type": "text/plain",
                "HTTP_X_AMZ_SNS_MESSAGE_TYPE": "Notification",
            },
        ),
        "ses Message not JSON": ("sns", signed_not_json),
        "ses content not base64": ("sns-content", None),
    }


@pytest.mark.parametrize("case", list(malformed_requests()))
def test_malformed_payload_is_a_400_not_a_500(client, sns_key, sns_certificate, case):
    url, request = malformed_requests()[case]
    if url == "sns":
        response = post_sns(client, sns_sign(request, sns_key))
    elif url == "sns-content":
        ses = ses_received(a_reply())
        ses["content"] = "%%% not base64 %%%"
        response = post_sns(client, sns_sign(sns_notification(json.dumps(ses)), sns_key))
    else:
        response = client.post(url, **request, **AUTH)
    assert response.status_code == 400
    assert nothing_stored()


@pytest.mark.parametrize("provider", PROVIDERS)
def test_oversized_message_is_ignored_with_a_log_line(client, settings, caplog, provider):
    settings.INBOUND_MAX_BYTES = 256 * 1024
    raw = a_reply(text=TEXT + "\n" + "x" * 80 + ("\n" + "y" * 76) * 4000)  # over 300 KiB
    assert len(raw) > settings.INBOUND_MAX_BYTES
    with caplog.at_level(logging.WARNING, logger="mailplay.inbound"):
        response = post_as(provider, client, raw)
    assert response.status_code == 200  # the provider must not retry it
    assert f"over {settings.INBOUND_MAX_BYTES}" in caplog.text
    assert nothing_stored()


def test_request_over_djangos_limit_is_ignored_with_a_log_line(client, settings, caplog):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
    payload = postmark_payload(a_reply(text=TEXT + "\n" + "z" * 150_000))
    with caplog.at_level(logging.WARNING, logger="mailplay.webhooks"):
        response = post_postmark(client, payload)
    assert response.status_code == 200
    assert "DATA_UPLOAD_MAX_MEMORY_SIZE" in caplog.text
    assert nothing_stored()
    # Without the credentials, the same request is refused before its body is read.
    response = client.post(
        "/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json"
    )
    assert response.status_code == 400


@pytest.mark.parametrize("provider", PROVIDERS)
def test_message_not_to_a_reply_address_is_not_stored(client, caplog, provider):
    to = "hello@hanabi.example"
    with caplog.at_level(logging.INFO, logger="mailplay.inbound"):
        response = post_as(provider, client, a_reply(to=to), recipient=to)
    assert response.status_code == 200
    assert "no reply address" in caplog.text
    assert nothing_stored()


def test_head_request_of_a_provider_checking_the_url(client):
    # Some providers check the URL with a HEAD when it is configured: nothing is done.
    assert client.head("/anymail/postmark/inbound/").status_code == 200
    assert client.get("/anymail/postmark/inbound/").status_code == 405
    assert nothing_stored()
