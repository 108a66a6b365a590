"""The site's URLs plus /bench/trivial/, the framework's floor for bench/site.py."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from hanabi_site.urls import urlpatterns as site_urlpatterns


def trivial(request: HttpRequest) -> HttpResponse:
    """No database, no template: what every request costs before the site does anything."""
    return HttpResponse("ok")


urlpatterns = [path("bench/trivial/", trivial, name="bench-trivial"), *site_urlpatterns]
