"""Scoped links: a link in an email that opens one part of the site (a path prefix, such as
"/games/12/") for one person, and nothing else.

Such a link never logs in. Its view checks the signed token and leaves a *pass* in the
session; `scoped_pass_middleware` then shows the pass's owner as `request.user` on the
pages under its prefix, to a visitor who is not logged in, and only there: every other
page sees an anonymous visitor and asks for a real login. So a forwarded email, a mail
client's preview or a shared screen gives at most that one part of the site, for as long
as the link lives, and never the profile (where the email address could be changed).

A token signs the user, the prefix, the path to open, a fingerprint of the password hash
and the email address, and when it was made. It works for `SCOPED_LINK_MAX_AGE` from then,
as often as it is clicked; it dies early with a password or email change, and refuses an
inactive or suspended user. The pass is the token itself, checked again on every request,
so it lives exactly as long as the link, and dies with the session (log out) or a real
login. The caller (games) decides the prefix: this module knows nothing of games.

Under its prefix a pass opens only the views marked with `allow_with_pass` (games/urls.py
keeps that allow-list in one place), for the methods named there. Any other request
under the prefix, such as a form that would speak or vote as the player, is answered with
the login page, coming back to the page it was sent from, before any view runs: so a new
address is refused to a pass until someone decides it may be opened.
"""

import posixpath
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render, resolve_url
from django.urls import Resolver404, resolve, reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User

SALT = "accounts.scoped"
# A game email's link opens the game for a week: long enough for a slow turn, and a
# reader of a forwarded email can at most move in that one game during that time.
SCOPED_LINK_MAX_AGE = 60 * 60 * 24 * 7
# The session key of the passes: {"user": id, "tokens": {prefix: token}}.
PASSES = "accounts.scoped_passes"
# Passes one session may hold (one person, one per prefix: a digest's games).
MAX_PASSES = 20


# The attribute `allow_with_pass` sets on a view: the methods a pass may use there.
PASS_METHODS = "scoped_pass_methods"


def allow_with_pass(view, *methods: str):
    """Mark `view` as open to a pass's holder for `methods` (GET brings HEAD). An attribute
    on the view itself, not a wrapper, so that async views (the push stream) stay async."""
    allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())
    setattr(view, PASS_METHODS, frozenset(allowed))
    return view


@dataclass(frozen=True)
class ScopedPass:
    user: User
    prefix: str  # the pages it opens: every path that starts with it
    next_path: str  # where the link leads, under the prefix


@dataclass(frozen=True)
class CheckedToken:
    granted: ScopedPass | None  # when the token is genuine, fresh and its user may use it
    next_path: str = ""  # where a genuine token leads, even when refused
    expired: bool = False


def _fingerprint(user: User) -> str:
    """Changes with the password (hash) or the email address, so either kills every link."""
    value = f"{user.password}\x00{user.email.lower()}"
    return salted_hmac(SALT, value, algorithm="sha256").hexdigest()[:16]


def _is_clean_path(path: str) -> bool:
    """An absolute local path with no "//", "." or ".." segment to climb out of a prefix."""
    if not (path.startswith("/") and url_has_allowed_host_and_scheme(path, allowed_hosts=set())):
        return False
    inner = path.rstrip("/") or "/"
    return posixpath.normpath(inner) == inner


def covers(prefix: str, path: str) -> bool:
    """Whether a pass for `prefix` opens `path`: whole segments only ("/games/12/" does
    not open "/games/123/"), and no way round it with "..", "." or "//"."""
    return prefix.endswith("/") and path.startswith(prefix) and _is_clean_path(path)


def scoped_token(user: User, prefix: str, next_path: str | None = None) -> str:
    """A signed token that opens the pages under `prefix` for `user` (see the module)."""
    next_path = next_path or prefix
    if not (len(prefix) > 1 and prefix.endswith("/") and _is_clean_path(prefix)):
        raise ValueError(f"prefix must be a local path ending with '/', not {prefix!r}")
    if not covers(prefix, next_path.split("?")[0]):
        raise ValueError(f"next_path {next_path!r} is not under {prefix!r}")
    payload = {"u": user.pk, "p": prefix, "f": _fingerprint(user)}
    if next_path != prefix:
        payload["n"] = next_path
    return signing.dumps(payload, salt=SALT)


def scoped_url(user: User, prefix: str, next_path: str | None = None) -> str:
    """The absolute URL of a link that opens `next_path` (default: `prefix`) for `user`."""
    token = scoped_token(user, prefix, next_path)
    return settings.SITE_URL + reverse("accounts:scoped_link", args=[token])


def _payload(token: str, max_age: int | None) -> dict | None:
    data = signing.loads(token, salt=SALT, max_age=max_age)
    if not (
        isinstance(data, dict)
        and isinstance(data.get("u"), int)
        and isinstance(data.get("p"), str)
        and isinstance(data.get("f"), str)
    ):
        return None
    return data


def check_token(token: str) -> CheckedToken:
    """What a token is worth now; never raises on bad input."""
    try:
        data = _payload(token, SCOPED_LINK_MAX_AGE)
    except signing.SignatureExpired:
        try:
            data = _payload(token, None)
        except signing.BadSignature:  # pragma: no cover - it was genuine a moment ago
            return CheckedToken(granted=None)
        next_path = data.get("n", data["p"]) if data else ""
        return CheckedToken(granted=None, next_path=next_path, expired=True)
    except signing.BadSignature:
        return CheckedToken(granted=None)
    if data is None:
        return CheckedToken(granted=None)
    prefix, next_path = data["p"], data.get("n", data["p"])
    if not (isinstance(next_path, str) and covers(prefix, next_path.split("?")[0])):
        return CheckedToken(granted=None)
    user = User.objects.filter(pk=data["u"]).first()
    if (
        user is None
        or not user.is_active
        or user.is_suspended()
        or not constant_time_compare(data["f"], _fingerprint(user))
    ):
        return CheckedToken(granted=None, next_path=next_path)
    return CheckedToken(granted=ScopedPass(user=user, prefix=prefix, next_path=next_path))


def _grant(request: HttpRequest, token: str, granted: ScopedPass) -> None:
    """Keep the pass in the session: one person per session, one pass per prefix."""
    held = request.session.get(PASSES)
    if not held or held.get("user") != granted.user.pk:
        held = {"user": granted.user.pk, "tokens": {}}
    tokens = {p: t for p, t in held["tokens"].items() if p != granted.prefix}
    tokens[granted.prefix] = token
    held["tokens"] = dict(list(tokens.items())[-MAX_PASSES:])
    # A new session key, as login() does: a session planted by someone else (fixation)
    # must not be the one that gains the pass.
    request.session.cycle_key()
    request.session[PASSES] = held


def _login_url(next_path: str) -> str:
    """The login page, coming back to `next_path` (quoted as login_required quotes it)."""
    url = resolve_url(settings.LOGIN_URL)
    if not next_path:
        return url
    query = QueryDict(mutable=True)
    query["next"] = next_path
    return f"{url}?{query.urlencode(safe='/')}"


@require_GET
def open_scoped_link(request: HttpRequest, token: str) -> HttpResponse:
    """A scoped link from an email: leave a pass in the session and open the page."""
    checked = check_token(token)
    granted = checked.granted
    if granted is None:
        # Expired, broken or no longer valid: a friendly page offering to log in.
        context = {"expired": checked.expired, "login_url": _login_url(checked.next_path)}
        return render(request, "accounts/scoped_link_invalid.html", context)
    if request.user.is_authenticated and getattr(request, "scoped_pass", None) is None:
        # Logged in for real: never act as someone else inside this person's session.
        if request.user.pk == granted.user.pk:
            return redirect(granted.next_path)
        messages.warning(
            request,
            _(
                "This link was sent to another account. You are logged in as %(name)s: log "
                "out, then open the link again to use it."
            )
            % {"name": request.user.display_name},
        )
        return redirect(settings.LOGIN_REDIRECT_URL)
    _grant(request, token, granted)
    return redirect(granted.next_path)


def _pass_for(request: HttpRequest, held: dict) -> ScopedPass | None:
    """The valid pass that opens this request's path, dropping one that has died."""
    tokens = held.get("tokens") or {}
    for prefix, token in tokens.items():
        if not covers(prefix, request.path):
            continue
        granted = check_token(token).granted
        if granted is not None and granted.user.pk == held.get("user"):
            return granted
        # Expired, or the password changed, or the user was suspended: it never comes back.
        remaining = {p: t for p, t in tokens.items() if p != prefix}
        if remaining:
            request.session[PASSES] = {**held, "tokens": remaining}
        else:
            del request.session[PASSES]
        return None
    return None


def _pass_allows(request: HttpRequest) -> bool:
    """Whether the view this request goes to is marked open to a pass for its method."""
    try:
        match = resolve(request.path_info, getattr(request, "urlconf", None))
    except Resolver404:
        return False
    return request.method in getattr(match.func, PASS_METHODS, ())


def _page_sent_from(request: HttpRequest, granted: ScopedPass) -> str:
    """The page a refused request came from, to come back to after logging in: the page
    itself for a GET, else the page that sent the form (HTMX says which; a plain form has
    its Referer) when it is one the pass opens on this site, else the pass's first page."""
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    sender = request.headers.get("HX-Current-URL") or request.headers.get("Referer") or ""
    if url_has_allowed_host_and_scheme(sender, allowed_hosts={request.get_host()}):
        parts = urlsplit(sender)
        if covers(granted.prefix, parts.path):
            return parts.path + (f"?{parts.query}" if parts.query else "")
    return granted.prefix


def _ask_for_login(request: HttpRequest, granted: ScopedPass) -> HttpResponse:
    """A request the pass does not open: nothing done, the login page offered instead."""
    url = _login_url(_page_sent_from(request, granted))
    if request.headers.get("HX-Request") == "true":
        return HttpResponseClientRedirect(url)  # (htmx would swap a 302's page in place)
    return redirect(url)


def scoped_pass_middleware(get_response):
    """Shows a pass's owner as `request.user` on the pages its prefix covers, to a visitor
    who is not logged in, with `request.scoped_pass` set (the header reads it to say "not
    logged in" rather than offer "Log out"). Goes after AuthenticationMiddleware.
    A real login replaces every pass."""

    def middleware(request: HttpRequest) -> HttpResponse:
        request.scoped_pass = None
        held = request.session.get(PASSES)
        if held:
            if request.user.is_authenticated:
                del request.session[PASSES]
            elif request.method == "POST" and request.path == reverse("account_logout"):
                # A log-out posted with a pass (from a tab left open since a real login) must
                # end it too; allauth's log-out does nothing for a visitor not logged in.
                request.session.flush()
            else:
                granted = _pass_for(request, held)
                if granted is not None and not _pass_allows(request):
                    return _ask_for_login(request, granted)
                if granted is not None:
                    request.scoped_pass = granted
                    request.user = granted.user

                    async def auser() -> User:
                        return granted.user

                    request.auser = auser
        return get_response(request)

    return middleware
