from django.urls import path

from rematches import views

app_name = "rematches"
urlpatterns = [
    path("propose/<int:game_id>/", views.propose, name="propose"),
    path("<int:rematch_id>/", views.detail, name="detail"),
    path("<int:rematch_id>/accept/", views.accept, name="accept"),
    path("<int:rematch_id>/decline/", views.decline, name="decline"),
    path("<int:rematch_id>/start/", views.start_with_bots, name="start"),
]
