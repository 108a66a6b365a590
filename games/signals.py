"""What games tells the apps above it, which it cannot import (tests/test_layers.py)."""

from django.dispatch import Signal

# Sent inside the transaction of the move that finishes a game, after its summary (score,
# end, status, finished_at) is saved, with `game`, `state` (the engine's, at the end) and
# `seats` (the game's seats, or None): a receiver's writes commit or roll back with the move.
game_finished = Signal()
