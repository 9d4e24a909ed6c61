"""A durak match (koloda/rules/durak.en.md §Precisely 13, 20, 22): games one after another.

Each game is one deal. The first dealer is drawn by lot; afterwards the durak deals and the
player on the durak's left attacks first. After a draw the dealer is drawn by lot again
(the match's generator) and the game opens like a first game: lowest trump attacks.
The score of a seat is the number of games its side lost.
"""

from __future__ import annotations

import random
from typing import Any

from koloda.cards import deck, shuffle
from koloda.engine.deal import Deal, DealState, deal_round_robin
from koloda.engine.match import Match
from koloda.engine.result import Result, best_seats
from koloda.games.durak.rounds import HAND_SIZE, DurakGame, lowest_trump_holder
from koloda.games.durak.views import DurakSheet


class DurakMatch(Match):
    """Simple (throw-in) durak; ``PerevodnoyMatch`` adds transfers."""

    transfer = False

    def setup(self) -> None:
        self.losses = [0] * self.players
        self.games: list[dict[str, Any]] = []
        #: the durak of the previous game; None before the first game and after a draw
        self.prev_durak: int | None = None

    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        """Six each, one at a time; the next card (the stock's last) shows trump.

        With six players the whole deck is dealt and the dealer's last card shows trump.
        """
        cards = list(deck(36))
        shuffle(cards, rng)
        hands, rest = deal_round_robin(cards, self.players, dealer, HAND_SIZE)
        trump = rest[-1] if rest else hands[dealer][-1]
        return Deal(dealer, hands, rest, trump)

    def start_deal(self, deal: Deal) -> DealState:
        if self.prev_durak is None:
            first = lowest_trump_holder(deal)
        else:
            first = (self.prev_durak + 1) % self.players
        return DurakGame(deal, teams=self.options["teams"],
                         first_bout_limit=self.options["first_bout_limit"],
                         transfer=self.transfer, first_attacker=first,
                         lowest_trump_opening=self.prev_durak is None)

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, DurakGame)
        durak = state.durak
        if durak is None:
            losers: list[int] = []
        elif state.teams:
            losers = [s for s in range(self.players) if state.side[s] == state.side[durak]]
        else:
            losers = [durak]
        for s in losers:
            self.losses[s] += 1
        self.games.append({
            "dealer": state.dealer, "first_attacker": state.first_attacker,
            "durak": durak, "losers": losers, "left_holding_cards": state.still_in,
            "draw": durak is None, "epaulettes": state.epaulettes, "rounds": state.rounds,
        })
        self.prev_durak = durak

    def next_dealer(self) -> int | None:
        if len(self.games) >= self.options["games"]:
            return None
        if self.prev_durak is not None:
            return self.prev_durak          # the durak deals
        if self.rng is not None:
            return self.rng.randrange(self.players)   # after a draw: by lot
        nxt = len(self.deals)               # no generator: the record's deal says who
        return self._explicit[nxt].dealer if nxt < len(self._explicit) else 0

    def final_result(self, capped: bool) -> Result:
        scores = list(self.losses)
        last = self.games[-1] if self.games else {}
        details = {"games": self.games, "durak": last.get("durak"),
                   "epaulettes": bool(last.get("epaulettes")),
                   "epaulettes_ru": "дурак с погонами" if last.get("epaulettes") else None}
        if len(set(scores)) == 1:           # nobody lost more: a draw
            return Result.of([], self.players, scores, capped, details)
        return Result.of(best_seats(scores, higher_is_better=False), self.players, scores,
                         capped, details)

    def sheet(self) -> DurakSheet:
        losses = tuple(self.losses)
        sheet: DurakSheet | None = self.__dict__.get("_sheet")
        if sheet is None or sheet.losses != losses or sheet.games_played != len(self.games):
            # the same view until a game is scored
            sheet = self._sheet = DurakSheet(games_played=len(self.games),
                                             games=self.options["games"], losses=losses)
        return sheet


class PerevodnoyMatch(DurakMatch):
    """Transfer durak (§8b): the defender may pass the attack on."""

    transfer = True
