"""Show every datetime in the viewer's own time zone (a preference on their profile)."""

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

UTC = zoneinfo.ZoneInfo("UTC")


def zone_named(name: str) -> zoneinfo.ZoneInfo:
    """The zone called `name`, or UTC if there is none by that name.

    The profile form only offers real zones, but the tz database drops and renames
    zones over the years: an old name must not break every page for its owner.
    """
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # ValueError: "../x", "/x"
        return UTC


def user_time_zone_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Activate the logged-in user's time zone while their request is handled.
    Must come after AuthenticationMiddleware, which sets request.user."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if not request.user.is_authenticated:
            return get_response(request)
        # override(), not activate(): the zone is undone when the request ends, so the
        # next request on this thread does not inherit it.
        with timezone.override(zone_named(request.user.time_zone)):
            return get_response(request)

    return middleware
