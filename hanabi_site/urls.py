from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from games.views.lobby import home
from hanabi_site.health import healthz

urlpatterns = [
    path("", home, name="home"),
    path("", include("games.urls")),
    path("", include("moderation.urls")),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
]

if settings.DEBUG:
    # The emails the embedded default wrote to files, readable with their links clickable.
    urlpatterns.append(path("dev/mail/", include("hanabi_site.dev_mail")))
