from django.contrib import admin

from lib.admin import ReadOnly
from outbox.models import Outbox


@admin.register(Outbox)
class OutboxAdmin(ReadOnly, admin.ModelAdmin):
    """For reading: a row added or edited by hand would send an email or move a bot that no
    change of the game asked for."""

    list_display = ("pk", "kind", "due_at", "claimed_at", "done_at", "attempts", "last_error")
    list_filter = ("kind", ("done_at", admin.EmptyFieldListFilter))
    search_fields = ("payload",)
