from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from games.views.lobby import home
from hanabi_site.health import healthz

urlpatterns = [
    path("", home, name="home"),
    path("", include("games.urls")),
    path("", include("moderation.urls")),
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
]

if settings.DEBUG:
    # The emails the embedded default wrote to files, readable with their links clickable.
    urlpatterns.append(path("dev/mail/", include("hanabi_site.dev_mail")))
