from django.urls import path

from moderation import views

app_name = "moderation"
urlpatterns = [
    path("games/<int:game_id>/report/", views.report, name="report"),
]
