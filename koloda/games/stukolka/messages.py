"""Stukolka's refusal sentences (message key → English, Russian templates): joined to the
catalog of :mod:`koloda.engine.messages` on import (the game's rules say them) and by the
registry (``GameSpec.messages``).
"""

from __future__ import annotations

from koloda.engine.messages import register

MESSAGES: dict[str, tuple[str, str]] = {
    "golets_taken": ("the golets is taken already (by seat {seat})",
                     "гольца уже объявили (место {seat})"),
    "declare_first": ("declare first: 'knock' to play, 'drop' to fold or 'golets'",
                      "сначала объявите: стучу (knock) — играть, пас (drop) или голец "
                      "(golets)"),
    "stukolka_declaration": ("{action} is not a Stukolka declaration: knock, drop or golets",
                             "{action} — не объявление стуколки: стучу (knock), пас (drop) "
                             "или голец (golets)"),
    "declarations_over": ("the declarations are over: play a card",
                          "объявления сделаны: ходите картой"),
    "stukolka_action": ("{action} is not a Stukolka action: the play is 'play C'",
                        "{action} — не ход стуколки: ходят картой (play C)"),
    "trump_ace_lead": ("the trump ace must be led by its holder",
                       "у кого козырный туз, тот им и ходит"),
}

register(MESSAGES, "stukolka")
