"""The Moderators group: staff who look after games from the admin, without being
superusers. It is made (or completed) after every migrate, and after the test database is
flushed, which would lose rows a data migration made."""

from django.contrib.auth.models import Group, Permission

MODERATORS = "Moderators"
# Look at games, moves, seats, chat, reports, users and the audit log; act through the
# moderation actions, which need games.moderate_game.
PERMISSIONS = [
    ("games", "view_game"),
    ("games", "moderate_game"),
    ("games", "view_move"),
    ("games", "view_seat"),
    ("games", "view_chatmessage"),
    ("moderation", "view_report"),
    ("moderation", "view_moderatoraction"),
    ("accounts", "view_user"),
]


def ensure_moderators_group(**kwargs) -> None:
    group, _ = Group.objects.get_or_create(name=MODERATORS)
    permissions = [
        Permission.objects.get(content_type__app_label=app_label, codename=codename)
        for app_label, codename in PERMISSIONS
    ]
    group.permissions.add(*permissions)
