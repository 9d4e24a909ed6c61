"""Dreyfus's refusal sentences (message key → English, Russian templates): joined to the
catalog of :mod:`koloda.engine.messages` on import (the game's rules say them) and by the
registry (``GameSpec.messages``).
"""

from __future__ import annotations

from koloda.engine.messages import register

MESSAGES: dict[str, tuple[str, str]] = {
    "dreyfus_exchange_first": ("the exchange comes first: 'discard C…' to buy from the widow, "
                               "or 'stand'",
                               "сначала обмен: снесите карты и купите из прикупа "
                               "(discard C…) или играйте (stand)"),
    "dreyfus_exchange_action": ("{action} is not a Dreyfus exchange action: 'discard C…' or "
                                "'stand'",
                                "{action} — не ход обмена в дрейфусе: discard C… или stand"),
    "widow_only": ("only {n} card(s) are left in the widow",
                   "в прикупе осталось только {n:карта|карты|карт}"),
    "widow_only_discard": ("only {n} card(s) are left in the widow: discard at most {n}",
                           "в прикупе осталось только {n:карта|карты|карт}: снести можно "
                           "не больше {n:карты|карт|карт}"),
    "exchange_over": ("the exchange is over: play a card", "обмен окончен: ходите картой"),
    "dreyfus_action": ("{action} is not a Dreyfus action: the play is 'play C'",
                       "{action} — не ход дрейфуса: ходят картой (play C)"),
}

register(MESSAGES, "dreyfus")
