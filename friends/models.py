"""A friendship: one person bookmarks another (one direction: the friend is not told and
need not agree), so that they are offered first when inviting."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Friendship(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friendships"
    )
    friend = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="befriended_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "friend"], name="friendship_unique"),
            models.CheckConstraint(condition=~Q(user=F("friend")), name="friendship_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.friend}"
