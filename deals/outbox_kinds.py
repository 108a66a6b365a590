"""The kind of outbox row the deals app writes: a table of bots plays a shared deal.

A 2-player table of house bots searches its endgame and can take several seconds of CPU, so
these rows run on a queue of their own (the Procfile's `deals` worker): a bot's move or a
turn email never waits behind one. Written once per (deal, bot kind) when the deal is first
stored (deals/services.py), with that as its dedupe key: a deal's id is never handed out
twice, so the key cannot come again once the row is done.
"""

from datetime import timedelta

from outbox.registry import register

BOT_TABLE = register(
    "deal_bot_table",
    "a table of bots plays a shared deal",
    queue="deals",
    key_cannot_recur_after=timedelta(0),
)
