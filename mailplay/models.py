"""Every reply that reaches the site, stored as it came before anything is done with it."""

from django.db import models
from django.db.models import Q


class InboundMessage(models.Model):
    """One email received for a reply address, from the built-in receiver or a provider's
    webhook. Stored (raw bytes, Message-ID, time) in the same transaction as the outbox row
    that processes it, so a crash between the two loses nothing and the same message
    delivered twice is stored once (`dedupe_key`: its Message-ID, or a hash of its bytes)."""

    class Source(models.TextChoices):
        SMTP = "smtp", "built-in receiver (SMTP/LMTP)"
        MAILGUN = "mailgun", "Mailgun"
        POSTMARK = "postmark", "Postmark"
        SENDGRID = "sendgrid", "SendGrid"
        AMAZON_SES = "amazon_ses", "Amazon SES"
        OTHER = "other", "another provider"

    class Status(models.TextChoices):
        RECEIVED = "received", "waiting to be processed"
        MOVED = "moved", "a move was made"
        ANSWERED = "answered", "answered without a move (help, chat, refused, not understood)"
        IGNORED = "ignored", "ignored (unknown address, forged, unreadable)"

    source = models.CharField(max_length=20, choices=Source.choices)
    raw = models.BinaryField()
    message_id = models.CharField(max_length=998, blank=True)
    dedupe_key = models.CharField(max_length=200, unique=True)
    recipient = models.CharField(max_length=320, help_text="The reply address it was sent to.")
    sender = models.CharField(max_length=320, blank=True, help_text="The envelope sender.")
    # What the receiving provider's webhook said of the sender's authentication (its own
    # fields: SPF, DKIM, DMARC verdicts and the envelope sender), read by
    # mailplay/sender_authentication.py. Empty for the built-in receiver.
    provider_verdicts = models.JSONField(default=dict, blank=True)
    received_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RECEIVED)
    processed_at = models.DateTimeField(null=True, blank=True)
    # What happened, in words for the log and the admin (never a hidden card).
    outcome = models.TextField(blank=True)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["received_at"],
                name="inbound_waiting",
                condition=Q(status="received"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_source_display()} message #{self.pk} to {self.recipient}"
