"""The only code that changes a game, one module per concern:

- lobby.py: create, join, leave, seat bots, invite, cancel, start
- play.py: a move (a player's, a bot's, a timeout's), taking a seat back, muting
- clock.py: deadlines, timeouts, pauses, extensions
- chat.py: the table's chat
- replays.py: finished and imported games as records to step through, export and import
- notes.py: a player's private notes on cards
- announce.py: which outbox rows (emails, bot moves, analyses) each change writes, and when
- versions.py: the game's version, raised by every change, and what the poll keeps in the cache
- snapshots.py: the engine's state after each move, kept in the cache after the commit

Each change runs in one transaction that locks the game row (`Game.objects.locked`), so
that two requests about the same game (a double click, two tabs, a move racing the deadline
sweep) are applied one after the other and never both. Rules are asked of the engine;
nothing here re-implements one. Errors are games.errors.GameError, worded for the player.
"""
