"""The Opendaum search bot: Monte Carlo over determinizations with heuristic playouts.

Why not the generic ISMCTS with random playouts: a bid is worth something only if the
deal is then played to make it, and random play makes every bid look alike (it takes a
random number of tricks). Here each candidate action — a bid or a card — is tried on the
same sampled deals (common random numbers: the differences between actions are not
drowned by the luck of the deal), every seat then plays on with the heuristic policy
(``koloda.bots.heuristic.opendaum.rollout``: bid from the hand, play to make the bid
exactly), and the action with the best mean of the seat's deal points is chosen; ties go
to the heuristic's own choice. A bid is thus chosen by how many tricks this hand really
takes when played for that bid, from this seat, after and before these bids — and valued
by the game's own measure, the share of bids made (``bid_points_weight``): a rollout is
worth 1 if the bid was made, plus a little of its points, so the bid most likely to be made
exactly wins and the points only part near-ties.

In card play the other seats' bids and plays are evidence about their hands
(``evidence``): a sampled deal counts less for each of them the heuristic would not have
made holding the hand the sample gives that seat (``misfits``).

Determinizations come from the game's own determinizer (voids, cards played, the trump
card, hand sizes), prepared once per decision from the typed observation and sampled many
times (or resampled by their evidence, ``resample``: off, docs/strength/opendaum.md).

The shakhi variant rolls out by its own faster loop (``opendaum_rollout``: the same cards
as the heuristic's rollout through the deal state) and samples 0.8 of the deals
(``VARIANT_SHARES``), so its moves keep to the time of the other variants.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from koloda.bots.heuristic.opendaum import (
    BIT,
    OpendaumHeuristic,
    expected_tricks,
    mask,
)
from koloda.bots.search.flat import MIN_DEALS, FlatMonteCarlo
from koloda.bots.search.games.opendaum_evidence import misfits_below
from koloda.bots.search.games.opendaum_rollout import rollout as fast_rollout
from koloda.cards import Card, deck
from koloda.engine.view import Observation
from koloda.games.opendaum.deal import OpendaumDeal
from koloda.games.opendaum.determinize import Template, prepare
from koloda.games.opendaum.match import trick_rules
from koloda.games.opendaum.views import OpendaumView
from koloda.tricks import PLAY_ACTION, TrickRules

#: the most deals one decision samples: reached only late in a deal (a few cards, a few
#: candidates), where 2 000 deals chose the same cards as 500 (docs/strength/opendaum.md)
MAX_DEALS = 500
#: the deals of a variant whose decisions cost more: the shakhi variant's, with its wild
#: plays and its ruff rule, about 2.5× a classic decision's CPU through the deal state and
#: still about 1.7× with its own faster rollout (``opendaum_rollout``); 0.8 of the deals
#: (docs/strength/opendaum.md)
VARIANT_SHARES: Mapping[str, float] = MappingProxyType({"shakhi": 0.8})
#: a variant's share never cuts a decision below this many deals
SHARE_FLOOR = 64


class OpendaumSearch(FlatMonteCarlo[OpendaumDeal]):
    """Flat Monte Carlo (``koloda.bots.search.flat``): every legal action, a
    determinization template prepared once per decision, the budget in cards played (see
    ``normal_iterations``), the rollouts on the decision's own generator."""

    #: in cards played in rollouts: a decision's deals are this over (candidates × cards
    #: in hand), so a bid of nine cards and a last trick take about the same time
    normal_iterations: ClassVar[int] = 12000
    fresh_rollout_rng = False
    #: the most deals one decision samples (a decision late in a deal, few cards and
    #: few candidates, reaches it)
    max_deals: ClassVar[int] = MAX_DEALS
    #: added to a deal's points when the seat made its bid (0: the points alone)
    made_bonus: ClassVar[float] = 0.0
    #: the bid's objective, the share of bids made: a bid decision values a rollout at 1
    #: if the bid was made, else 0, plus this times its points (None: points + made_bonus)
    bid_points_weight: ClassVar[float | None] = 0.02
    #: likewise for the play decisions (None: points + made_bonus)
    play_points_weight: ClassVar[float | None] = None
    #: a bid decision (with ``bid_points_weight``) values a rollout this much less for
    #: each trick bid: a lean to the lower bids (0: none)
    bid_lean: ClassVar[float] = 0.0
    #: a bid decision races its bids: every this many deals the bids clearly worse than
    #: the best (``prune_z`` standard errors) are dropped and the budget, counted in
    #: rollouts, goes to the rest (0: every bid gets every deal)
    bid_prune_every: ClassVar[int] = 0
    #: bids tried: those within this many tricks of the hand's expected tricks (None: all)
    bid_window: ClassVar[float | None] = None
    #: the bids as evidence: a sampled deal is kept with chance exp(-Σ d² / 2σ²), d each
    #: other bidder's bid minus the tricks its sampled hand should take (None: off)
    bid_sigma: ClassVar[float | None] = None
    #: the most deals drawn for one kept deal (the last drawn is kept)
    bid_tries: ClassVar[int] = 30
    #: the bids as evidence, cheaper: every sampled deal is kept, weighted by
    #: exp(-Σ d² / 2σ²), d as for ``bid_sigma`` (None: all deals alike)
    weight_sigma: ClassVar[float | None] = None
    #: the other seats' bids and plays as evidence: a sampled deal's weight is this to
    #: the power of how many of them the heuristic would not have made from the sampled
    #: hands (``misfits``; None: off)
    evidence: ClassVar[float | None] = 0.3
    #: ``evidence`` in bid decisions too (the earlier bids), not only in card play
    evidence_in_bids: ClassVar[bool] = False
    #: try one card of each run of touching cards (``equivalent_plays``)
    merge_equivalent: ClassVar[bool] = False
    #: importance resampling of the sampled deals: up to this many deals are drawn for
    #: one kept, each accepted with chance ``evidence`` (0.3 if None) to the power of its
    #: ``misfits``; if none is, the draw with the fewest is kept; a kept deal then counts
    #: as much as any other (0: off — every deal drawn is kept, weighted by ``evidence``)
    resample: ClassVar[int] = 0
    #: ``resample`` in bid decisions (the earlier bids as evidence)
    resample_in_bids: ClassVar[bool] = True
    #: ``resample`` in card play (the bids and plays as evidence)
    resample_in_play: ClassVar[bool] = True
    #: what one resampling draw costs, in cards played in rollouts: a decision that
    #: resamples samples iterations ÷ (candidates × cards + this × ``resample``) deals
    resample_cost: ClassVar[float] = 10.0
    #: a play decision's budget is this times ``iterations`` (a bid decision's is 1 ×)
    play_share: ClassVar[float] = 1.0
    #: a decision's deals are this times as many in the variants named here (by
    #: ``Variant.name``; the others: 1 ×), but never cut below ``SHARE_FLOOR`` (``shared``)
    variant_shares: ClassVar[Mapping[str, float]] = VARIANT_SHARES

    def __init__(self, game: str, iterations: int | None = None,
                 seconds: float | None = None, name: str = "search") -> None:
        super().__init__(game, iterations, seconds, name)
        heuristic = self.heuristic = OpendaumHeuristic(game)
        self.variant = heuristic.variant
        #: the points weight of the decision being searched (set by ``decide``)
        self._weight: float | None = None
        #: the lean to lower bids of the decision being searched (set by ``decide``)
        self._lean = 0.0
        #: the evidence weight of the decision being searched (set by ``decide``)
        self._evidence: float | None = None
        #: the deals drawn for one kept by the decision being searched (set by ``decide``)
        self._tries = 0
        #: the budget, in cards played, of the decision being searched (set by ``decide``)
        self._budget = self.iterations

    def prepare(self, observation: Mapping[str, Any]) -> Template:
        assert isinstance(observation, Observation), "the search reads the typed observation"
        return prepare(observation)

    def decide(self, observation: Mapping[str, Any], legal: list[str], rng: random.Random,
               sample: Callable[[], OpendaumDeal] | None) -> str:
        view = observation.deal if isinstance(observation, Observation) else None
        phase = view.phase if isinstance(view, OpendaumView) else observation.get("phase")
        bidding = phase == "bid"
        self._weight = self.bid_points_weight if bidding else self.play_points_weight
        self._lean = self.bid_lean if bidding else 0.0
        self._evidence = self.evidence if not bidding or self.evidence_in_bids else None
        self._tries = self.resample if (self.resample_in_bids if bidding
                                        else self.resample_in_play) else 0
        self._budget = self.iterations if bidding or self.play_share == 1.0 else round(
            self.iterations * self.play_share)
        if self._tries:
            self._evidence = None           # the resampling is the weighting
        self.prune_every = self.bid_prune_every if bidding else 0
        self.budget_in_rollouts = bidding and self.bid_prune_every > 0
        return super().decide(observation, legal, rng, sample)

    def rules_of(self, view: OpendaumView) -> TrickRules:
        """The trick rules of the deal ``view`` shows (its variant, options and trump)."""
        assert view.trump is not None
        return trick_rules(self.variant, view.options)[view.trump]

    def candidates(self, observation: Mapping[str, Any], legal: list[str],
                   default: str) -> list[str]:
        view = observation.deal if isinstance(observation, Observation) else None
        if not isinstance(view, OpendaumView) or view.trump is None:
            return legal
        rules = self.rules_of(view)
        if view.phase == "bid":
            if self.bid_window is None:
                return legal
            est = expected_tricks(view.hand, rules, len(view.hand_sizes))
            near = [a for a in legal if abs(int(a[4:]) - est) <= self.bid_window]
            return near or legal
        if not self.merge_equivalent:
            return legal
        return equivalent_plays(rules, view, legal, default)

    def deal_budget(self, observation: Mapping[str, Any], actions: list[str]) -> int:
        if len(actions) == 1:
            return 0            # the candidates leave no choice: nothing to sample
        cards = max(1, len(observation["hand"]))
        most = self.max_deals
        budget = self._budget
        if self.budget_in_rollouts:         # in rollouts: as many as the deals would take
            deals = budget // (len(actions) * cards)
            return len(actions) * self.shared(max(MIN_DEALS, min(most, deals)))
        if self._tries > 1:                 # each deal's draws cost rollout cards too
            per_deal = len(actions) * cards + self.resample_cost * self._tries
            return self.shared(max(MIN_DEALS, min(most, int(budget // per_deal))))
        return self.shared(max(MIN_DEALS, min(most, budget // (len(actions) * cards))))

    def shared(self, deals: int) -> int:
        """``deals`` times the variant's share (``variant_shares``), never below
        ``SHARE_FLOOR`` by it: the share trims the costly decisions of the normal and
        hard levels, not the few deals of a small budget."""
        share = self.variant_shares.get(self.variant.name, 1.0)
        if share == 1.0 or deals <= SHARE_FLOOR:
            return deals
        return max(SHARE_FLOOR, round(deals * share))

    def sample(self, prepared: Any, rng: random.Random) -> OpendaumDeal:
        template: Template = prepared
        if self._tries > 1:
            return self.resampled(template, rng)
        if self.bid_sigma is None:
            return template.sample(rng)
        return template.sample(rng, self.fitting_parts(template, rng))

    def resampled(self, template: Template, rng: random.Random) -> OpendaumDeal:
        """One deal by importance resampling: up to ``resample`` deals are drawn, each
        accepted with chance e ** misfits (e: ``evidence``, else 0.3) — so an accepted deal
        is drawn in proportion to its evidence weight; if none is, the draw with the
        fewest misfits is kept (the first of them). The misfits are counted only as far
        as the decision needs (``misfits_below``)."""
        e = self.evidence if self.evidence is not None else 0.3
        log_e = math.log(e)
        seat = template.seat
        best: OpendaumDeal | None = None
        fewest = math.inf
        for _ in range(self._tries):
            det = template.sample(rng)
            u = rng.random()
            # accepted iff e ** m > u, i.e. m < log u / log e
            below = math.log(u) / log_e if u > 0.0 else math.inf
            m = misfits_below(det, seat, max(below, fewest))
            if m < below:
                return det
            if m < fewest:
                best, fewest = det, m
        assert best is not None
        return best

    def fitting_parts(self, template: Template, rng: random.Random) -> list[list[Card]]:
        """The unseen cards shared so that the bids fit: a share is kept with chance
        exp(-Σ d² / 2σ²), d each other bidder's bid minus the tricks its whole dealt hand
        (the share, its fixed cards and the cards it played) should take; after
        ``bid_tries`` draws the last is kept."""
        draw = template.dealer_of_unknown.deal
        parts = draw(rng)
        bids, n, rules = template.view.bids, template.players, template.rules
        index = {p: i for i, p in enumerate(template.places[:-1])}
        bidders = [(s, b) for s, b in enumerate(bids) if b is not None and s in index]
        if not bidders:
            return parts
        assert self.bid_sigma is not None
        scale = -0.5 / (self.bid_sigma * self.bid_sigma)
        fixed, played = template.fixed, template.played_by
        for _ in range(self.bid_tries - 1):
            miss = sum((b - expected_tricks(parts[index[s]] + fixed[s] + played[s], rules, n)) ** 2
                       for s, b in bidders)
            if rng.random() < math.exp(scale * miss):
                break
            parts = draw(rng)
        return parts

    def weight(self, det: OpendaumDeal, seat: int) -> float:
        w = 1.0
        if self._evidence is not None:
            # misfits_below with no cap is misfits (the shakhi variant's plays faster)
            w = self._evidence ** misfits_below(det, seat, math.inf)
        if self.weight_sigma is None:
            return w
        rules, n, hands = det.rules, det.players, det.deal.hands
        miss = sum((b - expected_tricks(hands[s], rules, n)) ** 2
                   for s, b in enumerate(det.bids) if b is not None and s != seat)
        return w * math.exp(-0.5 * miss / (self.weight_sigma * self.weight_sigma))

    def rollout(self, state: OpendaumDeal, rng: random.Random) -> None:
        fast_rollout(state, rng)            # the heuristic's, shakhi without the state

    def value(self, state: OpendaumDeal, seat: int) -> float:
        v = state.payoffs()[seat]
        made = state.bids[seat] == state.tricks[seat]
        weight = self._weight
        if weight is not None:
            if self._lean:
                return float(made) + weight * v - self._lean * (state.bids[seat] or 0)
            return float(made) + weight * v
        if self.made_bonus and made:
            v += self.made_bonus
        return v


def equivalent_plays(rules: TrickRules, view: OpendaumView, legal: list[str],
                     default: str) -> list[str]:
    """One play of each run of touching cards: two cards of a suit with no card between
    them that may still be played or lies on the table (every card between is in this
    hand, in a completed trick, or the trump card turned on the stock) take the same tricks
    whichever is played now — the rest of the hand is the same run either way. The
    heuristic's choice stands for its run; a shakha is always tried on its own."""
    gone = mask(view.hand)
    for t in view.tricks_played:
        for play in t.cards:
            gone |= BIT[play[1]]
    if view.deck_size > len(view.hand_sizes) * view.deal_size:
        gone |= BIT[view.trump_card]            # turned on the stock: never played
    live = mask(deck(view.deck_size)) & ~gone    # unseen, or on the table now
    keep: dict[object, str] = {}
    for a in legal:
        c, mode = PLAY_ACTION[a]
        if mode is not None or c in rules.shakhi:
            key: object = a
        else:
            s = rules.suit[c]
            below = sum(1 for x in range(52) if live & BIT[x] and rules.suit[x] == s
                        and x not in rules.shakhi and rules.power[x] < rules.power[c])
            key = (s, below)
        if key not in keep or a == default:
            keep[key] = a
    return list(keep.values())
