from django.contrib import admin

from outbox.models import Outbox


@admin.register(Outbox)
class OutboxAdmin(admin.ModelAdmin):
    list_display = ("pk", "kind", "due_at", "claimed_at", "done_at", "attempts", "last_error")
    list_filter = ("kind", ("done_at", admin.EmptyFieldListFilter))
    search_fields = ("payload",)
