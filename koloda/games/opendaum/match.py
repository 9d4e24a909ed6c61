"""The Opendaum match (koloda/rules/opendaum.en.md §Precisely): the deck, the deal schedule, the
score sheet, ranks.

Every variant is one ``Variant`` (data) and one match class: the three differ only in the
deck, the shakhi, the follow policy handed to the trick core, the hook rule and the
final-deal scoring of §1c.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from koloda.cards import Card, deck, parse_cards, shuffle, suit_of
from koloda.engine.deal import Deal, DealState, deal_round_robin
from koloda.engine.errors import ConfigError
from koloda.engine.match import Match
from koloda.engine.result import Result, best_seats
from koloda.games.opendaum.deal import OpendaumDeal, score
from koloda.games.opendaum.views import OpendaumSheet, SheetRow
from koloda.ranks import rank_for_total
from koloda.tricks import (
    FollowElseAny,
    FollowElseTrump,
    FollowPolicy,
    OpendaumShakhiPolicy,
    TrickRules,
)


@dataclass(frozen=True)
class Variant:
    """What sets one variant apart; everything else is §1a."""

    name: str
    #: deck size by player count (the classic game's 4 players may choose 32 by option)
    decks: dict[int, int]
    shakhi: frozenset[Card]
    policy: Callable[[Mapping[str, Any]], FollowPolicy]
    #: §1c: the dealer may not make the bids add up to the hand size
    hook: bool = False
    #: §1c: the final deal pays 10 × bid + 10 for a made bid (None: like any other deal)
    final_deal_multiplier: int | None = None
    #: §1c: ranks (разряды) by final total in the result
    ranks: bool = False

    def deck_size(self, players: int, options: Mapping[str, Any]) -> int:
        return int(options.get("deck", self.decks[players]))


CLASSIC = Variant("classic", {2: 32, 3: 36, 4: 36, 5: 30, 6: 36}, frozenset(),
                  lambda _o: FollowElseTrump())
SHAKHI = Variant("shakhi", {2: 34, 3: 36, 4: 36, 5: 30, 6: 36}, frozenset(parse_cards("6S 6C")),
                 lambda o: OpendaumShakhiPolicy(bool(o["ruff_only_when_only_trumps"])))
THIRTY_THREE = Variant("33", {3: 33}, frozenset(parse_cards("6C")), lambda _o: FollowElseAny(),
                       hook=True, final_deal_multiplier=10, ranks=True)


@cache
def schedule(per_hand: int, players: int) -> tuple[int, ...]:
    """Deal sizes over a match: 1..M−1, then M once per player, then M−1..1."""
    m = per_hand
    return (*range(1, m), *([m] * players), *range(m - 1, 0, -1))


def deal_points(bid: int, taken: int, final: bool, variant: Variant, penalty: bool) -> int:
    """§1a: a made bid scores 5 × bid + 5, a missed one 1 per trick taken. §1c's final deal:
    10 × bid + 10; with ``last_deal_penalty`` a miss costs 10 per trick bid but not taken."""
    return score(bid, taken, variant.final_deal_multiplier if final else None, penalty)


_RULES: dict[tuple[str, bool], tuple[TrickRules, ...]] = {}


def trick_rules(variant: Variant, options: Mapping[str, Any]) -> tuple[TrickRules, ...]:
    """The trick core's data for each trump suit, built once per variant and option (the
    rules are immutable, so every match shares them)."""
    key = (variant.name, bool(options.get("ruff_only_when_only_trumps", True)))
    rules = _RULES.get(key)
    if rules is None:
        base = TrickRules(None, variant.policy(options), shakhi=variant.shakhi)
        rules = _RULES[key] = tuple(base.with_trump(s) for s in range(4))
    return rules


class OpendaumMatch(Match):
    """The schedule decides the match: it ends after the last deal (or at ``max_deals``)."""

    variant: Variant = CLASSIC

    def setup(self) -> None:
        n = self.players
        size = self.variant.deck_size(n, self.options)
        self.deck = deck(size)
        self.schedule = schedule(size // n, n)
        self.start = int(self.options.get("start_deal", 0))
        if self.start >= len(self.schedule):
            raise ConfigError("start_deal_schedule", start=self.start, deals=len(self.schedule),
                              last=len(self.schedule) - 1)
        self.rules_by_trump = trick_rules(self.variant, self.options)
        self.penalty = bool(self.options.get("last_deal_penalty", False))
        #: the score sheet's rows as written after each deal; their views are made when
        #: the sheet is first asked for (``sheet()``)
        self.scored: list[tuple[Any, ...]] = []
        self.rows: list[SheetRow] = []
        self.totals = [0] * n
        self._sheet: OpendaumSheet | None = None

    def _position(self) -> int:
        """The schedule position of the next deal to be dealt."""
        return self.start + len(self.deals)

    def deal_cards(self, dealer: int, rng: random.Random) -> Deal:
        cards = list(self.deck)
        shuffle(cards, rng)
        hands, rest = deal_round_robin(cards, self.players, dealer,
                                       self.schedule[self._position()])
        # the top card of the stock is turned; with no stock, the dealer's last card
        return Deal(dealer, hands, rest, rest[0] if rest else hands[dealer][-1])

    @classmethod
    def stock_in_play(cls, shape: Deal) -> int:
        """Only the turned top card: the rest of the stock is never seen nor drawn
        (koloda/rules/opendaum.en.md §Precisely 3)."""
        return min(1, len(shape.stock))

    def start_deal(self, deal: Deal) -> DealState:
        assert deal.trump_card is not None
        return OpendaumDeal(deal, self.rules_by_trump[suit_of(deal.trump_card)],
                            self.variant.hook, self._position() - 1, len(self.schedule),
                            self.variant.final_deal_multiplier, self.options)

    def end_deal(self, state: DealState) -> None:
        assert isinstance(state, OpendaumDeal)
        final = state.position == len(self.schedule) - 1
        bids = [b if b is not None else 0 for b in state.bids]
        points = [deal_points(b, t, final, self.variant, self.penalty)
                  for b, t in zip(bids, state.tricks, strict=True)]
        for s, p in enumerate(points):
            self.totals[s] += p
        self.scored.append((state.position, state.dealer, state.size, suit_of(state.trump_card),
                            tuple(bids), tuple(state.tricks), tuple(points)))
        self._sheet = None

    def next_dealer(self) -> int | None:
        if self._position() >= len(self.schedule):
            return None
        return (self.deals[-1].dealer + 1) % self.players

    def final_result(self, capped: bool) -> Result:
        details: dict[str, Any] = {"deals": [row.to_json() for row in self.sheet().deals],
                                   "schedule": list(self.schedule), "start_deal": self.start}
        if self.variant.ranks:
            details["ranks"] = [rank_for_total(t).to_json() for t in self.totals]
        return Result.of(best_seats(self.totals), self.players, self.totals, capped, details)

    def sheet(self) -> OpendaumSheet:
        """Per deal: cards each, trump suit, bids, tricks and points; then the totals (made
        when asked, then the same view until the next deal is scored)."""
        sheet = self._sheet
        if sheet is None:
            rows = self.rows
            rows.extend(SheetRow(*r) for r in self.scored[len(rows):])
            sheet = self._sheet = OpendaumSheet(tuple(rows), tuple(self.totals))
        return sheet


class ClassicMatch(OpendaumMatch):
    variant = CLASSIC


class ShakhiMatch(OpendaumMatch):
    variant = SHAKHI


class ThirtyThreeMatch(OpendaumMatch):
    variant = THIRTY_THREE
