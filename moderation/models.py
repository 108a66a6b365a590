"""Reports from players, and the audit log of what moderators did."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import ChatMessage, Game


class Report(models.Model):
    """A player asks the moderators to look at a message, a player or a game."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        RESOLVED = "resolved", "resolved"

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_made"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reports")
    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, null=True, blank=True)
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports_against",
    )
    reason = models.CharField(max_length=1000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    note = models.TextField(blank=True, help_text="The moderator's note on the resolution.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_report"  # created by the games app before moderation moved out
        indexes = [
            models.Index(fields=["created_at"], name="report_open", condition=Q(status="open")),
        ]

    def __str__(self) -> str:
        return f"report {self.pk} on game {self.game_id} by {self.reporter}"


class ModeratorAction(models.Model):
    """The audit log: every moderator action, who did it, when, to what, and why."""

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderator_actions"
    )
    action = models.CharField(max_length=30)
    description = models.CharField(
        max_length=200, help_text="What players see, e.g. 'extended the deadline by 24 hours'."
    )
    reason = models.CharField(max_length=500)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="moderator_actions"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderated",
        help_text="The user acted upon, if any.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_moderatoraction"  # created by the games app before moderation moved out
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["game", "created_at"], name="modaction_by_game")]

    def __str__(self) -> str:
        return f"{self.moderator} {self.description}"
