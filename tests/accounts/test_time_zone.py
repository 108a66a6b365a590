"""Pages show datetimes in the viewer's time zone (hanabi_site.middleware), through the
whole middleware stack of the settings, with a tiny page made for the test."""

from datetime import UTC, datetime

import pytest
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import path
from django.utils import timezone

from accounts.models import User

# 12:00 UTC is 21:00 in Tokyo (no daylight saving time) and 07:00 in New York in winter.
NOON_UTC = datetime(2025, 1, 15, 12, 0, tzinfo=UTC)


def show_a_datetime(request: HttpRequest) -> HttpResponse:
    template = engines["django"].from_string('{{ when|date:"H:i e" }}')
    return HttpResponse(template.render({"when": NOON_UTC}, request))


urlpatterns = [path("when/", show_a_datetime)]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def set_time_zone(user: User, name: str) -> None:
    user.time_zone = name
    user.save(update_fields=["time_zone"])


def test_a_datetime_is_shown_in_the_viewers_time_zone(client, alice, bob):
    set_time_zone(alice, "Asia/Tokyo")
    set_time_zone(bob, "America/New_York")

    client.force_login(alice)
    assert client.get("/when/").content.decode() == "21:00 JST"
    client.force_login(bob)
    assert client.get("/when/").content.decode() == "07:00 EST"


def test_an_anonymous_visitor_sees_utc(client):
    assert client.get("/when/").content.decode() == "12:00 UTC"


@pytest.mark.parametrize("name", ["Atlantis/Capital", "../../etc/passwd", "", "/etc/localtime"])
def test_an_unknown_time_zone_falls_back_to_utc(client, alice, name):
    # Possible if the tz database drops a zone after a person chose it.
    set_time_zone(alice, name)
    client.force_login(alice)
    assert client.get("/when/").content.decode() == "12:00 UTC"


def test_the_zone_ends_with_the_request(client, alice):
    set_time_zone(alice, "Asia/Tokyo")
    client.force_login(alice)
    client.get("/when/")
    assert timezone.get_current_timezone_name() == "UTC"
