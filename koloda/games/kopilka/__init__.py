"""Kopilka, the no-lose mushka (koloda/rules/kopilka.en.md §Precisely): four players, a pot, four
deals.

The modules: ``table`` (trick rules, the pot, the face-down offer), ``deal`` (one deal:
exchange and play). Here: the match (stakes, four deals, the result) and the options.

Money moves as it happens, through a ``Purse`` the match owns: balances start at 0 and
every payment is between a player and the pot, so pot + balances = 0 at every moment.
"""

from __future__ import annotations

import random
from typing import Any

from koloda.cards import SUITS, deck, shuffle
from koloda.engine.deal import Deal, DealState, deal_round_robin
from koloda.engine.match import Match
from koloda.engine.messages import Reason
from koloda.engine.result import Result, best_seats
from koloda.engine.spec import ActionVocabulary, Bounds, GameSpec, Option, int_range
from koloda.games.kopilka.deal import KopilkaDeal
from koloda.games.kopilka.determinize import determinize
from koloda.games.kopilka.layout import LAYOUT
from koloda.games.kopilka.messages import MESSAGES
from koloda.games.kopilka.table import DEALS, DEFAULT_VALUES, HAND, Purse
from koloda.games.kopilka.views import TERMS, VERBS, VIEWS, KopilkaOutcome, KopilkaSheet

__all__ = ["SPECS", "KopilkaDeal", "KopilkaMatch", "Purse"]


class KopilkaMatch(Match):
    """Four deals around a pot every player stakes into at the start."""

    def setup(self) -> None:
        self.purse = Purse([0] * self.players)
        for s in range(self.players):
            self.purse.pay_in(s, self.options["stake"], "stake")
        vals = self.options["values"]
        self.values = tuple(vals[s] for s in SUITS)
        self.deal_log: list[dict[str, Any]] = []

    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        cards = list(deck(32))
        shuffle(cards, rng)
        hands, talon = deal_round_robin(cards, self.players, dealer, HAND)
        return Deal(dealer, hands, talon, None)

    def start_deal(self, deal: Deal) -> DealState:
        final = len(self.deals) == DEALS
        return KopilkaDeal(deal, self.purse, self.values, self.options["remiz"],
                           self.options["fee"], final)

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, KopilkaDeal)
        self.deal_log.append({
            "dealer": state.dealer, "first_to_shed": state.first_to_shed,
            "blocked": state.blocked, "tricks": [[t.to_json() for t in w] for w in state.won],
            "payments": state.purse.log[state.start_log:],
            "money": list(self.purse.balances), "pot": self.purse.pot})

    def next_dealer(self) -> int | None:
        if self.deals_played >= DEALS:
            return None
        return (self.deals[-1].dealer + 1) % self.players

    def final_result(self, capped: bool) -> Result:
        money = list(self.purse.balances)
        details = {"pot": self.purse.pot, "deals": self.deal_log}
        return Result.of(best_seats(money), self.players, money, capped, details)

    def sheet(self) -> KopilkaSheet:
        return KopilkaSheet(tuple(self.purse.balances), self.purse.pot, self.deals_played)


def _check_values(value: Any, _players: int) -> str | None:
    if set(value) != set(SUITS):
        return Reason("values_each_suit")
    for v in value.values():
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            return Reason("values_whole")
    return None


SPECS = [GameSpec(
    name="kopilka", family="kopilka", variant="classic",
    title_en="Kopilka (the no-lose mushka)", title_ru="Копилка, или беспроигрышная мушка",
    players=(4,), default_players=4, match_class=KopilkaMatch,
    options=(
        Option("stake", 10, "a whole number ≥ 0",
               "what every player pays into the pot at the start of the match",
               "взнос каждого игрока в кассу перед началом партии", int_range(0)),
        Option("fee", 5, "a whole number ≥ 0",
               "paid into the pot after each deal by every player but the first to shed",
               "платёж в кассу после каждой сдачи всеми, кроме первого снёсшего карты",
               int_range(0)),
        Option("remiz", 5, "a whole number ≥ 0",
               "paid into the pot for a deal without a trick, and for a pass while holding "
               "the led suit",
               "ремиз в кассу: за сдачу без взятки и за пас при наличии требуемой масти",
               int_range(0)),
        Option("values", DEFAULT_VALUES,
               'an object with a whole number ≥ 0 for each suit, e.g. '
               '{"H": 4, "C": 3, "D": 2, "S": 1}',
               "what a trick pays by its led suit (a trick won by AS pays double)",
               "цена взятки по масти хода (взятка, покрытая тузом пик, — вдвойне)",
               _check_values, kind=dict),
    ),
    max_deals_default=200,
    summary_en="Four deals, no trumps, AS the mushka; tricks are paid from a pot, the first "
               "to shed his cards in the 4th deal takes what is left.",
    summary_ru="Четыре сдачи без козырей, туз пик — мушка; взятки оплачиваются из кассы, "
               "первый снёсший карты в четвёртой сдаче забирает остаток.",
    aliases=("копилка",),
    determinize=determinize,
    terms=TERMS, verbs=VERBS,
    messages=MESSAGES,
    views=VIEWS, outcome=KopilkaOutcome.from_details,
    # pick 0..7: at most the 8 cards of one suit are offered
    actions=ActionVocabulary(plain=("pass", "draw"), numbers=(("pick", 7),),
                             single=("play", "discard")),
    bounds=Bounds(actions_per_deal=1000), layout=LAYOUT,
    bots={"heuristic": "koloda.bots.heuristic.kopilka:make",
          "search": "koloda.bots.search.games.kopilka:KopilkaSearch"},
    order=3,
)]
