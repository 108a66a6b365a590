from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("games/new/", views.new_game, name="new"),
    path("bots/", views.how_the_bots_play, name="bots"),
    path("games/import/", views.import_game, name="import"),
    path("games/<int:game_id>/", views.detail, name="detail"),
    path("games/<int:game_id>/join/<str:code>/", views.invite_link, name="invite"),
    path("games/<int:game_id>/join/", views.join, name="join"),
    path("games/<int:game_id>/leave/", views.leave, name="leave"),
    path("games/<int:game_id>/cancel/", views.cancel, name="cancel"),
    path("games/<int:game_id>/start/", views.start, name="start"),
    path("games/<int:game_id>/bot/", views.bot_seat, name="bot"),
    path("games/<int:game_id>/invite/", views.invite, name="invite_email"),
    path("games/<int:game_id>/poll/", views.poll, name="poll"),
    path("games/<int:game_id>/move/", views.move, name="move"),
    path("games/<int:game_id>/pause/", views.pause, name="pause"),
    path("games/<int:game_id>/resume/", views.resume, name="resume"),
    path("games/<int:game_id>/extend/", views.extend, name="extend"),
    path("games/<int:game_id>/mute/", views.mute, name="mute"),
    path("games/<int:game_id>/reclaim/", views.reclaim, name="reclaim"),
    path("games/<int:game_id>/chat/", views.chat, name="chat"),
    path("games/<int:game_id>/report/", views.report, name="report"),
    path("games/<int:game_id>/replay/<int:turn>/", views.replay_view, name="replay"),
    path("games/<int:game_id>/analysis/", views.analysis, name="analysis"),
    path("games/<int:game_id>/export.json", views.export, name="export"),
    path("replays/<int:replay_id>/<int:turn>/", views.imported_replay, name="imported"),
]
