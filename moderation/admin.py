"""The moderators' admin: the actions on games, chat messages and users (each asks why and
acts through moderation/services.py), a game's cards at any turn, reports and the audit log.
As in games/admin.py, nothing here edits a game, a report or the log, and no lookup reads a
deal; the actions are the only way to change them, and each writes its audit row."""

from django import forms
from django.contrib import admin, messages
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.admin import UserAdmin
from accounts.models import User
from games.admin import ChatMessageAdmin, GameAdmin, GameDataAdmin, RecordAdmin
from games.errors import GameError
from games.models import ChatMessage, Game
from games.permissions import is_moderator
from moderation import services, views
from moderation.models import ModeratorAction, Report

# "Seat 3", worded when the form is shown, in the moderator's language.
seat_label = lazy(lambda number: _("Seat %(seat)s") % {"seat": number}, str)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why"), max_length=500, widget=forms.Textarea)


class ReplaceSeatForm(ReasonForm):
    position = forms.TypedChoiceField(
        label=gettext_lazy("Seat"),
        choices=[(n, seat_label(n + 1)) for n in range(6)],
        coerce=int,
    )
    email = forms.EmailField(
        label=gettext_lazy("Give it to (email address)"),
        required=False,
        help_text=gettext_lazy("Empty: a bot takes it."),
    )


class ModeratorExtendForm(ReasonForm):
    hours = forms.IntegerField(
        label=gettext_lazy("Give the current turn this many more hours"),
        min_value=1,
        max_value=24 * 7,
    )


class SuspendForm(ReasonForm):
    days = forms.TypedChoiceField(
        label=gettext_lazy("For"),
        choices=[
            (1, gettext_lazy("1 day")),
            (7, gettext_lazy("1 week")),
            (30, gettext_lazy("30 days")),
            (365, gettext_lazy("1 year")),
        ],
        coerce=int,
    )


class ModeratedAdmin(GameDataAdmin):
    """Admin actions of moderators: each asks why, then acts through moderation.services,
    which checks the permission again and writes the audit log. Anyone else who posts one
    is refused (403, GameDataAdmin)."""

    def has_moderate_permission(self, request) -> bool:
        return is_moderator(request.user)

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
                    except GameError as error:
                        self.message_user(
                            request,
                            _("%(item)s: %(error)s") % {"item": item, "error": error},
                            messages.WARNING,
                        )
                    else:
                        self.message_user(request, _("%(item)s: done.") % {"item": item})
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
        return render(request, "admin/moderation/reason.html", context)


def moderation_action(title, perform, form_class=None):
    """An admin action for moderators: ask why (and what form_class asks), then call
    perform(item, moderator, reason, **the form's other fields) for each selected item."""

    @admin.action(description=title, permissions=["moderate"])
    def action(modeladmin: ModeratedAdmin, request, queryset):
        return modeladmin.with_reason(request, queryset, title, perform, form_class)

    return action


admin.site.unregister(Game)


@admin.register(Game)
class ModeratedGameAdmin(ModeratedAdmin, GameAdmin):
    fields = readonly_fields = ("cards", *GameAdmin.fields)
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
        gettext_lazy("Give the current turn more time"),
        lambda game, user, reason, hours: services.extend_deadline(game.pk, user, reason, hours),
        form_class=ModeratorExtendForm,
    )
    clear_deadline = moderation_action(
        gettext_lazy("Clear the current turn's deadline"),
        lambda game, user, reason: services.clear_deadline(game.pk, user, reason),
    )
    pause = moderation_action(
        gettext_lazy("Pause the game (no deadline runs)"),
        lambda game, user, reason: services.pause(game.pk, user, reason),
    )
    resume = moderation_action(
        gettext_lazy("Resume the game (a fresh deadline)"),
        lambda game, user, reason: services.resume(game.pk, user, reason),
    )
    replace_seat = moderation_action(
        gettext_lazy("Give a seat to another player or a bot"),
        lambda game, user, reason, position, email: services.replace_seat(
            game.pk, user, reason, position, email
        ),
        form_class=ReplaceSeatForm,
    )
    abort = moderation_action(
        gettext_lazy("Abort the game"),
        lambda game, user, reason: services.abort(game.pk, user, reason),
    )


admin.site.unregister(ChatMessage)


@admin.register(ChatMessage)
class ModeratedChatMessageAdmin(ModeratedAdmin, ChatMessageAdmin):
    actions = ["hide"]

    hide = moderation_action(
        gettext_lazy("Hide the message"),
        lambda message, user, reason: services.hide_message(message.pk, user, reason),
    )


admin.site.unregister(User)


@admin.register(User)
class ModeratedUserAdmin(ModeratedAdmin, UserAdmin):
    actions = ["suspend"]

    suspend = moderation_action(
        gettext_lazy("Suspend (with a reason; they are told by email)"),
        lambda user, moderator, reason, days: services.suspend_user(
            user.pk, moderator, reason, days
        ),
        form_class=SuspendForm,
    )


@admin.register(Report)
class ReportAdmin(ModeratedAdmin, RecordAdmin):
    list_display = ("pk", "status", "game", "reporter", "reported_user", "reason", "created_at")
    list_filter = ("status",)
    list_select_related = ("game", "reporter", "reported_user")
    search_fields = ("reason", "reporter__email", "reported_user__email")
    fields = readonly_fields = (
        "status",
        "game",
        "reporter",
        "reported_user",
        "message",
        "reason",
        "note",
        "created_at",
    )
    actions = ["resolve"]

    resolve = moderation_action(
        gettext_lazy("Resolve the report, with a note"),
        lambda report, user, note: services.resolve_report(report.pk, user, note),
    )


@admin.register(ModeratorAction)
class ModeratorActionAdmin(RecordAdmin):
    """The audit log, written by the actions themselves."""

    list_display = ("created_at", "moderator", "description", "game", "user", "reason")
    list_filter = ("action",)
    list_select_related = ("moderator", "game", "user")
    fields = readonly_fields = (
        "created_at",
        "moderator",
        "action",
        "description",
        "game",
        "user",
        "reason",
    )
