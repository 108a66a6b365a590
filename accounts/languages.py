"""The language a person reads (issue 29): their profile's once they have an account, the
browser's (Accept-Language, or the footer's switch, kept in a cookie) before. English is the
default: a request that names no language of settings.LANGUAGES gets the English site."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

CODES = tuple(code for code, _name in settings.LANGUAGES)


def supported(language: str | None) -> str:
    """One of settings.LANGUAGES: "de-AT" is German; an unknown language (or none) English."""
    base = (language or "").lower().replace("_", "-").split("-")[0]
    return base if base in CODES else settings.LANGUAGE_CODE


def browser_language(request: HttpRequest) -> str:
    """The language of the footer's switch (a cookie) or else the browser's Accept-Language,
    among the site's; English if neither names one."""
    return supported(translation.get_language_from_request(request))


# A link may name the language of the page it opens ("?lang=fr"): an invitation written in
# the inviter's language offers its reader the page in theirs.
LINK_PARAMETER = "lang"

# Each language's name for itself, as a link to it reads: "Auf Deutsch", whatever the rest.
IN_LANGUAGE = {"en": "In English", "de": "Auf Deutsch", "fr": "En français"}


def linked_language(request: HttpRequest) -> str | None:
    asked = request.GET.get(LINK_PARAMETER)
    return supported(asked) if asked and supported(asked) == asked.lower() else None


def person_language(request: HttpRequest) -> str:
    linked = linked_language(request)
    if linked:
        return linked
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return supported(user.language)
    return browser_language(request)


def language_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Activate the person's language while their request is handled (Django's
    LocaleMiddleware reads only the browser; a logged-in person's is on their profile).
    Must come after AuthenticationMiddleware, which sets request.user."""

    def middleware(request: HttpRequest) -> HttpResponse:
        language = person_language(request)
        request.LANGUAGE_CODE = language
        # override(), not activate(): the next request on this thread starts from English.
        with translation.override(language):
            response = get_response(request)
        # A page for an anonymous visitor depends on their browser's languages.
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", language)
        if linked_language(request) and not request.user.is_authenticated:
            # The visitor followed a link in their language: keep it for the pages after
            # (the sign-up takes it too). A person with an account has theirs on the profile.
            _remember(response, language, request.is_secure())
        return response

    return middleware


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The footer's switch: the language chosen, on the profile of a logged-in person and in
    a cookie (for the pages before logging in, and after logging out); back to the page."""
    language = supported(request.POST.get("language"))
    user = request.user
    if user.is_authenticated and not getattr(request, "scoped_pass", None):
        user.language = language
        user.save(update_fields=["language"])
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    _remember(response, language, request.is_secure())
    return response


def _remember(response: HttpResponse, language: str, secure: bool) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=365 * 24 * 3600,
        samesite="Lax",
        secure=secure,
        httponly=True,
    )
