"""DKIM for the tests: a key made here, replies signed with it, and DNS answered from it.

Every test of play by email runs with the production sender check ("authenticated"), so a
reply that should move is signed as the player's mail server would sign it, and the key is
"published" by a stub of the one DNS look-up the check makes (no network). A second key,
never published, stands for an attacker's."""

import base64
from collections.abc import Iterator
from functools import cache

import dkim
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from mailplay import sender_authentication

SELECTOR = b"test"
SIGNED_HEADERS = [b"from", b"to", b"subject", b"date", b"message-id"]


@cache
def private_key(name: str = "published") -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _pem(key: rsa.RSAPrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )


def key_record(key: rsa.RSAPrivateKey) -> bytes:
    """The TXT record publishing `key` (RFC 6376 section 3.6.1)."""
    public = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)


def sign(raw: bytes, domain: str, key: rsa.RSAPrivateKey | None = None, **options) -> bytes:
    """`raw` with a DKIM-Signature of `domain` prepended, as the domain's server adds it."""
    key = key or private_key()
    header = dkim.sign(
        raw,
        SELECTOR,
        domain.encode(),
        _pem(key),
        include_headers=[name for name in SIGNED_HEADERS if name in raw.lower()],
        **options,
    )
    return header + raw


class PublishedKeys:
    """The DNS as the tests see it: every domain publishes the published key at SELECTOR
    (an attacker can sign for their own domain too), unless `unreachable` is set."""

    def __init__(self):
        self.lookups: list[bytes] = []
        self.unreachable = False

    def __call__(self, name: bytes, timeout: float = 5) -> bytes | None:
        self.lookups.append(name)
        if self.unreachable:
            raise dkim.DnsTimeoutError(f"no answer for {name!r}")
        if name.startswith(SELECTOR + b"._domainkey."):
            return key_record(private_key())
        return None


def signed_by(raw: bytes, address: str, **options) -> bytes:
    """`raw` signed for the domain of `address`."""
    return sign(raw, address.rpartition("@")[2], **options)


@pytest.fixture(autouse=True)
def dkim_dns() -> Iterator[PublishedKeys]:
    """Autouse where imported: no test ever looks up DNS for real. Its own monkeypatch, so
    that a test undoing its own patches keeps this one."""
    published = PublishedKeys()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sender_authentication, "txt_record", published)
        yield published
