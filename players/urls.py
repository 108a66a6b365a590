from django.urls import path

from players import views

app_name = "players"
urlpatterns = [
    path("<int:user_id>/", views.profile, name="profile"),
    path("<int:user_id>/games/", views.history, name="history"),
    path("privacy/", views.privacy, name="privacy"),
]
