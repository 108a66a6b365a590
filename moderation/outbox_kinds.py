"""The kind of outbox row the moderation app writes (moderation/services.py: suspend_user),
sent by moderation/emails.py."""

from outbox.registry import register

SUSPENDED = register("suspended", "suspension email")
