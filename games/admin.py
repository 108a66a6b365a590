from django import forms
from django.contrib import admin, messages
from django.shortcuts import render

from games import services
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


@admin.register(Game)
class GameAdmin(ModeratedAdmin):
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
    list_filter = ("status", "visibility", "timeout_policy", "chat_policy")
    list_select_related = ("creator",)
    raw_id_fields = ("creator",)
    search_fields = ("=pk", "creator__email", "creator__display_name")
    readonly_fields = ("seed", "deck", "invite_code", "created_at", "started_at", "finished_at")
    inlines = [SeatInline]
    actions = ["extend_by_a_day", "clear_deadline", "pause", "resume", "replace_seat", "abort"]

    extend_by_a_day = moderation_action(
        "Give the current turn 24 more hours",
        lambda game, user, reason: services.extend_deadline(game.pk, user, 24, reason),
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
