from django.urls import path

from accounts.scoped import allow_with_pass
from games.views import (
    chat,
    events,
    lobby,
    lookback,
    notes,
    rearrange,
    replay,
    spectate,
    table,
)

app_name = "games"
urlpatterns = [
    path("games/new/", lobby.new_game, name="new"),
    path("bots/", lobby.how_the_bots_play, name="bots"),
    path("by-email/", lobby.play_by_email, name="by_email"),
    path("games/<int:game_id>/join/<str:code>/", lobby.invite_link, name="invite"),
    path("games/<int:game_id>/join/", lobby.join, name="join"),
    path("games/<int:game_id>/leave/", lobby.leave, name="leave"),
    path("games/<int:game_id>/cancel/", lobby.cancel, name="cancel"),
    path("games/<int:game_id>/start/", lobby.start, name="start"),
    path("games/<int:game_id>/bot/", lobby.bot_seat, name="bot"),
    path("games/<int:game_id>/invite/", lobby.invite, name="invite_email"),
    path("games/<int:game_id>/", table.detail, name="detail"),
    path("games/<int:game_id>/poll/", table.poll, name="poll"),
    path("games/<int:game_id>/events/", events.events, name="events"),
    path("games/<int:game_id>/move/", table.move, name="move"),
    path("games/<int:game_id>/note/", notes.note, name="note"),
    path("games/<int:game_id>/rearrange/", rearrange.rearrange_hand, name="rearrange"),
    path("games/<int:game_id>/pause/", table.pause, name="pause"),
    path("games/<int:game_id>/resume/", table.resume, name="resume"),
    path("games/<int:game_id>/extend/", table.extend, name="extend"),
    path("games/<int:game_id>/mute/", table.mute, name="mute"),
    path("games/<int:game_id>/reclaim/", table.reclaim, name="reclaim"),
    path("games/<int:game_id>/chat/", chat.chat, name="chat"),
    path("games/<int:game_id>/as-seen/<int:turn>/", lookback.look_back, name="look_back"),
    # Not in PASS_ALLOWS: a game email's link is a player's, and a player never watches.
    path("games/<int:game_id>/watch/", spectate.watch, name="watch"),
    path("games/<int:game_id>/replay/<int:turn>/", replay.replay_view, name="replay"),
    path("games/<int:game_id>/analysis/", replay.analysis, name="analysis"),
    path("games/<int:game_id>/review/", replay.review_section, name="review"),
    path("games/<int:game_id>/export.json", replay.export, name="export"),
    path("games/import/", replay.import_game, name="import"),
    path("replays/<int:replay_id>/<int:turn>/", replay.imported_replay, name="imported"),
]

# What the link in a game email opens without a login (a pass, accounts/scoped.py), by the
# names above: the game's pages to read, the poll and the push stream, a move, and muting
# this game's emails. A forwarded email's reader gets no more than that: every other
# address under the game (chat, notes, reports, votes, the lobby's forms, and any address
# added later) asks for a real login. tests/accounts/test_scoped_pass_actions.py classifies
# every name here.
PASS_ALLOWS = {
    "detail": ("GET",),
    "poll": ("GET",),
    "events": ("GET",),
    "look_back": ("GET",),
    "replay": ("GET",),
    "analysis": ("GET",),
    "review": ("GET",),
    "export": ("GET",),
    "move": ("POST",),
    "rearrange": ("POST",),
    "mute": ("POST",),
}
for pattern in urlpatterns:
    if pattern.name in PASS_ALLOWS:
        allow_with_pass(pattern.callback, *PASS_ALLOWS[pattern.name])
