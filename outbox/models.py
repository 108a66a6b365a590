"""The outbox: one row per side effect (an email, a bot's move, an analysis), written in the
same transaction as the change that causes it."""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Outbox(models.Model):
    """A side effect to carry out after the transaction that caused it commits.

    Written in the same transaction as the change; a Celery task claims the row and does
    the work; the sweep re-enqueues rows that are due and unclaimed, so a broker outage or
    a crashed worker delays the work and never loses it. Each kind, and its handler, is
    registered by the app that writes it (outbox/registry.py).
    """

    # Each app registers the kinds it writes (outbox/registry.py): no choices here, so that
    # a new kind needs no migration of the outbox.
    kind = models.CharField(max_length=20)
    payload = models.JSONField(default=dict)
    dedupe_key = models.CharField(
        max_length=100, blank=True, help_text="When set, one row per kind and key, ever."
    )
    due_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The table the games app created before the outbox became an app of its own.
        db_table = "games_outbox"
        verbose_name_plural = "outbox"
        indexes = [
            models.Index(fields=["due_at"], name="outbox_pending", condition=Q(done_at=None)),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "dedupe_key"], name="outbox_dedupe", condition=~Q(dedupe_key="")
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"

    def message_id(self) -> str:
        """The Message-ID of this row's email, the same at every attempt: a message sent
        again after a crash is recognisably the one already received. The creation time
        keeps it unique when a database is recreated and its ids start again."""
        domain = settings.MAIL_DOMAIN
        return f"<outbox-{self.pk}-{self.kind}-{self.created_at:%Y%m%d%H%M%S%f}@{domain}>"
