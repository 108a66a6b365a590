"""The emails accounts send, each the handler of one kind of outbox row, written by the
request that asks for it and sent by a worker after commit, like every email of the site.

allauth's emails (verification, login code, password reset, notices of a changed address
or password) are rendered by accounts/adapter.py in the request and sent here."""

from accounts import outbox_kinds
from lib.emails import send_rendered
from outbox.models import Outbox
from outbox.registry import handler


@handler(outbox_kinds.ACCOUNT_EMAIL)
def send_account_email(row: Outbox) -> None:
    payload = row.payload
    if not payload.get("to"):
        return  # already sent, and blanked
    send_rendered(payload["subject"], payload["text"], payload["html"], payload["to"])
    # The message held a code or a key: once sent, the row keeps only what kind it was.
    Outbox.objects.filter(pk=row.pk).update(payload={"template": payload.get("template", "")})
