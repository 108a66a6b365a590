"""A deal (options and a deck) that several tables play, the games played on it, who opened
its page, and the bots' scores on it."""

import hashlib
import json

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.engine import GameOptions
from games.models import BotKind, Game


def deal_key(options: dict, deck: list) -> str:
    """The same options and deck always give the same key: a deal is stored once."""
    text = json.dumps({"options": options, "deck": deck}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class Deal(models.Model):
    options = models.JSONField(help_text="The engine's GameOptions.to_dict().")
    deck = models.JSONField(help_text="[[suit, rank], …], top of the deck first.")
    key = models.CharField(max_length=64, unique=True, help_text="deal_key(options, deck).")
    created_at = models.DateTimeField(auto_now_add=True)
    weekly_of = models.DateField(
        null=True, blank=True, unique=True, help_text="The Monday of the week it is the deal of."
    )

    def __str__(self) -> str:
        return f"Deal {self.pk} ({self.game_options.describe()})"

    def get_absolute_url(self) -> str:
        return reverse("deals:detail", args=[self.pk])

    @property
    def game_options(self) -> GameOptions:
        return GameOptions.from_dict(self.options)


class DealGame(models.Model):
    """A game played on a deal: the one it was first shared from, and every table started on
    it since."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="deal_games")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="shared_deal")

    def __str__(self) -> str:
        return f"game {self.game_id} on deal {self.deal_id}"


class DealView(models.Model):
    """Someone opened the deal's page: they have seen its other games, so its deck."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="views")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    first_seen_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deal", "user"], name="deal_view_unique_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} saw deal {self.deal_id}"


# The bots whose tables of bots only play a shared deal (deals/bot_tables.py): the H-Group
# bot plays at a level chosen for a table, so it has no one score for a deal.
DEAL_BOT_KINDS = (BotKind.HOUSE, BotKind.EXPERT)


class DealBotScore(models.Model):
    """What a table of bots of one kind scored on the deal (deals/bot_tables.py)."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="bot_scores")
    bot_kind = models.CharField(
        max_length=10, choices=[(kind.value, kind.label) for kind in DEAL_BOT_KINDS]
    )
    score = models.PositiveSmallIntegerField()
    end = models.CharField(max_length=20, help_text="How the game ended (the engine's End).")
    played_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deal", "bot_kind"], name="deal_bot_score_unique")
        ]

    def __str__(self) -> str:
        return f"{self.bot_kind} bots on deal {self.deal_id}: {self.score}"
