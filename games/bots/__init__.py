"""Seat policies over the engine's per-player view: a bot sees exactly what its seat may see."""

from .policy import choose_action as choose_action
