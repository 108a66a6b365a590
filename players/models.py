"""What a player's profile shows, kept up to date as each game ends (players/stats.py).

Every figure is an aggregate stored per person, so that a profile costs the same few queries
however many games its player has finished: VariantStats per variant and table size,
PartnerStats per partner, the streaks on PlayerProfile; GameRecord is one row per person
per finished game, indexed for the history's filters. All of it can be recomputed from the
finished games (`manage.py rebuild_player_stats`).
"""

from django.conf import settings
from django.db import models


class PlayerProfile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="player_profile",
    )
    hidden = models.BooleanField(
        default=False, help_text="Only its owner sees the profile and the history."
    )
    current_streak = models.PositiveIntegerField(default=0, help_text="Won games in a row, now.")
    best_streak = models.PositiveIntegerField(default=0, help_text="The longest run of won games.")

    def __str__(self) -> str:
        return f"profile of user {self.user_id}"


class VariantStats(models.Model):
    """One person's games of one variant at one table size."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="variant_stats"
    )
    variant = models.CharField(max_length=80)
    player_count = models.PositiveSmallIntegerField()
    max_score = models.PositiveSmallIntegerField()
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    total_score = models.PositiveIntegerField(default=0)
    best_score = models.PositiveSmallIntegerField(default=0)
    perfect = models.PositiveIntegerField(default=0)
    strikeouts = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant", "player_count"], name="variant_stats_unique"
            )
        ]

    def __str__(self) -> str:
        return f"user {self.user_id}: {self.variant}, {self.player_count} players"

    @property
    def average(self) -> float | None:
        return self.total_score / self.played if self.played else None


class PartnerStats(models.Model):
    """How one person's teams with one partner (another person at the table) scored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="partner_stats"
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    total_score = models.PositiveIntegerField(default=0)
    best_score = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "partner"], name="partner_stats_unique")
        ]
        # The profile's "frequent partners": a player's partners, most games first.
        indexes = [models.Index(fields=["user", "-played"], name="partner_stats_frequent")]

    def __str__(self) -> str:
        return f"user {self.user_id} with {self.partner_id}"

    @property
    def average(self) -> float | None:
        return self.total_score / self.played if self.played else None


class GameRecord(models.Model):
    """One person's finished game, copied from Game so that the history filters and pages
    on one indexed table of that person's rows."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()
    variant = models.CharField(max_length=80)
    player_count = models.PositiveSmallIntegerField()
    score = models.PositiveSmallIntegerField()
    max_score = models.PositiveSmallIntegerField()
    end = models.CharField(max_length=20)
    won = models.BooleanField()
    struck_out = models.BooleanField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="game_record_unique")]
        indexes = [
            # The history's order (newest first), and its date range.
            models.Index(fields=["user", "-finished_at", "-game"], name="game_record_history"),
            # The history filtered by variant and table size.
            models.Index(
                fields=["user", "variant", "player_count", "-finished_at"],
                name="game_record_variant",
            ),
        ]

    def __str__(self) -> str:
        return f"user {self.user_id}, game {self.game_id}"

    @property
    def result_word(self) -> str:
        if self.won:
            return "won"
        if self.struck_out:
            return "struck out"
        return "timed out" if self.end == "timed_out" else "lost"
