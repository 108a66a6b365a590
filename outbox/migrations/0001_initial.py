"""The outbox models, taken over from the games app with their tables (see games' 0009).
Nothing changes in the database but the content types' app label."""

from django.db import migrations, models

from lib.moved_models import content_types_follow


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0009_outbox_and_moderation_moved_out"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Outbox",
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
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("invitation", "invitation email"),
                                    ("your_turn", "your-turn email"),
                                    ("reminder", "deadline reminder email"),
                                    ("game_over", "game-over email"),
                                    ("digest", "daily digest email"),
                                    ("bot_move", "a bot's move"),
                                    ("suspended", "suspension email"),
                                    ("analysis", "hindsight analysis of a finished game's deal"),
                                    ("login_link", "login link email"),
                                    ("password_reset", "password reset email"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("payload", models.JSONField(default=dict)),
                        (
                            "dedupe_key",
                            models.CharField(
                                blank=True,
                                help_text="When set, one row per kind and key, ever.",
                                max_length=100,
                            ),
                        ),
                        ("due_at", models.DateTimeField()),
                        ("claimed_at", models.DateTimeField(blank=True, null=True)),
                        ("done_at", models.DateTimeField(blank=True, null=True)),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("last_error", models.TextField(blank=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "verbose_name_plural": "outbox",
                        "db_table": "games_outbox",
                        "indexes": [
                            models.Index(
                                condition=models.Q(("done_at", None)),
                                fields=["due_at"],
                                name="outbox_pending",
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("dedupe_key", ""), _negated=True),
                                fields=("kind", "dedupe_key"),
                                name="outbox_dedupe",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        content_types_follow(["outbox"], "games", "outbox"),
    ]
