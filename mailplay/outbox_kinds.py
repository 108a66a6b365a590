"""The kinds of outbox row play by email writes: a reply received (mailplay/inbound.py),
processed by mailplay/processing.py, and the answer to it, sent by mailplay/answers.py."""

from outbox.registry import register

INBOUND_EMAIL = register("inbound_email", "a reply to a turn email, to process")
MAIL_ANSWER = register("mail_answer", "the answer to a reply to a turn email")
