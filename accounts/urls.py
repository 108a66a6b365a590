from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import scoped, views
from accounts.forms import EmailedPasswordResetForm

app_name = "accounts"

password_reset_urls = [
    path(
        "password-reset/",
        auth_views.PasswordResetView.as_view(
            form_class=EmailedPasswordResetForm,
            success_url=reverse_lazy("accounts:password_reset_done"),
        ),
        name="password_reset",
    ),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            success_url=reverse_lazy("accounts:password_reset_complete"),
            post_reset_login=True,
            post_reset_login_backend=views.PASSWORD_BACKEND,
        ),
        name="password_reset_confirm",
    ),
    path(
        "password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login-link/", views.login_link, name="login_link"),
    path("login-link/sent/", views.login_link_sent, name="login_link_sent"),
    path("link/", views.link, name="link"),
    path("open/<str:token>/", scoped.open_scoped_link, name="scoped_link"),
    path("profile/", views.profile, name="profile"),
    path("password-change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("unsubscribe/<str:token>/", views.unsubscribe_from_game_emails, name="unsubscribe"),
    *password_reset_urls,
]
