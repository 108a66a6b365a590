"""Admin helpers every app uses."""


class ReadOnly:
    """A ModelAdmin mixin for records nobody edits in the admin, superusers included: never
    added, changed or deleted there. Their changes come from the services."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
