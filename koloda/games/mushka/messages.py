"""Mushka's refusal sentences (message key → English, Russian templates): joined to the
catalog of :mod:`koloda.engine.messages` on import and by the registry (``GameSpec.messages``).
"""

from __future__ import annotations

from koloda.engine.messages import register

MESSAGES: dict[str, tuple[str, str]] = {
    "exchange_round_over": ("the exchange round is over: play a card ({action} is not a play)",
                            "обмен окончен: ходите картой ({action} — не ход картой)"),
    "exchange_round_first": ("the exchange round comes first: discard, stand or pass",
                             "сначала обмен: снесите карты, играйте или пасуйте"),
    "ace_of_spades_no_pass": ("you hold AS: a player holding the ace of spades may not pass",
                              "у вас туз пик: с тузом пик пасовать нельзя"),
    "stock_empty": ("the stock is empty: only stand or pass remain",
                    "колода кончилась: остаётся играть или пасовать"),
    "stock_holds_only": ("the stock holds only {n} cards: you may discard at most {n}",
                         "в колоде осталось {n:карта|карты|карт}: снести можно не больше "
                         "{n:карты|карт|карт}"),
    "exchange_round_action": ("{action} is not an action of the exchange round: discard 1–5 "
                              "cards, stand or pass",
                              "{action} — не ход обмена: снесите от 1 до 5 карт, играйте "
                              "или пасуйте"),
}

register(MESSAGES, "mushka")
