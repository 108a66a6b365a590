from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from games import services, views
from games.models import (
    ChatMessage,
    Game,
    ImportedReplay,
    Invitation,
    ModeratorAction,
    Move,
    Outbox,
    Report,
    Seat,
)


class ReasonForm(forms.Form):
    reason = forms.CharField(label="Why", max_length=500, widget=forms.Textarea)


class ReplaceSeatForm(ReasonForm):
    position = forms.TypedChoiceField(
        label="Seat", choices=[(n, f"Seat {n + 1}") for n in range(6)], coerce=int
    )
    email = forms.EmailField(
        label="Give it to (email address)", required=False, help_text="Empty: a bot takes it."
    )


class ExtendForm(ReasonForm):
    hours = forms.IntegerField(
        label="Give the current turn this many more hours", min_value=1, max_value=24 * 7
    )


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


class ModeratedAdmin(admin.ModelAdmin):
    """Admin actions of moderators: each asks why, then acts through games.services, which
    checks the permission again and writes the audit log."""

    def has_moderate_permission(self, request) -> bool:
        return services.is_moderator(request.user)

    def with_reason(self, request, queryset, title: str, perform, form_class=None):
        """Ask why (and whatever else form_class asks), then perform(item, moderator,
        reason, **other fields) for each selected item."""
        form_class = form_class or ReasonForm
        if "apply" in request.POST:
            form = form_class(request.POST)
            if form.is_valid():
                fields = dict(form.cleaned_data)
                reason = fields.pop("reason")
                for item in queryset:
                    try:
                        perform(item, request.user, reason, **fields)
                    except services.GameError as error:
                        self.message_user(request, f"{item}: {error}", messages.WARNING)
                    else:
                        self.message_user(request, f"{item}: done.")
                return None
        else:
            form = form_class()
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "queryset": queryset,
            "form": form,
            "action": request.POST["action"],
            "opts": self.model._meta,
        }
        return render(request, "admin/games/reason.html", context)


def moderation_action(title: str, perform, form_class=None):
    """An admin action for moderators: ask why (and what form_class asks), then call
    perform(item, moderator, reason, **the form's other fields) for each selected item."""

    @admin.action(description=title, permissions=["moderate"])
    def action(modeladmin: ModeratedAdmin, request, queryset):
        return modeladmin.with_reason(request, queryset, title, perform, form_class)

    return action


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
class GameAdmin(ModeratedAdmin):
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
        "cards",
        "player_count",
        "variant",
        "invite_code",
        "created_at",
        "started_at",
        "finished_at",
    )
    exclude = ("seed", "deck")  # the deck is shown only through `cards`, to those who may
    inlines = [SeatInline, MoveInline, ChatInline]
    actions = ["extend", "clear_deadline", "pause", "resume", "replace_seat", "abort"]

    def get_urls(self):
        turn_view = self.admin_site.admin_view(views.moderator_turn_view)
        return [
            path("<int:game_id>/turn/<int:turn>/", turn_view, name="games_game_turn"),
            *super().get_urls(),
        ]

    @admin.display(description="cards")
    def cards(self, game: Game) -> str:
        if game.pk is None or game.status == Game.Status.OPEN:
            return "Not dealt yet."
        return format_html(
            '<a href="{}">Every hand, turn by turn</a> (from the deal) · '
            '<a href="{}">now (turn {})</a>',
            reverse("admin:games_game_turn", args=[game.pk, 0]),
            reverse("admin:games_game_turn", args=[game.pk, game.turn]),
            game.turn,
        )

    extend = moderation_action(
        "Give the current turn more time",
        lambda game, user, reason, hours: services.extend_deadline(game.pk, user, hours, reason),
        form_class=ExtendForm,
    )
    clear_deadline = moderation_action(
        "Clear the current turn's deadline",
        lambda game, user, reason: services.moderate_clear_deadline(game.pk, user, reason),
    )
    pause = moderation_action(
        "Pause the game (no deadline runs)",
        lambda game, user, reason: services.moderate_pause(game.pk, user, reason),
    )
    resume = moderation_action(
        "Resume the game (a fresh deadline)",
        lambda game, user, reason: services.moderate_resume(game.pk, user, reason),
    )
    replace_seat = moderation_action(
        "Give a seat to another player or a bot",
        lambda game, user, reason, position, email: services.replace_seat(
            game.pk, user, reason, position, email
        ),
        form_class=ReplaceSeatForm,
    )
    abort = moderation_action(
        "Abort the game",
        lambda game, user, reason: services.moderate_abort(game.pk, user, reason),
    )


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
class ChatMessageAdmin(ModeratedAdmin):
    list_display = ("pk", "game", "author", "text", "created_at", "hidden_at")
    list_filter = (("hidden_at", admin.EmptyFieldListFilter),)
    list_select_related = ("game", "author")
    raw_id_fields = ("game", "author")
    search_fields = ("text", "author__email", "author__display_name")
    actions = ["hide"]

    hide = moderation_action(
        "Hide the message",
        lambda message, user, reason: services.hide_message(message.pk, user, reason),
    )


@admin.register(Report)
class ReportAdmin(ModeratedAdmin):
    list_display = ("pk", "status", "game", "reporter", "reported_user", "reason", "created_at")
    list_filter = ("status",)
    list_select_related = ("game", "reporter", "reported_user")
    raw_id_fields = ("game", "reporter", "reported_user", "message")
    search_fields = ("reason", "reporter__email", "reported_user__email")
    actions = ["resolve"]

    resolve = moderation_action(
        "Resolve the report, with a note",
        lambda report, user, note: services.resolve_report(report.pk, user, note),
    )


@admin.register(ModeratorAction)
class ModeratorActionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "moderator", "description", "game", "user", "reason")
    list_filter = ("action",)
    list_select_related = ("moderator", "game", "user")
    raw_id_fields = ("moderator", "game", "user")

    def has_add_permission(self, request) -> bool:
        return False  # the log is written by the actions themselves

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
