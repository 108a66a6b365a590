from django.contrib import admin, messages

from games import services
from games.models import (
    ChatMessage,
    Game,
    ImportedReplay,
    Invitation,
    Move,
    Outbox,
    Report,
    Seat,
)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("user",)
    fields = ("position", "user", "is_bot", "timeouts_in_a_row", "wants_pause", "muted")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "pk",
        "status",
        "visibility",
        "creator",
        "turn",
        "score",
        "turn_deadline",
        "paused_at",
        "created_at",
    )
    list_filter = ("status", "visibility", "timeout_policy")
    list_select_related = ("creator",)
    raw_id_fields = ("creator",)
    search_fields = ("pk", "creator__email", "creator__display_name")
    readonly_fields = ("seed", "deck", "invite_code", "created_at", "started_at", "finished_at")
    inlines = [SeatInline]
    actions = ["extend_by_a_day"]

    @admin.action(description="Give the current turn 24 more hours")
    def extend_by_a_day(self, request, queryset) -> None:
        # Through the service, like any change to a game: it locks the game and reschedules
        # the reminder.
        for game in queryset:
            try:
                services.extend_deadline(game.pk, request.user, 24)
            except services.GameError as error:
                self.message_user(request, f"Game {game.pk}: {error}", messages.WARNING)
            else:
                self.message_user(request, f"Game {game.pk}: 24 more hours.")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "turn", "seat", "made_by", "action", "created_at")
    list_filter = ("made_by",)
    raw_id_fields = ("game",)
    list_select_related = ("game",)


@admin.register(Outbox)
class OutboxAdmin(admin.ModelAdmin):
    list_display = ("pk", "kind", "due_at", "claimed_at", "done_at", "attempts", "last_error")
    list_filter = ("kind", ("done_at", admin.EmptyFieldListFilter))
    search_fields = ("payload",)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("game", "email", "invited_by", "created_at")
    raw_id_fields = ("game", "invited_by")


@admin.register(ImportedReplay)
class ImportedReplayAdmin(admin.ModelAdmin):
    list_display = ("pk", "owner", "file_name", "moves", "created_at")
    raw_id_fields = ("owner",)
    list_select_related = ("owner",)

    @admin.display(description="moves")
    def moves(self, replay: ImportedReplay) -> int:
        return len(replay.actions)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "author", "text", "created_at", "hidden_at")
    list_filter = (("hidden_at", admin.EmptyFieldListFilter),)
    list_select_related = ("game", "author")
    raw_id_fields = ("game", "author")
    search_fields = ("text", "author__email", "author__display_name")


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("pk", "status", "game", "reporter", "reported_user", "reason", "created_at")
    list_filter = ("status",)
    list_select_related = ("game", "reporter", "reported_user")
    raw_id_fields = ("game", "reporter", "reported_user", "message")
    search_fields = ("reason", "reporter__email", "reported_user__email")
