"""The hosted providers' inbound webhooks (django-anymail): every message a provider posts is
handed to `mailplay.inbound.receive()`, as the built-in receiver hands its own.

The URLs (hanabi_site/urls.py routes this module's `urlpatterns` before anymail's own):

- /anymail/mailgun/inbound/ (parsed fields) or /anymail/mailgun/inbound_mime/ (raw MIME):
  a Mailgun route's forward() action;
- /anymail/postmark/inbound/: a Postmark server's inbound webhook;
- /anymail/sendgrid/inbound/: a SendGrid Inbound Parse host (best with "POST the raw, full
  MIME message" on);
- /anymail/amazon_ses/inbound/: an SNS topic's HTTPS subscription, the topic being the one an
  SES receipt rule's SNS action (encoding Base64) publishes to.

What shows that a request comes from the provider:

- Every provider: the shared secret ANYMAIL_WEBHOOK_SECRET, sent as HTTP basic auth (the
  provider is given https://user:password@host/anymail/…/inbound/). Anymail only warns when
  it is unset, and then takes anyone's posts; here every request is refused (400) until it
  is set.
- Mailgun: also its HMAC-SHA256 signature of the posted timestamp and token, with
  MAILGUN_WEBHOOK_SIGNING_KEY, which anymail verifies; requests are refused while the key is
  unset. Anymail does not check how old the timestamp is: a replayed request carries a
  message already stored, which `receive()` ignores (same Message-ID).
- Amazon SES: also the SNS message signature, verified here (anymail does not): RSA with
  SHA1 (SignatureVersion 1) or SHA256 (2) over the canonical string of the message, with the
  certificate at SigningCertURL, accepted only from https://sns.<region>.amazonaws.com/….pem,
  fetched once and kept in the cache. A SubscriptionConfirmation (signed too) is not
  confirmed from here: its SubscribeURL is logged for a person to visit.
- Postmark and SendGrid do not sign their inbound posts: basic auth over HTTPS is the
  protection they document (and anymail relies on), so the secret is all there is: keep it
  long and random, and the URL https.
- The other providers whose inbound URLs include("anymail.urls") serves (Mailjet, Brevo…):
  anymail's views unchanged, but their messages are refused while no secret is set.

A malformed payload is refused with a 400, never a 500 (which providers retry); content over
INBOUND_MAX_BYTES, or a request body over Django's DATA_UPLOAD_MAX_MEMORY_SIZE, is ignored
with a log line and a 200, so that the provider does not retry it.
"""

import base64
import binascii
import hashlib
import json
import logging
import re
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from email.parser import BytesHeaderParser
from email.policy import compat32
from urllib.error import HTTPError, URLError
from urllib.parse import urlsplit

from anymail.exceptions import AnymailImproperlyInstalled, AnymailWebhookValidationFailure
from anymail.signals import inbound
from anymail.utils import get_anymail_setting
from anymail.webhooks.amazon_ses import AmazonSESInboundWebhookView
from anymail.webhooks.base import AnymailBaseWebhookView, AnymailBasicAuthMixin
from anymail.webhooks.mailgun import MailgunInboundWebhookView
from anymail.webhooks.postmark import PostmarkInboundWebhookView
from anymail.webhooks.sendgrid import SendGridInboundWebhookView
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured, RequestDataTooBig, SuspiciousOperation
from django.dispatch import receiver
from django.http import HttpResponse
from django.urls import path, re_path

from mailplay.inbound import receive
from mailplay.models import InboundMessage

logger = logging.getLogger(__name__)

SOURCES = {
    "Mailgun": InboundMessage.Source.MAILGUN,
    "Postmark": InboundMessage.Source.POSTMARK,
    "SendGrid": InboundMessage.Source.SENDGRID,
    "Amazon SES": InboundMessage.Source.AMAZON_SES,
}


def webhook_secret_is_set() -> bool:
    """Whether the shared secret is configured (read as anymail's views read it)."""
    return bool(get_anymail_setting("webhook_secret", default=None))


def _refuse_without_secret(esp_name: str) -> None:
    if not webhook_secret_is_set():
        logger.error(
            "%s inbound webhook refused: set ANYMAIL_WEBHOOK_SECRET (and give the provider "
            "the URL with it as basic auth) to receive replies from a provider",
            esp_name,
        )
        raise AnymailWebhookValidationFailure(
            f"Anymail {esp_name} inbound webhook refused: no WEBHOOK_SECRET is configured"
        )


# --- The receiver: every inbound message of every anymail view ends here ----------------


@receiver(inbound, dispatch_uid="mailplay.webhooks.store_inbound")
def store_inbound(sender, event, esp_name: str, **kwargs) -> None:
    """Store one message that a provider posted, for processing (mailplay.inbound)."""
    # The secret is checked again here, not only in this module's views: include("anymail.
    # urls") also serves the inbound URLs of a dozen other providers (Mailjet, Brevo, …)
    # whose views anymail runs unchanged, and each of them sends its messages through this
    # signal. Refusing here (anymail's 400) is the one place none of them can go around.
    _refuse_without_secret(esp_name)
    message = event.message
    try:
        raw = _raw_message(event, esp_name)
    except (ValueError, TypeError, LookupError, AttributeError) as error:
        raise AnymailWebhookValidationFailure(
            f"Unreadable {esp_name} inbound message ({type(error).__name__})"
        ) from error
    receive(
        raw,
        SOURCES.get(esp_name, InboundMessage.Source.OTHER),
        _recipients(event, esp_name),
        _sender(message),
        provider_verdicts(event, esp_name, raw),
    )


def provider_verdicts(event, esp_name: str, raw: bytes) -> dict[str, str]:
    """What the provider says of the sender's authentication, in its own field names, with
    the envelope sender (for SPF's alignment): read by mailplay/sender_authentication.py.
    Each value comes from the provider's payload, or from a header the provider writes
    above the message's own (the first of that name): never from anything lower, which the
    sender wrote."""
    esp_event = event.esp_event
    found: dict[str, object] = {}
    if esp_name == "Amazon SES":  # the receipt's verdicts, and mail.source (MAIL FROM)
        receipt = esp_event.get("receipt") or {}
        for name in ("spfVerdict", "dkimVerdict", "dmarcVerdict"):
            verdict = receipt.get(name)
            found[name] = verdict.get("status") if isinstance(verdict, dict) else None
        found["envelope_from"] = (esp_event.get("mail") or {}).get("source")
    elif esp_name == "Mailgun":  # headers Mailgun inserts at the top; sender is MAIL FROM
        for name in ("X-Mailgun-Spf", "X-Mailgun-Dkim-Check-Result"):
            found[name] = _first_header(esp_event.POST.get("message-headers"), raw, name)
        found["envelope_from"] = esp_event.POST.get("sender")
    elif esp_name == "SendGrid":  # its own fields; envelope is JSON with the MAIL FROM
        found["dkim"] = esp_event.POST.get("dkim")
        found["SPF"] = esp_event.POST.get("SPF")
        with suppress(ValueError, AttributeError):
            found["envelope_from"] = json.loads(esp_event.POST.get("envelope") or "{}").get("from")
    elif esp_name == "Postmark":  # the Received-SPF header Postmark adds (the first)
        headers = esp_event.get("Headers") or []
        found["Received-SPF"] = next(
            (
                header.get("Value")
                for header in headers
                if isinstance(header, dict) and str(header.get("Name")).lower() == "received-spf"
            ),
            None,
        )
    return {name: value for name, value in found.items() if isinstance(value, str)}


def _first_header(headers_json, raw: bytes, name: str) -> str | None:
    """The first `name` header in Mailgun's message-headers (a JSON list of [name, value],
    in the message's order), else in the raw message."""
    try:
        pairs = json.loads(headers_json) if headers_json else None
    except ValueError:
        pairs = None
    if isinstance(pairs, list):
        for pair in pairs:
            if isinstance(pair, list) and len(pair) == 2 and str(pair[0]).lower() == name.lower():
                return str(pair[1])
        return None
    value = BytesHeaderParser(policy=compat32).parsebytes(raw).get(name)
    return str(value) if value is not None else None


def _as_bytes(text: str) -> bytes:
    # A form field or JSON string holds the message's text as decoded by the provider (and
    # Django): 7-bit in almost every reply. "replace", because a JSON string may carry a
    # lone surrogate that UTF-8 cannot encode.
    return text.encode("utf-8", "replace")


def _raw_message(event, esp_name: str) -> bytes:
    """The message as the provider received it when the payload has it, else as anymail
    rebuilt it from the parsed fields."""
    esp_event = event.esp_event
    raw = None
    if esp_name == "Mailgun":  # esp_event: the request ("forward to URL" with "mime")
        raw = esp_event.POST.get("body-mime")
    elif esp_name == "SendGrid":  # esp_event: the request ("Send Raw" on)
        raw = esp_event.POST.get("email")
    elif esp_name == "Postmark":  # esp_event: the JSON ("include raw email content" on)
        raw = esp_event.get("RawEmail")
    elif esp_name == "Amazon SES":  # esp_event: the SES notification (SNS action)
        content = esp_event.get("content")
        encoding = esp_event.get("receipt", {}).get("action", {}).get("encoding")
        if isinstance(content, str) and encoding == "BASE64":
            return base64.b64decode(content.encode("ascii"))
        raw = content
    if isinstance(raw, str) and raw:
        return _as_bytes(raw)
    return event.message.as_bytes()


def _recipients(event, esp_name: str) -> list[str]:
    """The envelope recipient(s) when the provider gives them, else the To and Cc."""
    message = event.message
    if esp_name == "Amazon SES":
        # Every recipient the receipt rule matched (anymail keeps only the first).
        matched = event.esp_event.get("receipt", {}).get("recipients")
        if isinstance(matched, list) and matched:
            return [str(address) for address in matched]
    if message.envelope_recipient:
        return [str(message.envelope_recipient)]
    try:
        return [address.addr_spec for address in message.to + message.cc]
    except ValueError:  # an unparsable header: no recipient, ignored with a log line
        return []


def _sender(message) -> str:
    """The envelope sender, else the From address."""
    if message.envelope_sender:
        return str(message.envelope_sender)
    try:
        from_email = message.from_email
    except ValueError:
        return ""
    if isinstance(from_email, list):  # several From addresses
        from_email = from_email[0]
    return from_email.addr_spec if from_email is not None else ""


# --- The views: anymail's, refusing what they would let through -------------------------


class SigningCertificateUnavailable(Exception):
    """The SNS signing certificate could not be fetched now (network, timeout): answered
    503, so that SNS tries again later."""


@contextmanager
def _malformed_payload_refused(esp_name: str) -> Iterator[None]:
    """A payload anymail cannot read raises whatever its parsing meets (KeyError,
    JSONDecodeError, AnymailAPIError…), which Django answers with a 500, and providers retry
    a 500 for hours: a 400 instead. Configuration errors (ImproperlyConfigured: a tracking
    webhook pointed at the inbound URL, boto3 missing for an S3 action), refusals, and a
    body too big pass through unchanged."""
    try:
        yield
    except (ImproperlyConfigured, SuspiciousOperation, SigningCertificateUnavailable):
        raise
    except Exception as error:
        raise AnymailWebhookValidationFailure(
            f"Malformed {esp_name} inbound webhook payload ({type(error).__name__}: {error})"
        ) from error


class ProtectedInboundMixin:
    """Before anymail's own checks: the secret must be configured, then the request's basic
    auth must match it, so that nothing of an unauthenticated request's body is read."""

    def check_configuration(self) -> None:
        _refuse_without_secret(self.esp_name)

    def run_validators(self, request) -> None:
        self.check_configuration()
        # Anymail calls every validate_request() of the class chain itself, the most derived
        # first (and the SES one parses the body), so the basic auth is checked first here.
        AnymailBasicAuthMixin.validate_request(self, request)
        with _malformed_payload_refused(self.esp_name):
            super().run_validators(request)

    def parse_events(self, request):
        with _malformed_payload_refused(self.esp_name):
            return super().parse_events(request)

    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        except RequestDataTooBig:
            # Reached only once the basic auth has passed: a message far over
            # INBOUND_MAX_BYTES would be ignored anyway; a 200 so the provider does not retry.
            logger.warning(
                "%s inbound message ignored: the request is over DATA_UPLOAD_MAX_MEMORY_SIZE",
                self.esp_name,
            )
            return HttpResponse()


class MailgunInboundView(ProtectedInboundMixin, MailgunInboundWebhookView):
    def __init__(self, **kwargs):
        # With MAILGUN_WEBHOOK_SIGNING_KEY unset the setting is None, on which anymail's
        # __init__ fails (None.encode) with a 500 on every request: an empty key instead,
        # which check_configuration() refuses before anything else (an empty HMAC key must
        # never be used to check a signature).
        key = get_anymail_setting(
            "webhook_signing_key", esp_name=self.esp_name, kwargs=dict(kwargs), default=None
        )
        if not key:
            kwargs["webhook_signing_key"] = ""
        super().__init__(**kwargs)

    def check_configuration(self) -> None:
        super().check_configuration()
        if not self.webhook_signing_key:
            logger.error("Mailgun inbound webhook refused: set MAILGUN_WEBHOOK_SIGNING_KEY")
            raise AnymailWebhookValidationFailure(
                "Anymail Mailgun inbound webhook refused: no WEBHOOK_SIGNING_KEY is configured"
            )


class PostmarkInboundView(ProtectedInboundMixin, PostmarkInboundWebhookView):
    pass


class SendGridInboundView(ProtectedInboundMixin, SendGridInboundWebhookView):
    pass


class AmazonSESInboundView(ProtectedInboundMixin, AmazonSESInboundWebhookView):
    """Anymail's SES inbound view, with the SNS signature verified, no boto3, and a
    subscription confirmed by a person, not automatically."""

    def __init__(self, **kwargs):
        try:
            super().__init__(**kwargs)
        except AnymailImproperlyInstalled:
            # Without boto3 (not a dependency of this site) anymail's SES views fail here on
            # every request. boto3 serves only S3 receipt actions and the automatic
            # subscription confirmation; the SNS action, which carries the message in the
            # notification, needs neither.
            self.session_params, self.client_params = {}, {}
            AnymailBaseWebhookView.__init__(self, **kwargs)

    def validate_request(self, request) -> None:
        super().validate_request(request)  # anymail's: the SNS headers match the body
        verify_sns_signature(self._parse_sns_message(request))

    def auto_confirm_sns_subscription(self, sns_message) -> None:
        # Reached with the basic auth and the SNS signature verified. Not fetched from here:
        # a person confirms the topic they meant to subscribe.
        logger.warning(
            "Amazon SNS asks to confirm the subscription of topic %s to the SES inbound "
            "webhook: if this is your topic, confirm it by visiting this SubscribeURL: %s",
            sns_message.get("TopicArn"),
            sns_message.get("SubscribeURL"),
        )

    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        except SigningCertificateUnavailable as error:
            logger.error("Amazon SES inbound notification not verified yet: %s", error)
            return HttpResponse("signing certificate unavailable, try again", status=503)


urlpatterns = [
    # Mailgun posts the raw MIME when the URL contains "mime" (as anymail's own URLs).
    re_path(r"^mailgun/inbound(_mime)?/$", MailgunInboundView.as_view()),
    path("postmark/inbound/", PostmarkInboundView.as_view()),
    path("sendgrid/inbound/", SendGridInboundView.as_view()),
    path("amazon_ses/inbound/", AmazonSESInboundView.as_view()),
]


# --- The SNS message signature ------------------------------------------------------------
# https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html

SNS_CERTIFICATE_HOST = re.compile(r"sns\.[a-z0-9-]+\.amazonaws\.com")
SNS_CERTIFICATE_PATH = re.compile(r"(/[A-Za-z0-9._-]+)+\.pem")
CERTIFICATE_FETCH_TIMEOUT = 5  # seconds; SNS waits 15 s for the answer
CERTIFICATE_CACHE_SECONDS = 24 * 3600  # a new certificate comes with a new URL
MAX_CERTIFICATE_BYTES = 64 * 1024
# The fields signed, in this order, each as "name\nvalue\n"; Subject only when present.
SIGNED_FIELDS = {
    "Notification": ("Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"),
    "SubscriptionConfirmation": (
        "Message",
        "MessageId",
        "SubscribeURL",
        "Timestamp",
        "Token",
        "TopicArn",
        "Type",
    ),
}
SIGNED_FIELDS["UnsubscribeConfirmation"] = SIGNED_FIELDS["SubscriptionConfirmation"]
SIGNATURE_HASHES = {"1": hashes.SHA1, "2": hashes.SHA256}


def _refuse(why: str) -> AnymailWebhookValidationFailure:
    return AnymailWebhookValidationFailure(f"Amazon SNS message refused: {why}")


def sns_string_to_sign(sns_message: dict) -> bytes:
    fields = SIGNED_FIELDS.get(sns_message.get("Type"))
    if fields is None:
        raise _refuse(f"unknown Type {sns_message.get('Type')!r}")
    lines = []
    for name in fields:
        value = sns_message.get(name)
        if value is None and name == "Subject":
            continue
        if not isinstance(value, str):
            raise _refuse(f"no {name}")
        lines.append(f"{name}\n{value}\n")
    return "".join(lines).encode("utf-8", "surrogatepass")


def verify_sns_signature(sns_message) -> None:
    """Raise AnymailWebhookValidationFailure unless Amazon SNS signed this message."""
    if not isinstance(sns_message, dict):
        raise _refuse("not a JSON object")
    algorithm = SIGNATURE_HASHES.get(sns_message.get("SignatureVersion"))
    if algorithm is None:
        raise _refuse(f"unknown SignatureVersion {sns_message.get('SignatureVersion')!r}")
    try:
        signature = base64.b64decode(sns_message.get("Signature") or "", validate=True)
    except (binascii.Error, ValueError, TypeError) as error:
        raise _refuse("the Signature is not base64") from error
    signed = sns_string_to_sign(sns_message)
    public_key = signing_certificate(sns_message.get("SigningCertURL")).public_key()
    if not isinstance(public_key, rsa.RSAPublicKey):
        raise _refuse("the signing certificate's key is not RSA")
    try:
        public_key.verify(signature, signed, padding.PKCS1v15(), algorithm())
    except InvalidSignature as error:
        raise _refuse("bad signature") from error


def check_certificate_url(url) -> None:
    """Only Amazon SNS's own certificates: https://sns.<region>.amazonaws.com/….pem, no
    port, no credentials, no query."""
    if not isinstance(url, str):
        raise _refuse("no SigningCertURL")
    try:
        parts = urlsplit(url)
    except ValueError as error:
        raise _refuse("unparsable SigningCertURL") from error
    if not (
        parts.scheme == "https"
        and SNS_CERTIFICATE_HOST.fullmatch(parts.netloc)
        and SNS_CERTIFICATE_PATH.fullmatch(parts.path)
        and not parts.query
        and not parts.fragment
    ):
        raise _refuse(f"SigningCertURL {url!r} is not an Amazon SNS certificate")


def certificate_cache_key(url: str) -> str:
    return "mailplay:sns-signing-certificate:" + hashlib.sha256(url.encode()).hexdigest()


def signing_certificate(url) -> x509.Certificate:
    """The certificate at an SNS SigningCertURL: from the cache, else fetched (and cached
    once it parses)."""
    check_certificate_url(url)
    key = certificate_cache_key(url)
    pem = cache.get(key)
    fetched = pem is None
    if fetched:
        pem = _fetch_certificate(url)
    try:
        certificate = x509.load_pem_x509_certificate(pem)
    except (ValueError, TypeError) as error:
        raise _refuse(f"no certificate at {url}") from error
    if fetched:
        cache.set(key, pem, CERTIFICATE_CACHE_SECONDS)
    return certificate


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is answered as an HTTPError: only the URL checked counts


def _fetch_certificate(url: str) -> bytes:
    opener = urllib.request.build_opener(_NoRedirects)
    try:
        with opener.open(url, timeout=CERTIFICATE_FETCH_TIMEOUT) as response:
            pem = response.read(MAX_CERTIFICATE_BYTES + 1)
    except HTTPError as error:  # Amazon answered: there is no such certificate
        raise _refuse(f"{url} answered {error.code}") from error
    except (URLError, OSError) as error:  # unreachable, timed out: maybe later
        raise SigningCertificateUnavailable(f"fetching {url} failed: {error}") from error
    if len(pem) > MAX_CERTIFICATE_BYTES:
        raise _refuse(f"{url} is too long for a certificate")
    return pem
