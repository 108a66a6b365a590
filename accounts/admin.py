from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from accounts.models import User
from games import services
from games.admin import ModeratedAdmin, ReasonForm, moderation_action


class UserChangeFormByEmail(UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = User
        fields = "__all__"


class UserCreationFormByEmail(AdminUserCreationForm):
    class Meta(AdminUserCreationForm.Meta):
        model = User
        fields = ("email", "display_name")


class SuspendForm(ReasonForm):
    days = forms.TypedChoiceField(
        label="For",
        choices=[(1, "1 day"), (7, "1 week"), (30, "30 days"), (365, "1 year")],
        coerce=int,
    )


@admin.register(User)
class UserAdmin(ModeratedAdmin, DjangoUserAdmin):
    form = UserChangeFormByEmail
    add_form = UserCreationFormByEmail
    list_display = (
        "email",
        "display_name",
        "is_staff",
        "is_active",
        "suspended_until",
        "date_joined",
    )
    list_filter = ("is_staff", "is_superuser", "is_active")
    actions = ["suspend"]

    suspend = moderation_action(
        "Suspend (with a reason; they are told by email)",
        lambda user, moderator, reason, days: services.suspend_user(
            user.pk, moderator, reason, days
        ),
        form_class=SuspendForm,
    )

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
