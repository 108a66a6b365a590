from django.urls import path

from friends import views

app_name = "friends"
urlpatterns = [
    path("", views.index, name="index"),
    path("add/", views.add, name="add"),
    path("remove/", views.remove, name="remove"),
    path("invite/<int:game_id>/", views.invite, name="invite"),
]
