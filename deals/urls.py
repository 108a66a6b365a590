from django.urls import path

from deals import views

app_name = "deals"
urlpatterns = [
    path("<int:deal_id>/", views.detail, name="detail"),
    path("<int:deal_id>/look/", views.look, name="look"),
    path("<int:deal_id>/play/", views.play, name="play"),
    path("from-game/<int:game_id>/", views.from_game, name="from_game"),
    path("weekly/", views.weekly, name="weekly"),
    path("weekly/play/", views.weekly_play, name="weekly_play"),
]
