"""The kind of outbox row the rematches app writes: the invitation email to each person of
the finished table (rematches/services.py writes it, rematches/emails.py sends it).

Its dedupe key is the invitee's id, written once, in the transaction that creates the
invitee: PostgreSQL never hands out the id again, so the key cannot recur and a done row
may be purged at once (outbox/purge.py)."""

from datetime import timedelta

from outbox.registry import register

INVITATION = register(
    "rematch_invitation", "rematch invitation email", key_cannot_recur_after=timedelta(0)
)
