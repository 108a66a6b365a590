from django.contrib import admin

from lib.admin import ReadOnly
from outbox import registry
from outbox.models import Outbox


def label_of(kind: str) -> str:
    """The label its app registered, or what an unknown kind is (a retired one, say)."""
    registered = registry.registered(kind)
    return registered.label if registered else f"{kind} (no handler: not a registered kind)"


class KindFilter(admin.SimpleListFilter):
    """The kinds registered, by label (the column holds no choices to list)."""

    title = "kind"
    parameter_name = "kind"

    def lookups(self, request, model_admin) -> list[tuple[str, str]]:
        return sorted(((kind.name, kind.label) for kind in registry.kinds()), key=lambda k: k[1])

    def queryset(self, request, queryset):
        return queryset.filter(kind=self.value()) if self.value() else queryset


@admin.register(Outbox)
class OutboxAdmin(ReadOnly, admin.ModelAdmin):
    """For reading: a row added or edited by hand would send an email or move a bot that no
    change of the game asked for."""

    list_display = ("pk", "kind_label", "due_at", "claimed_at", "done_at", "attempts", "last_error")
    list_filter = (KindFilter, ("done_at", admin.EmptyFieldListFilter))
    search_fields = ("payload",)

    @admin.display(description="kind", ordering="kind")
    def kind_label(self, row: Outbox) -> str:
        return label_of(row.kind)
