"""The outbox and moderation became apps of their own (outbox/, moderation/). Their tables
stay where they are, under the same names: the games app forgets the models, and the new
apps' first migrations take them over, changing nothing in the database."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_analyse_finished_games"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="moderatoraction",
                    name="game",
                ),
                migrations.RemoveField(
                    model_name="moderatoraction",
                    name="moderator",
                ),
                migrations.RemoveField(
                    model_name="moderatoraction",
                    name="user",
                ),
                migrations.DeleteModel(
                    name="Outbox",
                ),
                migrations.RemoveField(
                    model_name="report",
                    name="game",
                ),
                migrations.RemoveField(
                    model_name="report",
                    name="message",
                ),
                migrations.RemoveField(
                    model_name="report",
                    name="reported_user",
                ),
                migrations.RemoveField(
                    model_name="report",
                    name="reporter",
                ),
                migrations.DeleteModel(
                    name="ModeratorAction",
                ),
                migrations.DeleteModel(
                    name="Report",
                ),
            ],
            database_operations=[],
        ),
    ]
