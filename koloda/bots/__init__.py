"""Computer players. A bot sees only its seat's observation, its legal actions and an
explicit random generator — never a game state."""

from koloda.bots.base import Bot, available_bots, make_bot

__all__ = ["Bot", "available_bots", "make_bot"]
