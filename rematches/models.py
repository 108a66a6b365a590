"""A rematch: the same table again, proposed by one of its players under a finished game,
and each other person's answer to it."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy

from games.models import Game


class Rematch(models.Model):
    """The proposal. One per finished game, ever (the one-to-one): a second click under the
    game shows this one. `game` is the new table, an open game whose creator is the
    proposer; it starts when every invitee has accepted, or when the proposer fills the
    empty seats with bots."""

    finished_game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="rematch_proposal"
    )
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch_of")
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rematches_proposed"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"rematch of game {self.finished_game_id} (game {self.game_id})"

    def get_absolute_url(self) -> str:
        return reverse("rematches:detail", args=[self.pk])


class Invitee(models.Model):
    """A person of the finished table asked to play again, and their answer."""

    class Answer(models.TextChoices):
        WAITING = "waiting", gettext_lazy("has not answered yet")
        ACCEPTED = "accepted", gettext_lazy("accepted")
        DECLINED = "declined", gettext_lazy("declined")

    rematch = models.ForeignKey(Rematch, on_delete=models.CASCADE, related_name="invitees")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rematch_invitations"
    )
    answer = models.CharField(max_length=10, choices=Answer.choices, default=Answer.WAITING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rematch", "user"], name="rematch_invitee_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} to {self.rematch}: {self.answer}"
