"""The games in the admin, for reading: games with their seats, moves and chat, filters that
find games by player, variant, age and wait. Moderators' actions on them are added by
moderation/admin.py.

Two rules hold for everyone, superusers included. The admin changes no game: a game changes
through games/services/ (players' moves) and moderation/services.py (moderators' actions, each
written to the audit log), so every form here is read-only. And no admin page tells anything
of a deal: the admin lets a URL filter on any field (`?seed__lte=…` answers one bit per
request), so every admin from which a lookup can reach a game refuses lookups on the fields
that hold a deal. A moderator sees the cards only through the turn view (may_inspect)."""

from datetime import timedelta

from django.contrib import admin
from django.contrib.admin.exceptions import DisallowedModelAdminLookup
from django.core.exceptions import FieldDoesNotExist, PermissionDenied
from django.db.models import Model
from django.db.models.constants import LOOKUP_SEP
from django.utils import timezone

from accounts.models import User
from games.models import (
    ChatMessage,
    DealAnalysis,
    Game,
    ImportedReplay,
    Invitation,
    Move,
    Seat,
    TurnAnalysis,
)
from lib.admin import ReadOnly

# The fields no lookup may read: the deal (seed, deck), the moves as the engine replays them
# (a card id is a position in the deck), the analyses of a deal and of its turns, and password
# hashes.
HIDDEN_FIELDS: frozenset[tuple[type[Model], str]] = frozenset(
    {
        (Game, "seed"),
        (Game, "deck"),
        (Move, "action"),
        (DealAnalysis, "result"),
        (TurnAnalysis, "result"),
        (User, "password"),
    }
)


def reaches_hidden_field(model: type[Model], lookup: str) -> bool:
    """Whether a lookup path from `model` (a filter like `game__seed__lte`, a search field,
    an ordering) reads one of HIDDEN_FIELDS, following relations both ways as the ORM does."""
    for part in lookup.lstrip("-=^@").split(LOOKUP_SEP):
        try:
            field = model._meta.pk if part == "pk" else model._meta.get_field(part)
        except FieldDoesNotExist:
            return False  # a transform or a lookup (`lte`, `0`, `contains`) of the last field
        if (model, field.name) in HIDDEN_FIELDS:
            return True
        if not field.is_relation:
            return False
        model = field.related_model
    return False


class GameDataAdmin(admin.ModelAdmin):
    """The admin of a model from which a lookup can reach a game (or a user): it refuses
    lookups on the hidden fields, and a POST of an action the user may not run."""

    def lookup_allowed(self, lookup, value, request=None) -> bool:
        if reaches_hidden_field(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)

    def get_search_results(self, request, queryset, search_term):
        # The search fields are fixed in code; this holds them to the rule as well.
        for field in self.get_search_fields(request):
            if reaches_hidden_field(self.model, field):
                raise DisallowedModelAdminLookup(f"Searching {field} is not allowed")
        return super().get_search_results(request, queryset, search_term)

    def changelist_view(self, request, extra_context=None):
        # Django answers an action the user may not run with the list, as if none was chosen;
        # say plainly that it is refused.
        if request.method == "POST":
            chosen = set(request.POST.getlist("action")) - {""}
            if chosen - set(self.get_actions(request)):
                raise PermissionDenied
        return super().changelist_view(request, extra_context)


class RecordAdmin(ReadOnly, GameDataAdmin):
    """A record nobody edits here, superusers included: shown read-only (every field in
    `fields` is also in `readonly_fields`), never added or deleted. Its changes come from the
    services and the moderators' actions."""


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


class ReadOnlyInline(ReadOnly, admin.TabularInline):
    """The game's record as it happened: moderators read it; actions change it."""

    extra = 0
    can_delete = False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = readonly_fields = (
        "position",
        "user",
        "is_bot",
        "timeouts_in_a_row",
        "wants_pause",
        "muted",
    )
    ordering = ("position",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")


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
class GameAdmin(RecordAdmin):
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
    # "Find games by player": the creator or anyone seated.
    search_fields = (
        "=pk",
        "creator__email",
        "creator__display_name",
        "seats__user__email",
        "seats__user__display_name",
    )
    # Every field but the deal (seed, deck): a deal is shown only to moderators who may
    # see it (may_inspect), through the turn view.
    fields = readonly_fields = (
        "status",
        "options",
        "player_count",
        "variant",
        "visibility",
        "invite_code",
        "creator",
        "chat_policy",
        "turn_time_limit",
        "timeout_policy",
        "turn",
        "current_seat",
        "score",
        "max_score",
        "end",
        "created_at",
        "started_at",
        "finished_at",
        "turn_started_at",
        "turn_deadline",
        "paused_at",
    )
    inlines = [SeatInline, MoveInline, ChatInline]


@admin.register(Move)
class MoveAdmin(RecordAdmin):
    list_display = ("game", "turn", "seat", "made_by", "action", "created_at")
    list_filter = ("made_by",)
    list_select_related = ("game",)
    sortable_by = ("game", "turn", "seat", "made_by", "created_at")
    fields = readonly_fields = ("game", "turn", "seat", "made_by", "action", "created_at")


@admin.register(Invitation)
class InvitationAdmin(RecordAdmin):
    list_display = ("game", "email", "invited_by", "created_at")
    list_select_related = ("game", "invited_by")
    fields = readonly_fields = list_display


@admin.register(ImportedReplay)
class ImportedReplayAdmin(GameDataAdmin):
    list_display = ("pk", "owner", "file_name", "moves", "created_at")
    raw_id_fields = ("owner",)
    list_select_related = ("owner",)

    @admin.display(description="moves")
    def moves(self, replay: ImportedReplay) -> int:
        return len(replay.actions)


@admin.register(ChatMessage)
class ChatMessageAdmin(RecordAdmin):
    list_display = ("pk", "game", "author", "text", "created_at", "hidden_at")
    list_filter = (("hidden_at", admin.EmptyFieldListFilter),)
    list_select_related = ("game", "author")
    search_fields = ("text", "author__email", "author__display_name")
    fields = readonly_fields = ("game", "author", "text", "created_at", "hidden_at")
