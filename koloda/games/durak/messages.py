"""Durak's refusal sentences (message key → English, Russian templates): joined to the
catalog of :mod:`koloda.engine.messages` on import (the rules say them, also in a game
built by hand without the registry) and by the registry (``GameSpec.messages``).
"""

from __future__ import annotations

from koloda.engine.messages import register

MESSAGES: dict[str, tuple[str, str]] = {
    "durak_verb": ("'{verb}' is not a durak action; durak actions: {verbs}",
                   "«{verb}» — не ход дурака; ходы дурака: {verbs}"),
    "transfer_only_perevodnoy": ("transfer is played only in transfer durak "
                                 "(durak-perevodnoy)",
                                 "переводят только в переводного дурака (durak-perevodnoy)"),
    "open_round": ("seat {seat} must open the round: attack with one or more cards of one "
                   "rank (no {verb} before the attack)",
                   "место {seat} должно начать отбой: ходите одной или несколькими картами "
                   "одного достоинства (до хода нельзя «{verb}»)"),
    "card_uncovered": ("nobody throws in (or passes) while a card is uncovered: seat {seat} "
                       "must beat or take",
                       "пока карта не побита, не подкидывают и не пасуют: место {seat} "
                       "должно побить или взять"),
    "round_opened_defend": ("the round is already opened: the defender must beat or take",
                            "ход уже сделан: отбивающийся должен побить или взять"),
    "round_opened_throw": ("the round is already opened: throw in cards of ranks on the "
                           "table, or pass",
                           "ход уже сделан: подкиньте карты тех достоинств, что на столе, "
                           "или пасуйте"),
    "transfer_after_take": ("a transfer is not allowed after take",
                            "после «взять» переводить нельзя"),
    "transfer_before_beat": ("a transfer is allowed only while no attack card has been beaten",
                             "переводить можно, только пока ни одна карта хода не побита"),
    "already_taken": ("seat {seat} has already taken: the attackers throw in or pass",
                      "место {seat} уже берёт: нападающие подкидывают или пасуют"),
    "all_covered": ("every card is covered: {verb} is not possible; the attackers throw in or "
                    "pass",
                    "все карты побиты: «{verb}» невозможно; нападающие подкидывают или "
                    "пасуют"),
    "not_uncovered": ("{card} is not an uncovered attack card; uncovered: {cards}",
                      "{card} — не карта хода, ждущая отбоя; не побиты: {cards}"),
    "trump_beaten_by_trump": ("{b} does not beat {a}: a trump is beaten only by a higher trump "
                              "({suit})",
                              "{b} не бьёт {a}: козырь бьют только старшим козырем "
                              "({suit})"),
    "cover_higher": ("{b} does not beat {a}: cover with a higher {suit} card or any trump "
                     "({trump})",
                     "{b} не бьёт {a}: бейте старшей картой той же масти ({suit}) или "
                     "любым козырем ({trump})"),
    "attack_one_rank": ("an attack is one or more cards of one rank",
                        "ход — одна или несколько карт одного достоинства"),
    "throw_ranks": ("you may throw in only ranks already on the table ({ranks}), not {cards}",
                    "подкидывать можно только достоинства, что уже на столе ({ranks}), "
                    "а не {cards}"),
    "round_limit": ("the limit of this round is {limit} attack cards (at most {cap}, and never "
                    "more than the {start} cards seat {seat} held when defending began): "
                    "{total} is too many",
                    "в этом отбое не больше {limit:карты|карт|карт} хода (не больше {cap} "
                    "и не больше, чем {start:карта|карты|карт} у места {seat} в начале "
                    "защиты): {total} — слишком много"),
    "transfer_rank": ("a transfer adds cards of the attack rank ({rank}) only",
                      "переводят только картами того же достоинства, что и ход ({rank})"),
    "transfer_too_many": ("seat {seat} would defend next but holds only {held} cards: a "
                          "transfer may not put more attack cards on the table ({total}) "
                          "than the new defender holds",
                          "отбиваться пришлось бы месту {seat}, а у него только "
                          "{held:карта|карты|карт}: после перевода карт хода ({total}) не "
                          "может быть больше, чем у нового отбивающегося"),
    "transfer_limit": ("the limit is {cap} attack cards in a round: {total} is too many",
                       "в отбое не больше {cap:карты|карт|карт} хода: {total} — слишком "
                       "много"),
    "teams_players": ("teams play only with 4 (2 vs 2) or 6 (3 vs 3) players",
                      "командами играют только вчетвером (2 на 2) или вшестером (3 на 3)"),
}

register(MESSAGES, "durak")
