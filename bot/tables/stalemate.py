"""A round nobody can finish: the engine decides (bot/engine/stalemate.py); tables ask it."""

from bot.engine.stalemate import end_stalled, stall_winner, stalled

__all__ = ["end_stalled", "stall_winner", "stalled"]
