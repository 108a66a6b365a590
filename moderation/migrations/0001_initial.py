"""The moderation models, taken over from the games app with their tables (see games' 0009).
Nothing changes in the database but the content types' app label."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from lib.moved_models import content_types_follow


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0009_outbox_and_moderation_moved_out"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ModeratorAction",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("action", models.CharField(max_length=30)),
                        (
                            "description",
                            models.CharField(
                                help_text="What players see, e.g. 'extended the deadline by 24 hours'.",
                                max_length=200,
                            ),
                        ),
                        ("reason", models.CharField(max_length=500)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "game",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="moderator_actions",
                                to="games.game",
                            ),
                        ),
                        (
                            "moderator",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="moderator_actions",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                help_text="The user acted upon, if any.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="moderated",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_moderatoraction",
                        "ordering": ["-created_at"],
                        "indexes": [
                            models.Index(fields=["game", "created_at"], name="modaction_by_game")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Report",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("reason", models.CharField(max_length=1000)),
                        (
                            "status",
                            models.CharField(
                                choices=[("open", "open"), ("resolved", "resolved")],
                                default="open",
                                max_length=10,
                            ),
                        ),
                        (
                            "note",
                            models.TextField(
                                blank=True, help_text="The moderator's note on the resolution."
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports",
                                to="games.game",
                            ),
                        ),
                        (
                            "message",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                to="games.chatmessage",
                            ),
                        ),
                        (
                            "reported_user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="reports_against",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "reporter",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="reports_made",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_report",
                        "indexes": [
                            models.Index(
                                condition=models.Q(("status", "open")),
                                fields=["created_at"],
                                name="report_open",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        content_types_follow(["report", "moderatoraction"], "games", "moderation"),
    ]
