from importlib import import_module

from allauth.account.models import EmailAddress, EmailConfirmation
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from accounts.models import User


class UserChangeFormByEmail(UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = User
        fields = "__all__"


class UserCreationFormByEmail(AdminUserCreationForm):
    class Meta(AdminUserCreationForm.Meta):
        model = User
        fields = ("email", "display_name")


# allauth registers its addresses under its own app, whose name is also "Accounts": two
# sections of that name on the admin's index (issue 27). The addresses are shown on the
# account's own page instead, in the one Accounts section.
# allauth's admin module is imported first, whatever the apps' order, so that it has
# registered what is taken off here.
import_module("allauth.account.admin")
for allauth_model in (EmailAddress, EmailConfirmation):
    if admin.site.is_registered(allauth_model):
        admin.site.unregister(allauth_model)


class EmailAddressInline(admin.TabularInline):
    """The account's email addresses (allauth's), on its page: whether each is verified and
    which is the login. Changed only by those who may change the account."""

    model = EmailAddress
    fields = ("email", "verified", "primary")
    extra = 0

    def has_add_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser and super().has_delete_permission(request, obj)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    """Staff read accounts here; only superusers add, edit or delete them. Whoever may edit
    an account may make themselves a superuser, or set another player's password and see
    the game through their seat (their own cards among it). Suspensions are an action of
    moderators (moderation/admin.py), which writes the audit log."""

    form = UserChangeFormByEmail
    add_form = UserCreationFormByEmail
    inlines = (EmailAddressInline,)
    list_display = (
        "email",
        "display_name",
        "is_staff",
        "is_active",
        "suspended_until",
        "date_joined",
    )
    list_filter = ("is_staff", "is_superuser", "is_active")
    search_fields = ("email", "display_name")
    ordering = ("email",)
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Profile", {"fields": ("display_name",)}),
        ("Suspension", {"fields": ("suspended_until", "suspension_reason")}),
        (
            "Permissions",
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("email", "display_name", "password1", "password2"),
            },
        ),
    )

    def has_add_permission(self, request) -> bool:
        return request.user.is_superuser and super().has_add_permission(request)

    def has_change_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser and super().has_delete_permission(request, obj)
