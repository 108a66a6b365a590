"""Whether a reply really comes from its From's mail domain.

Anyone can write any From: a reply moves only when something that cannot be forged by its
writer vouches for the From's domain (INBOUND_SENDER_CHECK = "authenticated", the default).
Any one of these is enough, each aligned with the From's domain as DMARC aligns (the same
organisational domain, from the public suffix list):

1. a DKIM signature of the message, verified here (dkimpy), whose d= aligns with the From,
   that covers the From header and the whole body (a signature with l= is not taken: text
   could be appended below the part it covers);
2. the verdicts of the provider that received the message (its webhook's own fields, stored
   with the message by mailplay/webhooks.py; see `provider_evidence`);
3. an Authentication-Results header (RFC 8601) of a mail server this site trusts
   (INBOUND_TRUSTED_AUTHSERV_IDS): dmarc=pass for the From's domain, or dkim=pass with an
   aligned header.d. Only the Authentication-Results headers above the first one of
   another server count: a trusted server adds its own at the top and removes copies of its
   id from below (RFC 8601, section 5), so a copy written by the sender is never read.

"from-only" takes the From as it is: for development only (dev.py run sets it, and
/dev/mail/ says so), where replies come from the page's reply box.

A DNS look-up that times out when nothing else vouches raises VerificationUnavailable: the
message is processed again later (its outbox row is retried), never refused for a network
hiccup.
"""

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from functools import cache

import authres
import dkim
from django.conf import settings
from dkim.util import InvalidTagValueList, parse_tag_value
from publicsuffixlist import PublicSuffixList

from mailplay.models import InboundMessage

logger = logging.getLogger(__name__)

AUTHENTICATED = "authenticated"
FROM_ONLY = "from-only"
POLICIES = (AUTHENTICATED, FROM_ONLY)
DNS_TIMEOUT_SECONDS = 5


class VerificationUnavailable(Exception):
    """A DNS look-up timed out and nothing else vouched for the sender: try again later."""


@dataclass(frozen=True)
class Verdict:
    authenticated: bool
    how: str  # in words, for the log and the admin


def txt_record(name: bytes, timeout: float = DNS_TIMEOUT_SECONDS) -> bytes | None:
    """A DKIM key's TXT record from DNS (tests replace this: they never use the network)."""
    return dkim.dnsplug.get_txt(name, timeout=timeout)


@cache
def _public_suffixes() -> PublicSuffixList:
    return PublicSuffixList()  # the list shipped with the package: no download


def organisational_domain(domain: str) -> str | None:
    domain = domain.strip().strip(".").lower()
    return _public_suffixes().privatesuffix(domain) if domain else None


def aligned(domain: str | None, from_domain: str) -> bool:
    """DMARC's relaxed alignment: both under the same registrable domain."""
    if not domain:
        return False
    own = organisational_domain(from_domain)
    return own is not None and organisational_domain(domain) == own


def domain_of(address: str) -> str:
    return address.strip().strip("<>").rpartition("@")[2].lower()


def verdict(message: InboundMessage, content: EmailMessage, sender: str) -> Verdict:
    """Whether `sender` (the message's sole From address) is authenticated for its domain."""
    policy = settings.INBOUND_SENDER_CHECK
    if policy == FROM_ONLY:
        return Verdict(True, "From taken as written (INBOUND_SENDER_CHECK=from-only)")
    from_domain = domain_of(sender)
    raw = bytes(message.raw)
    signatures = dkim_signatures(raw)
    for evidence in (
        provider_evidence(message.source, message.provider_verdicts, from_domain, signatures),
        trusted_results_evidence(content, from_domain),
    ):
        if evidence:
            return Verdict(True, evidence)
    timed_out = []
    evidence = dkim_evidence(raw, from_domain, signatures, timed_out.append)
    if evidence:
        return Verdict(True, evidence)
    if timed_out:
        raise VerificationUnavailable(f"DNS timed out looking up {timed_out[0]}")
    return Verdict(False, f"nothing authenticates the sender's domain {from_domain}")


# --- 1. DKIM, verified here ---------------------------------------------------------------


@dataclass(frozen=True)
class Signature:
    index: int  # which DKIM-Signature header, from the top (dkimpy's idx)
    domain: str
    tags: Mapping[bytes, bytes]


def dkim_signatures(raw: bytes) -> list[Signature]:
    """Every DKIM-Signature header of the message, with its tags (unreadable ones: no d=)."""
    try:
        headers, _body = dkim.rfc822_parse(raw)
    except Exception:
        return []
    values = [value for name, value in headers if name.lower() == b"dkim-signature"]
    found = []
    for index, value in enumerate(values):
        try:
            tags = parse_tag_value(value)
        except InvalidTagValueList:
            tags = {}
        domain = tags.get(b"d", b"").decode("ascii", "replace").lower()
        found.append(Signature(index, domain, tags))
    return found


def dkim_evidence(
    raw: bytes,
    from_domain: str,
    signatures: list[Signature],
    on_timeout: Callable[[str], None],
) -> str | None:
    for signature in signatures:
        if not aligned(signature.domain, from_domain) or b"l" in signature.tags:
            continue
        try:
            verified = dkim.DKIM(raw, timeout=DNS_TIMEOUT_SECONDS).verify(
                idx=signature.index, dnsfunc=_reporting_timeouts(on_timeout)
            )
        except dkim.DKIMException as error:
            logger.info("DKIM signature of %s not valid: %s", signature.domain, error)
            continue
        if verified:
            return f"DKIM signature of {signature.domain} verified"
    return None


def _reporting_timeouts(on_timeout: Callable[[str], None]):
    # dkimpy logs a DNS timeout and answers "not verified": the caller needs to know, to try
    # again later rather than refuse the player's reply.
    def lookup(name: bytes, timeout: float = DNS_TIMEOUT_SECONDS) -> bytes | None:
        try:
            return txt_record(name, timeout=timeout)
        except dkim.DnsTimeoutError:
            on_timeout(name.decode("ascii", "replace"))
            raise

    return lookup


# --- 2. The provider's verdicts ------------------------------------------------------------


def provider_evidence(
    source: str, verdicts: Mapping[str, str], from_domain: str, signatures: list[Signature]
) -> str | None:
    """What the receiving provider's own fields say (stored by mailplay/webhooks.py from the
    webhook's payload, never from the message's headers, which the sender writes)."""
    if not verdicts:
        return None
    # A provider's "DKIM passed" does not say which signature: it counts only when every
    # signature of the message is aligned, so the one that passed is.
    all_signatures_aligned = bool(signatures) and all(
        aligned(signature.domain, from_domain) for signature in signatures
    )
    envelope_aligned = aligned(domain_of(verdicts.get("envelope_from", "")), from_domain)
    if source == InboundMessage.Source.AMAZON_SES:
        if verdicts.get("dmarcVerdict") == "PASS":
            return "Amazon SES: dmarcVerdict PASS"
        if verdicts.get("dkimVerdict") == "PASS" and all_signatures_aligned:
            return "Amazon SES: dkimVerdict PASS, every signature aligned"
        if verdicts.get("spfVerdict") == "PASS" and envelope_aligned:
            return "Amazon SES: spfVerdict PASS for an aligned envelope sender"
    elif source == InboundMessage.Source.MAILGUN:
        if verdicts.get("X-Mailgun-Dkim-Check-Result") == "Pass" and all_signatures_aligned:
            return "Mailgun: X-Mailgun-Dkim-Check-Result Pass, every signature aligned"
        if verdicts.get("X-Mailgun-Spf") == "Pass" and envelope_aligned:
            return "Mailgun: X-Mailgun-Spf Pass for an aligned envelope sender"
    elif source == InboundMessage.Source.SENDGRID:
        passed = [d for d, result in sendgrid_dkim(verdicts.get("dkim", "")) if result == "pass"]
        signer = next((domain for domain in passed if aligned(domain, from_domain)), None)
        if signer:
            return f"SendGrid: dkim pass for {signer}"
        if verdicts.get("SPF", "").lower() == "pass" and envelope_aligned:
            return "SendGrid: SPF pass for an aligned envelope sender"
    elif source == InboundMessage.Source.POSTMARK:
        received_spf = verdicts.get("Received-SPF", "")
        envelope = re.search(r"envelope-from=\"?([^\s;\"]+)", received_spf)
        if (
            received_spf.lower().startswith("pass")
            and envelope
            and aligned(domain_of(envelope.group(1)), from_domain)
        ):
            return "Postmark: Received-SPF Pass for an aligned envelope sender"
    return None


def sendgrid_dkim(field: str) -> list[tuple[str, str]]:
    """SendGrid's dkim field, `{@example.org : pass, @other.example : fail}`: (domain,
    result) pairs."""
    return [
        (domain.lower(), result.lower())
        for domain, result in re.findall(r"@([A-Za-z0-9.-]+)\s*:\s*([A-Za-z]+)", field)
    ]


# --- 3. A trusted server's Authentication-Results -------------------------------------------


def trusted_results_evidence(content: EmailMessage, from_domain: str) -> str | None:
    trusted = {authserv_id.lower() for authserv_id in settings.INBOUND_TRUSTED_AUTHSERV_IDS}
    if not trusted:
        return None
    for value in content.get_all("Authentication-Results") or []:
        try:
            header = authres.AuthenticationResultsHeader.parse(f"Authentication-Results: {value}")
        except Exception:
            return None  # an unreadable header: nothing below it is read either
        if str(header.authserv_id).lower() not in trusted:
            return None  # the top of the message ends here: below, anyone could write
        for result in header.results:
            properties = {(p.type, p.name): str(p.value) for p in result.properties}
            header_from = properties.get(("header", "from"), "").lower()
            if result.method == "dmarc" and result.result == "pass" and header_from == from_domain:
                return f"{header.authserv_id}: dmarc=pass for {from_domain}"
            if result.method == "dkim" and result.result == "pass":
                signer = properties.get(("header", "d"), "")
                if aligned(signer, from_domain):
                    return f"{header.authserv_id}: dkim=pass for {signer}"
    return None
