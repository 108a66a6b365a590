"""Signed links that log a person in from an email (django-sesame tokens).

Every link goes through one view, `accounts:link`, and carries four query parameters:
the sesame token, a `scope` naming what kind of link it is ("login", "turn", …), how
long it lives (`max_age`, in seconds) and the local path to open (`next`). The scope,
the lifetime and the path are all part of what the token signs, so changing any of them
in the URL breaks the signature: a link opens only what it was made for, for as long
as it was made for, and a token made for another purpose (another scope) never works
here.
"""

import re
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.http import QueryDict
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from sesame import settings as sesame_settings
from sesame.utils import get_parameters, get_user

from accounts.models import User

LOGIN_LINK_SCOPE = "login"
LOGIN_LINK_MAX_AGE = 60 * 60  # a login link asked for on the site is used at once

SCOPE_PATTERN = re.compile(r"[a-z0-9_-]{1,32}")
# How old a genuine link may be and still be recognised as "expired" (rather than
# "broken") on the page that offers a fresh one.
RECOGNISE_EXPIRED_FOR = 60 * 60 * 24 * 365


def is_local_path(path: str) -> bool:
    """Whether `path` stays on this site: an absolute path, no scheme, no host."""
    return path.startswith("/") and url_has_allowed_host_and_scheme(path, allowed_hosts=set())


def _signed_scope(scope: str, max_age_seconds: int, next_path: str) -> str:
    return f"accounts.link:{scope}:{max_age_seconds}:{next_path}"


def login_url(
    user: User,
    next_path: str = "/",
    max_age_seconds: int = LOGIN_LINK_MAX_AGE,
    scope: str = LOGIN_LINK_SCOPE,
) -> str:
    """An absolute URL that logs `user` in and opens `next_path`, for `max_age_seconds`."""
    if not is_local_path(next_path):
        raise ValueError(f"next_path must be a path on this site, not {next_path!r}")
    if not 0 < max_age_seconds <= settings.SESAME_MAX_AGE:
        raise ValueError(f"max_age_seconds must be between 1 and {settings.SESAME_MAX_AGE}")
    if not SCOPE_PATTERN.fullmatch(scope):
        raise ValueError(f"scope must match {SCOPE_PATTERN.pattern}, not {scope!r}")

    token = get_parameters(user, scope=_signed_scope(scope, max_age_seconds, next_path))
    query = urlencode({"scope": scope, "max_age": max_age_seconds, "next": next_path, **token})
    return f"{settings.SITE_URL}{reverse('accounts:link')}?{query}"


@dataclass(frozen=True)
class CheckedLink:
    """What a link's query string turned out to be."""

    user: User | None  # the person the link logs in, when it is genuine and fresh
    next_path: str  # where the link leads; a local path, "" when it had none
    expired_for: User | None = None  # the owner of a genuine link that has expired


def check_link(query: QueryDict) -> CheckedLink:
    """Check a link's query string; never raises on bad input."""
    token = query.get(sesame_settings.TOKEN_NAME, "")
    scope = query.get("scope", "")
    next_path = query.get("next", "")
    if not is_local_path(next_path):
        next_path = ""
    try:
        max_age = int(query.get("max_age", ""))
    except ValueError:
        return CheckedLink(user=None, next_path=next_path)
    if not (token and SCOPE_PATTERN.fullmatch(scope)):
        return CheckedLink(user=None, next_path=next_path)
    if not 0 < max_age <= settings.SESAME_MAX_AGE:
        return CheckedLink(user=None, next_path=next_path)

    signed_scope = _signed_scope(scope, max_age, query.get("next", ""))
    user = get_user(token, scope=signed_scope, max_age=max_age, update_last_login=False)
    if user is not None:
        return CheckedLink(user=user, next_path=next_path)
    # Refused. If it passes with a long lifetime, it is one of ours that has expired:
    # the page can then say so and offer a fresh link to the same person.
    owner = get_user(
        token, scope=signed_scope, max_age=RECOGNISE_EXPIRED_FOR, update_last_login=False
    )
    return CheckedLink(user=None, next_path=next_path, expired_for=owner)
