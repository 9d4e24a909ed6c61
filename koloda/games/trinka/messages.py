"""Trinka's refusal sentences (message key → English, Russian templates): joined to the
catalog of :mod:`koloda.engine.messages` on import (the game's rules say them) and by the
registry (``GameSpec.messages``).
"""

from __future__ import annotations

from koloda.engine.messages import register

MESSAGES: dict[str, tuple[str, str]] = {
    "trinka_action": ("{action} is not a Trinka action: the only action is 'play C'",
                      "{action} — не ход триньки: в ней только ходят картой (play C)"),
}

register(MESSAGES, "trinka")
