"""Computer players. A bot sees only its seat's observation, its legal actions and an
explicit random generator — never a game state (the one exception is a measuring bot, the
``clairvoyant``, which the arena alone seats and every log marks as cheating)."""

from koloda.bots.base import Bot, available_bots, make_bot, measuring_bots

__all__ = ["Bot", "available_bots", "make_bot", "measuring_bots"]
