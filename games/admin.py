"""The games in the admin, for reading: games with their seats, moves and chat, filters that
find games by player, variant, age and wait. Moderators' actions on them are added by
moderation/admin.py."""

from datetime import timedelta

from django.contrib import admin
from django.utils import timezone

from games.models import ChatMessage, Game, ImportedReplay, Invitation, Move, Seat


class WaitingForMoveFilter(admin.SimpleListFilter):
    """Games in play whose current turn started long ago: where a moderator may be needed."""

    title = "waiting for a move"
    parameter_name = "waiting"
    DAYS = {"1": 1, "3": 3, "7": 7}

    def lookups(self, request, model_admin):
        return [
            (key, f"for over {days} day{'s' if days > 1 else ''}")
            for key, days in self.DAYS.items()
        ]

    def queryset(self, request, queryset):
        days = self.DAYS.get(self.value())
        if days is None:
            return queryset
        since = timezone.now() - timedelta(days=days)
        return queryset.filter(status=Game.Status.PLAYING, turn_started_at__lt=since)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("user",)
    fields = ("position", "user", "is_bot", "timeouts_in_a_row", "wants_pause", "muted")


class ReadOnlyInline(admin.TabularInline):
    """The game's record as it happened: moderators read it; actions change it."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class MoveInline(ReadOnlyInline):
    model = Move
    fields = readonly_fields = ("turn", "seat", "made_by", "action", "created_at")
    ordering = ("turn",)


class ChatInline(ReadOnlyInline):
    model = ChatMessage
    fields = readonly_fields = ("created_at", "author", "text", "hidden_at")
    ordering = ("created_at",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("author")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "pk",
        "status",
        "player_count",
        "variant",
        "creator",
        "turn",
        "score",
        "turn_deadline",
        "paused_at",
        "created_at",
    )
    list_filter = (
        "status",
        "player_count",
        "variant",
        ("created_at", admin.DateFieldListFilter),
        WaitingForMoveFilter,
        "visibility",
        "timeout_policy",
        "chat_policy",
    )
    list_select_related = ("creator",)
    raw_id_fields = ("creator",)
    # "Find games by player": the creator or anyone seated.
    search_fields = (
        "=pk",
        "creator__email",
        "creator__display_name",
        "seats__user__email",
        "seats__user__display_name",
    )
    readonly_fields = (
        "player_count",
        "variant",
        "invite_code",
        "created_at",
        "started_at",
        "finished_at",
    )
    exclude = ("seed", "deck")  # a deal is shown only to moderators who may (may_inspect)
    inlines = [SeatInline, MoveInline, ChatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "turn", "seat", "made_by", "action", "created_at")
    list_filter = ("made_by",)
    raw_id_fields = ("game",)
    list_select_related = ("game",)


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
