from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from games.views.help import rules
from games.views.lobby import home
from hanabi_site.health import healthz
from mailplay import webhooks


def favicon(request: HttpRequest) -> HttpResponse:
    """Where browsers and feed readers look for the icon unasked: the static file (its name
    is hashed in production, so the address is found per request)."""
    return redirect(static("favicon.ico"))


urlpatterns = [
    path("", home, name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("rules/", rules, name="rules"),
    path("", include("games.urls")),
    path("", include("moderation.urls")),
    path("players/", include("players.urls")),
    path("friends/", include("friends.urls")),
    path("rematches/", include("rematches.urls")),
    path("deals/", include("deals.urls")),
    # The old address of the login page (bookmarks, pages that name "login").
    path(
        "login/",
        RedirectView.as_view(pattern_name="account_login", query_string=True),
        name="login",
    ),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # The hosted providers' inbound webhooks: this site's views of the four it documents
    # first (mailplay/webhooks.py: the secret required, the SNS signature checked), then
    # anymail's own URLs.
    path("anymail/", include(webhooks.urlpatterns)),
    path("anymail/", include("anymail.urls")),
]

if settings.DEBUG:
    # The emails the embedded default wrote to files, readable with their links clickable.
    urlpatterns.append(path("dev/mail/", include("hanabi_site.dev_mail")))
