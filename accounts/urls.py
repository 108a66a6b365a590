"""The site's own account pages. Sign-up, log-in (by password or by an emailed code),
password reset and change, and the email address are allauth's (accounts/ in
hanabi_site/urls.py)."""

from django.urls import path

from accounts import languages, scoped, unsubscribe, views

app_name = "accounts"

urlpatterns = [
    # Before allauth's own (hanabi_site/urls.py includes these first): the same pages, but
    # a per-address limit answers 429.
    path("login/", views.LoginView.as_view(), name="login"),
    path("login/code/", views.RequestLoginCodeView.as_view(), name="request_login_code"),
    path("open/<str:token>/", scoped.open_scoped_link, name="scoped_link"),
    path("profile/", views.profile, name="profile"),
    path("language/", languages.choose_language, name="language"),  # the footer's switch
    path("unsubscribe/<str:token>/", unsubscribe.unsubscribe_from_game_emails, name="unsubscribe"),
]
