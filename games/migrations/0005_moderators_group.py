from django.db import migrations

# What a moderator may do in the admin: look at games, moves, chat, reports and users, and
# act through the moderation actions (which need games.moderate_game). Not a superuser.
MODERATOR_PERMISSIONS = [
    ("games", "game", "view_game"),
    ("games", "game", "moderate_game"),
    ("games", "move", "view_move"),
    ("games", "seat", "view_seat"),
    ("games", "chatmessage", "view_chatmessage"),
    ("games", "report", "view_report"),
    ("games", "moderatoraction", "view_moderatoraction"),
    ("accounts", "user", "view_user"),
]


def create_moderators_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations; this group needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Moderators")
    for app_label, model, codename in MODERATOR_PERMISSIONS:
        group.permissions.add(
            Permission.objects.get(
                content_type__app_label=app_label, content_type__model=model, codename=codename
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_moderation"),
        ("accounts", "0003_deadlines_and_notifications"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_moderators_group, migrations.RunPython.noop)]
