"""Kopilka's refusal sentences (message key → English, Russian templates): joined to the
catalog of :mod:`koloda.engine.messages` on import and by the registry (``GameSpec.messages``).
"""

from __future__ import annotations

from koloda.engine.messages import register

MESSAGES: dict[str, tuple[str, str]] = {
    "offer_pick": ("seat {seat} offers {n} cards face down: take one with 'pick K'",
                   "место {seat} выкладывает {n:карту|карты|карт} рубашкой вверх: возьмите "
                   "одну (pick K)"),
    "positions_only": ("there are only positions 0..{last}",
                       "есть только места от 0 до {last}"),
    "position_taken": ("position {k} is already taken", "карту с места {k} уже взяли"),
    "picked_discard": ("you picked a card: now discard one card face down ('discard C')",
                       "вы взяли карту: теперь снесите одну карту рубашкой вверх "
                       "(discard C)"),
    "discard_exactly_one": ("discard exactly one card", "снесите ровно одну карту"),
    "exchange_over_kopilka": ("the exchange is over: play, pass or draw",
                              "обмен окончен: ходите, пасуйте или добирайте"),
    "leader_plays": ("you lead: play a card (the leader never passes or draws)",
                     "ваш ход первым: ходите картой (первый не пасует и не добирает)"),
    "draw_only_void": ("you may draw only while void in {suit}: you hold {cards}",
                       "добирать можно, только когда нет {suit:gen}: у вас есть {cards}"),
    "talon_empty": ("the talon is empty: nothing to draw",
                    "прикуп пуст: добирать нечего"),
    "kopilka_not_now": ("{action} is not a move now: play {suit} or AS, pass or draw",
                        "{action} сейчас не ход: ходите в {suit} или тузом пик, пасуйте "
                        "или добирайте"),
    "no_banned_lead": ("may not lead {suit}, the suit of the last trick",
                       "нельзя ходить в {suit}: это масть прошлой взятки"),
    "kopilka_follow": ("must play {suit} or AS, pass or draw",
                       "нужно ходить в {suit} или тузом пик, пасовать или добирать"),
    # the option values
    "values_each_suit": ("give a value for each suit S, C, D, H and nothing else",
                         "нужна цена для каждой масти (S, C, D, H) и больше ничего"),
    "values_whole": ("every value must be a whole number ≥ 0",
                     "каждая цена — целое число ≥ 0"),
}

register(MESSAGES, "kopilka")
