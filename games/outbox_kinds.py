"""The kinds of outbox row the games app writes (games/services/announce.py says when), each
carried out by a handler in games/emails.py, games/tasks.py or games/hindsight.py.

The analysis of a finished game's deal is a CPU search of up to ANALYSIS_TIME_LIMIT_SECONDS:
its rows run on a queue of their own (the Procfile's `analysis` worker), so that a bot's
move or a turn email never waits behind one.

Two kinds are written with a dedupe key that can never come back once their row is done
(outbox/purge.py explains why this matters):

* `analysis` (key: the game) and `game_over` (key: game and player): written only by
  `announce.game_over()`, which runs in the transaction that moves a game from playing to
  finished, under the game's lock (`play.apply_action` at the last move, and
  `clock._end_timed_out`, both of which first check that the game is in play). Finished is
  final: nothing sets a finished game's status again, and PostgreSQL never hands out a game
  id twice. So the key cannot come again, after a week or ever, and the row may go with
  the others. (A future data migration that looks for finished games without an analysis,
  as games/migrations/0008 did, must look at `DealAnalysis`, not at the outbox.)
* `digest` (key: player and the UTC day `games.tasks.daily_digest` ran on): the same key
  does come again the same day, whenever the task runs more than once (beat restarted, a
  retry, an operator), and must then find the row. It cannot once the day is over, since
  the day is today's date. A row is done after it is written, so a row done more than two
  days ago (one for the day, one for clocks that disagree) has a key that is past: the
  digest's rows are kept at least that long, whatever the purge's `older_than` says.
"""

from datetime import timedelta

from outbox.registry import register

INVITATION = register("invitation", "invitation email")
YOUR_TURN = register("your_turn", "your-turn email")
REMINDER = register("reminder", "deadline reminder email")
GAME_OVER = register("game_over", "game-over email", key_cannot_recur_after=timedelta(0))
DIGEST = register("digest", "daily digest email", key_cannot_recur_after=timedelta(days=2))
BOT_MOVE = register("bot_move", "a bot's move")
ANALYSIS = register(
    "analysis",
    "hindsight analysis of a finished game's deal",
    queue="analysis",
    key_cannot_recur_after=timedelta(0),
)
